// The one connection to a live cluster every `--cluster` command uses: the kubeconfig resolved as
// kubectl resolves it (kubeconfig.ts), credentials and TLS from @kubernetes/client-node (tokens,
// client certificates, exec and auth-provider plugins, proxies), and a small typed client over
// plain API requests: discovery, list (all namespaces, or namespace by namespace when the user
// may not list cluster-wide), get, and server-side apply in dry-run. Requests are sent as they
// are, so query parameters (fieldValidation, dryRun) and content types reach the server
// unchanged and objects of any kind come back as the server wrote them.
//
// This module imports the cluster client library: only a `--cluster` run loads it, through a
// dynamic import; the build keeps the library out of the bundle (scripts/build.mjs).
import * as http from 'node:http';
import * as https from 'node:https';
import { KubeConfig } from '@kubernetes/client-node';
import { apiVersionOf, ClusterError, splitApiVersion, type ApiRefusal, type ApiResource, type ApplyResult, type ClusterClient, type GroupVersionKind, type KubeObject, type ListResult, type ServedGroup } from './client.ts';
import { resolveKubeconfig, type KubeconfigEnv, type KubeconfigFlags, type ResolvedKubeconfig } from './kubeconfig.ts';

export type { KubeconfigFlags } from './kubeconfig.ts';
export * from './client.ts';

export interface ConnectOptions extends KubeconfigFlags {
  /** `-n/--namespace`: overrides the context's namespace. */
  namespace?: string;
}

interface Response {
  status: number;
  body: string;
  warnings: string[];
  /** Retry-After of a 429, in seconds. */
  retryAfter?: number;
}

/**
 * A 429 (the server busy, or a kind's storage still starting just after its CRD was established)
 * is asked again after the Retry-After it names, as kubectl's client does, this many times.
 */
const RETRIES_ON_429 = 5;
const MAX_RETRY_AFTER_S = 5;

/**
 * Resolves the kubeconfig and checks that the API server answers (GET /version), so an
 * unreachable cluster or refused credentials end the run before any work.
 */
export async function connect(opts: ConnectOptions, where: KubeconfigEnv): Promise<ClusterClient> {
  const resolved = resolveKubeconfig(opts, where);
  const kc = new KubeConfig();
  try {
    kc.loadFromString(JSON.stringify(resolved.config));
    kc.setCurrentContext(resolved.context);
  } catch (e) {
    throw new ClusterError(`the kubeconfig (${resolved.files.join(', ')}) cannot be used: ${(e as Error).message}`, 'kubectl config view shows the entries kubectl reads; fix the one named');
  }
  const client = new Client(kc, resolved, opts.namespace ?? resolved.namespace);
  await client.send('GET', '/version', { what: 'read the server version' });
  return client;
}

const NETWORK_HINTS: Record<string, string> = {
  ECONNREFUSED: 'nothing listens there: is the cluster running, and is this the right context?',
  ENOTFOUND: 'the host name does not resolve: check the server URL of the context, and your DNS or VPN',
  EAI_AGAIN: 'the host name does not resolve now: check your DNS or VPN',
  ETIMEDOUT: 'no answer: check the network path to the cluster (VPN, firewall, proxy)',
  ECONNRESET: 'the connection was dropped: check a proxy or firewall between you and the cluster',
  EHOSTUNREACH: 'no route to the host: check the network path to the cluster (VPN, firewall)',
  DEPTH_ZERO_SELF_SIGNED_CERT: "the server's certificate is not trusted: set certificate-authority(-data) of the cluster in the kubeconfig",
  SELF_SIGNED_CERT_IN_CHAIN: "the server's certificate is not trusted: set certificate-authority(-data) of the cluster in the kubeconfig",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the server's certificate is not trusted: set certificate-authority(-data) of the cluster in the kubeconfig",
  ERR_TLS_CERT_ALTNAME_INVALID: "the server's certificate does not name this host: use the URL it was issued for, or set tls-server-name",
};

/** Idle time after which a request counts as unanswered. */
const SOCKET_TIMEOUT_MS = 30_000;

class Client implements ClusterClient {
  readonly context: string;
  readonly server: string;
  private readonly discovered = new Map<string, Promise<ApiResource[]>>();

  constructor(
    private readonly kc: KubeConfig,
    private readonly resolved: ResolvedKubeconfig,
    readonly namespace: string,
  ) {
    this.context = resolved.context;
    this.server = resolved.server.replace(/\/+$/, '');
  }

