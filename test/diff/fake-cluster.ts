// A ClusterClient (src/cluster/client.ts) held in memory, for the preflight's tests: discovery of
// the kinds it is given, objects by group/kind/namespace/name, list by equality label selectors,
// and a server-side apply dry run that answers with the applied object merged over the live one
// unless the test scripted a refusal or a conflict for that object. It records every request, and
// has no way to write: a test asserts that every apply it was sent was a dry run of the interface.
import type { ApiRefusal, ApiResource, ApplyResult, ClusterClient, GroupVersionKind, KubeObject, ListResult, ServedGroup } from '../../src/cluster/client.ts';

export type Obj = KubeObject;

export interface FakeRequest {
  verb: 'groups' | 'resources' | 'list' | 'get' | 'apply';
  what: string;
  force?: boolean;
  fieldManager?: string;
}

const split = (apiVersion: string): [string, string] => {
  const i = apiVersion.indexOf('/');
  return i < 0 ? ['', apiVersion] : [apiVersion.slice(0, i), apiVersion.slice(i + 1)];
};

export const idOf = (o: { apiVersion: string; kind: string; metadata: { name: string; namespace?: string } }): string => `${split(o.apiVersion)[0]}/${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`;

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** `a` with `b` merged over it, maps by key (lists replaced): what an apply leaves, in short. */
export function merge(a: unknown, b: unknown): unknown {
  if (!isMap(a) || !isMap(b)) return structuredClone(b);
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = merge(a[k], v);
  return out;
}

export class FakeCluster implements ClusterClient {
  readonly context = 'fake';
  readonly server = 'https://fake.invalid';
  readonly namespace = 'default';
  readonly requests: FakeRequest[] = [];
  private readonly kinds: ApiResource[] = [];
  readonly objects = new Map<string, Obj>();
  /** id → the answer to a dry-run apply that is not forced (a conflict or a refusal). */
  readonly refusals = new Map<string, ApiRefusal>();
  /** id → the answer to a forced dry-run apply. */
  readonly forcedRefusals = new Map<string, ApiRefusal>();
  /** Kinds the user may not list (`group/Kind`). */
  readonly forbiddenLists = new Set<string>();

  /** Serves a kind: `apps/v1`, `Deployment`. */
  serve(apiVersion: string, kind: string, namespaced = true): this {
    const [group, version] = split(apiVersion);
    this.kinds.push({ group, version, kind, name: `${kind.toLowerCase()}s`, namespaced, verbs: ['get', 'list', 'patch'] });
    return this;
  }

  /** Puts a live object in the cluster, with server fields. */
  put(o: Obj, managedFields?: unknown[]): this {
    const copy = structuredClone(o);
    copy.metadata = { ...copy.metadata, uid: `uid-${this.objects.size}`, resourceVersion: '1', creationTimestamp: '2026-01-01T00:00:00Z', ...(managedFields ? { managedFields } : {}) };
    this.objects.set(idOf(copy), copy);
    return this;
  }

  async groups(): Promise<ServedGroup[]> {
    this.requests.push({ verb: 'groups', what: '/apis' });
    const names = [...new Set(this.kinds.filter((k) => k.group !== '').map((k) => k.group))];
    return names.map((name) => {
      const version = this.kinds.find((k) => k.group === name)!.version;
      return { name, versions: [version], preferredVersion: version };
    });
  }

  async resources(group: string, version: string): Promise<ApiResource[]> {
    this.requests.push({ verb: 'resources', what: `${group}/${version}` });
    return this.kinds.filter((k) => k.group === group && k.version === version);
  }

  async list(gvk: GroupVersionKind, opts: { namespace?: string; labelSelector?: string } = {}): Promise<ListResult> {
    this.requests.push({ verb: 'list', what: `${gvk.group}/${gvk.kind} ${opts.labelSelector ?? ''}` });
    if (this.forbiddenLists.has(`${gvk.group}/${gvk.kind}`)) throw Object.assign(new Error('forbidden'), { status: 403 });
    const want = (opts.labelSelector ?? '').split(',').filter(Boolean).map((kv) => kv.split('=') as [string, string]);
    const items = [...this.objects.values()].filter((o) => {
      if (split(o.apiVersion)[0] !== gvk.group || o.kind !== gvk.kind) return false;
      const labels = (o.metadata.labels ?? {}) as Record<string, string>;
      return want.every(([k, v]) => labels[k] === v);
    });
    return { items: structuredClone(items), namespaces: 'all', forbidden: [] };
  }

  /** Namespaces that exist; undefined: the user may not get namespaces. */
  namespaces: Set<string> | undefined = new Set(['default', 'agentplat']);

  async namespaceExists(name: string): Promise<boolean | undefined> {
    return this.namespaces === undefined ? undefined : this.namespaces.has(name);
  }

  async get(gvk: GroupVersionKind, name: string, namespace?: string): Promise<Obj | undefined> {
    const id = `${gvk.group}/${gvk.kind} ${namespace ?? ''}/${name}`;
    this.requests.push({ verb: 'get', what: id });
    const o = this.objects.get(id);
    return o ? structuredClone(o) : undefined;
  }

  async applyDryRun(object: Obj, opts: { fieldManager: string; force?: boolean }): Promise<ApplyResult> {
    const id = idOf(object);
    this.requests.push({ verb: 'apply', what: id, force: opts.force === true, fieldManager: opts.fieldManager });
    const refusal = (opts.force ? this.forcedRefusals : this.refusals).get(id);
    if (refusal) return { ok: false, refusal, warnings: [] };
    const live = this.objects.get(id);
    const result = merge(live ?? {}, object) as Obj;
    result.metadata = { ...result.metadata, uid: live?.metadata.uid ?? 'new-uid', resourceVersion: live ? '2' : '1', creationTimestamp: live?.metadata.creationTimestamp ?? '2026-06-01T00:00:00Z' };
    return { ok: true, object: result, warnings: [] };
  }
}

export function conflict(manager: string, field: string): ApiRefusal {
  return { status: 409, reason: 'Conflict', message: `Apply failed with 1 conflict: conflict with "${manager}" using apps/v1: ${field}`, causes: [{ reason: 'FieldManagerConflict', message: `conflict with "${manager}" using apps/v1`, field }] };
}
