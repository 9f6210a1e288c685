// Requests the cluster suite sends: discovery of a kind's REST path, server-side apply and create
// with strict field validation (optionally dry-run), namespaces, and waiting for CRDs.
import * as k8s from '@kubernetes/client-node';
import { kfetch, type Cluster } from './_cluster.ts';

export type Obj = { apiVersion: string; kind: string; metadata: { name?: string; namespace?: string; [k: string]: unknown }; [k: string]: unknown };

interface Resource {
  name: string;
  namespaced: boolean;
  kind: string;
}

const discovery = new WeakMap<Cluster, Map<string, Resource[]>>();

async function resources(c: Cluster, apiVersion: string): Promise<Resource[]> {
  let cache = discovery.get(c);
  if (!cache) discovery.set(c, (cache = new Map()));
  const hit = cache.get(apiVersion);
  if (hit) return hit;
  const r = await kfetch(c, apiVersion.includes('/') ? `/apis/${apiVersion}` : `/api/${apiVersion}`);
  if (r.status !== 200) return [];
  const list = (JSON.parse(r.body) as { resources: Resource[] }).resources.filter((x) => !x.name.includes('/'));
  cache.set(apiVersion, list);
  return list;
}

/** Forgets discovery answers (after CRDs were installed). */
export function forgetDiscovery(c: Cluster): void {
  discovery.delete(c);
}

/** The collection path of an object's kind, or undefined when the server does not serve it. */
export async function collectionPath(c: Cluster, o: Obj, defaultNamespace: string): Promise<string | undefined> {
  const res = (await resources(c, o.apiVersion)).find((r) => r.kind === o.kind);
  if (!res) return undefined;
  const base = o.apiVersion.includes('/') ? `/apis/${o.apiVersion}` : `/api/${o.apiVersion}`;
  const ns = o.metadata.namespace ?? defaultNamespace;
  return res.namespaced ? `${base}/namespaces/${encodeURIComponent(ns)}/${res.name}` : `${base}/${res.name}`;
}

export interface Outcome {
  status: number;
  warnings: string[];
  /** The Status object of a refusal. */
  error?: { message: string; reason?: string; details?: { causes?: { field?: string; message?: string; reason?: string }[] } };
  object?: Obj;
}

const FIELD_MANAGER = 'agentplat-cluster-test';

function outcome(r: { status: number; body: string; warnings: string[] }): Outcome {
  const body = r.body ? (JSON.parse(r.body) as Record<string, unknown>) : {};
  if (r.status >= 200 && r.status < 300) return { status: r.status, warnings: r.warnings, object: body as Obj };
  return { status: r.status, warnings: r.warnings, error: body as Outcome['error'] };
}

/** Server-side apply of one object with strict field validation; `dryRun` sends dryRun=All. */
export async function apply(c: Cluster, o: Obj, opts: { dryRun: boolean; namespace?: string }): Promise<Outcome> {
  const path = await collectionPath(c, o, opts.namespace ?? 'default');
  if (!path) return { status: 404, warnings: [], error: { message: `the server does not serve ${o.apiVersion} ${o.kind}` } };
  const q = new URLSearchParams({ fieldManager: FIELD_MANAGER, fieldValidation: 'Strict', force: 'true' });
  if (opts.dryRun) q.set('dryRun', 'All');
  // JSON is YAML: the apply content type takes it as it is.
  const r = await kfetch(c, `${path}/${encodeURIComponent(o.metadata.name ?? '')}?${q}`, { method: 'PATCH', body: JSON.stringify(o), contentType: 'application/apply-patch+yaml' });
  return outcome(r);
}

/** Create of one object with strict field validation; `dryRun` sends dryRun=All. */
export async function create(c: Cluster, o: Obj, opts: { dryRun: boolean; namespace?: string }): Promise<Outcome> {
  const path = await collectionPath(c, o, opts.namespace ?? 'default');
  if (!path) return { status: 404, warnings: [], error: { message: `the server does not serve ${o.apiVersion} ${o.kind}` } };
  const q = new URLSearchParams({ fieldManager: FIELD_MANAGER, fieldValidation: 'Strict' });
  if (opts.dryRun) q.set('dryRun', 'All');
  return outcome(await kfetch(c, `${path}?${q}`, { method: 'POST', body: JSON.stringify(o), contentType: 'application/json' }));
}

/** Creates the namespaces that do not exist yet, through the client library. */
export async function ensureNamespaces(c: Cluster, names: Iterable<string>): Promise<void> {
  const core = c.kc.makeApiClient(k8s.CoreV1Api);
  const existing = new Set((await core.listNamespace()).items.map((n) => n.metadata?.name));
  for (const name of new Set(names)) if (!existing.has(name)) await core.createNamespace({ body: { metadata: { name } } });
}

export interface CrdState {
  name: string;
  /** The refusal of the apply request, if any. */
  error?: string;
  warnings: string[];
  conditions: Record<string, string>;
}

/**
 * Applies CRDs with server-side apply (strict) and waits until each is Established, reading its
 * status through the client library. The apply itself is a plain request: the library's typed
 * serializer expects its own property names and silently drops `x-kubernetes-*` keys of a CRD
 * given as plain JSON.
 */
export async function installCrds(c: Cluster, crds: Obj[]): Promise<CrdState[]> {
  const ext = c.kc.makeApiClient(k8s.ApiextensionsV1Api);
  const out: CrdState[] = [];
  for (const crd of crds) {
    const name = crd.metadata.name!;
    const r = await apply(c, crd, { dryRun: false });
    if (r.error) {
      out.push({ name, error: r.error.message, warnings: r.warnings, conditions: {} });
      continue;
    }
    // Until Established, or until the API server says the names are refused (it never establishes then).
    let conditions: Record<string, string> = {};
    for (;;) {
      const got = await ext.readCustomResourceDefinition({ name });
      conditions = Object.fromEntries((got.status?.conditions ?? []).map((x) => [x.type, x.status]));
      if (conditions.Established === 'True' || conditions.NamesAccepted === 'False') break;
      await new Promise((res) => setTimeout(res, 200));
    }
    out.push({ name, warnings: r.warnings, conditions });
  }
  forgetDiscovery(c);
  return out;
}

/** Problems of an install: refusals, warnings, CRDs not Established. */
export function crdProblems(states: CrdState[]): string[] {
  return states.flatMap((s) => {
    if (s.error) return [`${s.name}: refused: ${s.error}`];
    const p: string[] = s.warnings.map((w) => `${s.name}: warning: ${w}`);
    if (s.conditions.Established !== 'True' || s.conditions.NamesAccepted !== 'True') p.push(`${s.name}: conditions ${JSON.stringify(s.conditions)}`);
    return p;
  });
}

/** A one-line description of a refusal or of warnings, for assertion messages. */
export function describeOutcome(o: Obj, r: Outcome): string {
  const id = `${o.kind} ${o.metadata.namespace ? `${o.metadata.namespace}/` : ''}${o.metadata.name}`;
  if (r.error) return `${id}: ${r.status} ${r.error.message}`;
  return `${id}: ${r.warnings.join('; ')}`;
}