  /** One request; network failures and 401 throw ClusterError, 403 too unless `allow` lists it. */
  async send(method: string, path: string, opts: { what: string; body?: string; contentType?: string; allow?: number[] }): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const res = await this.sendOnce(method, path, opts);
      if (res.status !== 429 || attempt >= RETRIES_ON_429) return res;
      await new Promise((r) => setTimeout(r, 1000 * Math.min(MAX_RETRY_AFTER_S, Math.max(1, res.retryAfter ?? 1))));
    }
  }

  private async sendOnce(method: string, path: string, opts: { what: string; body?: string; contentType?: string; allow?: number[] }): Promise<Response> {
    const url = new URL(this.server + path);
    const options: https.RequestOptions = { method, headers: { accept: 'application/json' } };
    try {
      await this.kc.applyToHTTPSOptions(options);
    } catch (e) {
      throw new ClusterError(`cannot get credentials for user ${this.resolved.user || '(none)'} of context ${this.context}: ${(e as Error).message}`, 'run the same kubectl command to see the failure (an exec plugin or an expired login), then log in again');
    }
    if (opts.contentType) options.headers = { ...options.headers, 'content-type': opts.contentType };
    const res = await new Promise<Response>((resolveRes, reject) => {
      const req = (url.protocol === 'http:' ? http : https).request(url, options, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (d: Buffer) => chunks.push(d));
        r.on('end', () => {
          const w = r.headers.warning;
          const after = Number(r.headers['retry-after']);
          resolveRes({ status: r.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), warnings: w === undefined ? [] : (Array.isArray(w) ? w : [w]).map(warningText), ...(Number.isFinite(after) ? { retryAfter: after } : {}) });
        });
        r.on('error', reject);
      });
      req.setTimeout(SOCKET_TIMEOUT_MS, () => req.destroy(Object.assign(new Error(`no answer within ${SOCKET_TIMEOUT_MS / 1000}s`), { code: 'ETIMEDOUT' })));
      req.on('error', reject);
      req.end(opts.body);
    }).catch((e: unknown) => {
      const err = e as NodeJS.ErrnoException;
      const code = err.code ?? '';
      throw new ClusterError(
        `cannot reach the API server ${this.server} (context ${this.context}): ${err.message}${code && !err.message.includes(code) ? ` (${code})` : ''}`,
        NETWORK_HINTS[code] ?? 'check that the cluster is running and that the context points at it (kubectl cluster-info)',
      );
    });
    if (res.status === 401) {
      throw new ClusterError(
        `the API server ${this.server} refused the credentials of user ${this.resolved.user || '(none)'} (context ${this.context}) to ${opts.what}: 401 Unauthorized`,
        'the token or certificate is missing, wrong or expired: log in again (your provider\'s CLI refreshes the kubeconfig)',
        401,
      );
    }
    if (res.status === 403 && !opts.allow?.includes(403)) {
      throw new ClusterError(
        `the API server ${this.server} refused to let user ${this.resolved.user || '(none)'} ${opts.what}: ${statusOf(res).message}`,
        `ask for that permission (kubectl auth can-i shows what you may do), or use a context that has it`,
        403,
      );
    }
    return res;
  }

  private async json<T>(path: string, what: string): Promise<T> {
    const r = await this.send('GET', path, { what });
    if (r.status !== 200) throw new ClusterError(`the API server ${this.server} could not ${what}: ${statusOf(r).message}`, 'see the message; kubectl get --raw PATH asks the same', r.status);
    return JSON.parse(r.body) as T;
  }

  async groups(): Promise<ServedGroup[]> {
    const list = await this.json<{ groups?: { name: string; versions: { version: string }[]; preferredVersion?: { version: string } }[] }>('/apis', 'list the API groups (/apis)');
    return (list.groups ?? []).map((g) => {
      const preferred = g.preferredVersion?.version ?? g.versions[0]?.version ?? '';
      return { name: g.name, preferredVersion: preferred, versions: [preferred, ...g.versions.map((v) => v.version).filter((v) => v !== preferred)] };
    });
  }

  resources(group: string, version: string): Promise<ApiResource[]> {
    const gv = apiVersionOf(group, version);
    let hit = this.discovered.get(gv);
    if (!hit) {
      hit = (async () => {
        const r = await this.send('GET', group === '' ? `/api/${version}` : `/apis/${gv}`, { what: `read the resources of ${gv}` });
        if (r.status === 404) return [];
        if (r.status !== 200) throw new ClusterError(`the API server ${this.server} could not list the resources of ${gv}: ${statusOf(r).message}`, 'see the message', r.status);
        const body = JSON.parse(r.body) as { resources?: { name: string; kind: string; namespaced: boolean; verbs?: string[] }[] };
        return (body.resources ?? []).filter((x) => !x.name.includes('/')).map((x) => ({ group, version, kind: x.kind, name: x.name, namespaced: x.namespaced, verbs: x.verbs ?? [] }));
      })();
      this.discovered.set(gv, hit);
      hit.catch(() => this.discovered.delete(gv));
    }
    return hit;
  }

  private async resource(gvk: GroupVersionKind): Promise<ApiResource> {
    const found = (await this.resources(gvk.group, gvk.version)).find((r) => r.kind === gvk.kind);
    if (!found) throw new ClusterError(`the API server ${this.server} does not serve ${gvk.kind} at ${apiVersionOf(gvk.group, gvk.version)}`, 'kubectl api-resources lists what it serves; the CRD may not be installed', 404);
    return found;
  }

  private path(res: ApiResource, namespace?: string, name?: string): string {
    const base = res.group === '' ? `/api/${res.version}` : `/apis/${res.group}/${res.version}`;
    const ns = res.namespaced && namespace !== undefined ? `/namespaces/${encodeURIComponent(namespace)}` : '';
    return `${base}${ns}/${res.name}${name !== undefined ? `/${encodeURIComponent(name)}` : ''}`;
  }

  /** Every page of one list request; undefined when the user may not list there (403). */
  private async listAt(res: ApiResource, namespace: string | undefined, labelSelector?: string): Promise<KubeObject[] | undefined> {
    const items: KubeObject[] = [];
    let cont = '';
    const where = namespace !== undefined ? `in namespace ${namespace}` : 'in all namespaces';
    for (;;) {
      const q = new URLSearchParams({ limit: '500' });
      if (cont) q.set('continue', cont);
      if (labelSelector) q.set('labelSelector', labelSelector);
      const r = await this.send('GET', `${this.path(res, namespace)}?${q}`, { what: `list ${res.name}.${res.group || 'core'} ${where}`, allow: [403] });
      if (r.status === 403) return undefined;
      if (r.status !== 200) throw new ClusterError(`the API server ${this.server} could not list ${res.name}.${res.group} ${where}: ${statusOf(r).message}`, 'see the message', r.status);
      const list = JSON.parse(r.body) as { apiVersion?: string; items?: KubeObject[]; metadata?: { continue?: string } };
      // Items of a list carry no apiVersion and kind: the list's kind names them.
      for (const item of list.items ?? []) items.push({ ...item, apiVersion: apiVersionOf(res.group, res.version), kind: res.kind });
      cont = list.metadata?.continue ?? '';
      if (!cont) return items;
    }
  }

  async list(gvk: GroupVersionKind, opts: { namespace?: string; labelSelector?: string } = {}): Promise<ListResult> {
    const res = await this.resource(gvk);
    const selector = opts.labelSelector;
    if (!res.namespaced || opts.namespace !== undefined) {
      const ns = res.namespaced ? opts.namespace : undefined;
      const items = await this.listAt(res, ns, selector);
      // One namespace asked for (or a cluster-scoped kind): nothing narrower to suggest.
      if (items === undefined) this.forbidden(`list ${res.name}.${res.group} ${ns !== undefined ? `in namespace ${ns}` : ''}`.trim(), false);
      return { items: items!, namespaces: ns === undefined ? 'all' : [ns], forbidden: [] };
    }
    const all = await this.listAt(res, undefined, selector);
    if (all !== undefined) return { items: all, namespaces: 'all', forbidden: [] };
    // Not allowed cluster-wide: namespace by namespace, those the user can see.
    const nsRes = await this.send('GET', '/api/v1/namespaces', { what: 'list namespaces', allow: [403] });
    if (nsRes.status === 403) {
      const items = await this.listAt(res, this.namespace, selector);
      if (items === undefined) this.forbidden(`list ${res.name}.${res.group} in all namespaces, list namespaces, or list ${res.name}.${res.group} in namespace ${this.namespace}`, true);
      return { items: items!, namespaces: [this.namespace], forbidden: [], othersUnknown: true };
    }
    if (nsRes.status !== 200) throw new ClusterError(`the API server ${this.server} could not list namespaces: ${statusOf(nsRes).message}`, 'see the message', nsRes.status);
    const names = ((JSON.parse(nsRes.body) as { items?: KubeObject[] }).items ?? []).map((n) => n.metadata.name).sort();
    const items: KubeObject[] = [];
    const listed: string[] = [];
    const forbidden: string[] = [];
    for (const ns of names) {
      const got = await this.listAt(res, ns, selector);
      if (got === undefined) forbidden.push(ns);
      else {
        listed.push(ns);
        items.push(...got);
      }
    }
    if (listed.length === 0) this.forbidden(`list ${res.name}.${res.group} in any namespace`, false);
    return { items, namespaces: listed, forbidden };
  }

  /** A refused list; `narrower`: one namespace could still be read, so -n is worth naming. */
  private forbidden(what: string, narrower: boolean): never {
    throw new ClusterError(
      `the API server ${this.server} refused to let user ${this.resolved.user || '(none)'} ${what}: 403 Forbidden`,
      `ask for that permission (kubectl auth can-i shows what you may do), or use a context that has it${narrower ? '; -n NAMESPACE narrows the run to one namespace' : ''}`,
      403,
    );
  }

  async namespaceExists(name: string): Promise<boolean | undefined> {
    const r = await this.send('GET', `/api/v1/namespaces/${encodeURIComponent(name)}`, { what: `get namespace ${name}`, allow: [403] });
    if (r.status === 200) return true;
    if (r.status === 404) return false;
    if (r.status === 403) return undefined;
    throw new ClusterError(`the API server ${this.server} could not get namespace ${name}: ${statusOf(r).message}`, 'see the message', r.status);
  }

  async get(gvk: GroupVersionKind, name: string, namespace?: string): Promise<KubeObject | undefined> {
    const res = await this.resource(gvk);
    const r = await this.send('GET', this.path(res, res.namespaced ? (namespace ?? this.namespace) : undefined, name), { what: `get ${res.name}.${res.group || 'core'} ${name}` });
    if (r.status === 404) return undefined;
    if (r.status !== 200) throw new ClusterError(`the API server ${this.server} could not get ${gvk.kind} ${name}: ${statusOf(r).message}`, 'see the message', r.status);
    return JSON.parse(r.body) as KubeObject;
  }

  async applyDryRun(object: KubeObject, opts: { fieldManager: string; force?: boolean }): Promise<ApplyResult> {
    const [group, version] = splitApiVersion(object.apiVersion);
    const res = await this.resource({ group, version, kind: object.kind });
    const q = new URLSearchParams({ dryRun: 'All', fieldManager: opts.fieldManager, force: opts.force ? 'true' : 'false', fieldValidation: 'Strict' });
    const ns = res.namespaced ? (object.metadata.namespace ?? this.namespace) : undefined;
    // JSON is YAML: the apply content type takes the object as it is.
    const r = await this.send('PATCH', `${this.path(res, ns, object.metadata.name)}?${q}`, {
      what: `apply ${object.kind} ${ns ? `${ns}/` : ''}${object.metadata.name} (dry run)`,
      body: JSON.stringify(object),
      contentType: 'application/apply-patch+yaml',
      allow: [403],
    });
    if (r.status >= 200 && r.status < 300) return { ok: true, object: JSON.parse(r.body) as KubeObject, warnings: r.warnings };
    return { ok: false, refusal: statusOf(r), warnings: r.warnings };
  }
}

/** The server's Status object of a failed request, or the HTTP status when the body is none. */
function statusOf(r: Response): ApiRefusal {
  try {
    const s = JSON.parse(r.body) as { message?: string; reason?: string; details?: { causes?: ApiRefusal['causes'] } };
    if (s && typeof s.message === 'string') return { status: r.status, reason: s.reason ?? '', message: s.message, causes: s.details?.causes ?? [] };
  } catch {
    // not JSON: a proxy's page
  }
  return { status: r.status, reason: '', message: `HTTP ${r.status}${r.body ? `: ${r.body.slice(0, 200).trim()}` : ''}`, causes: [] };
}

/** `299 - "text"` → `text`. */
function warningText(w: string): string {
  const m = /^\d{3} \S+ "(.*)"$/.exec(w);
  return m ? m[1]!.replace(/\\"/g, '"') : w;
}
