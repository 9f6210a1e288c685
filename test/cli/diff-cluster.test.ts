// `agentplat diff --cluster` end to end in-process, against a fake API server on loopback HTTP
// (discovery, get, list by label, server-side apply) that records every request: nothing but a
// dry run ever reaches it, the exit codes (0 nothing to do, 1 changes or trouble, 2 usage or an
// unreachable cluster), the text and JSON output, and flags that are refused before any request.
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { STACK_TRACE } from './binary.ts';
import { runInProcess } from './in-process.ts';
import { merge } from '../diff/fake-cluster.ts';

type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; [k: string]: unknown }; [k: string]: unknown };
interface Seen {
  method: string;
  path: string;
  query: Record<string, string>;
}

const CLUSTER_SCOPED = new Set(['ClusterRole', 'ClusterRoleBinding', 'CustomResourceDefinition', 'Namespace', 'ApplySet']);
const plural = (kind: string) => `${kind.toLowerCase()}s`;
const splitGv = (apiVersion: string): [string, string] => (apiVersion.includes('/') ? (apiVersion.split('/') as [string, string]) : ['', apiVersion]);


/** A fake API server serving the kinds of `kinds` (apiVersion, kind), holding `store` by object path. */
class FakeApi {
  server!: Server;
  port = 0;
  readonly seen: Seen[] = [];
  readonly store = new Map<string, Obj>();
  /** Object path → a Status to answer a non-forced apply with. */
  readonly refuse = new Map<string, { code: number; status: Record<string, unknown> }>();
  kinds: [string, string][] = [];
  /** The namespaces that exist. */
  readonly namespaces = new Set(['default', 'agentplat']);

  objectPath(o: Obj): string {
    const [group, version] = splitGv(o.apiVersion);
    const base = group === '' ? `/api/${version}` : `/apis/${group}/${version}`;
    const ns = CLUSTER_SCOPED.has(o.kind) ? '' : `/namespaces/${o.metadata.namespace ?? 'default'}`;
    return `${base}${ns}/${plural(o.kind)}/${o.metadata.name}`;
  }

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      void this.answer(req).then(([code, body]) => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      });
    });
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.port = (this.server.address() as { port: number }).port;
  }

  private async answer(req: IncomingMessage): Promise<[number, unknown]> {
    const url = new URL(req.url ?? '/', 'http://x');
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    this.seen.push({ method: req.method ?? '', path: url.pathname, query: Object.fromEntries(url.searchParams) });
    const p = url.pathname;
    if (p === '/version') return [200, { major: '1', minor: '37' }];
    if (p === '/apis') {
      const groups = [...new Set(this.kinds.map(([av]) => av).filter((av) => av.includes('/')))].map((av) => {
        const [name, version] = splitGv(av);
        return { name, versions: [{ groupVersion: av, version }], preferredVersion: { groupVersion: av, version } };
      });
      return [200, { kind: 'APIGroupList', groups }];
    }
    const gv = /^\/api\/(v1)$|^\/apis\/([^/]+)\/([^/]+)$/.exec(p);
    if (gv && req.method === 'GET') {
      const apiVersion = gv[1] ?? `${gv[2]}/${gv[3]}`;
      const resources = this.kinds.filter(([av]) => av === apiVersion).map(([, kind]) => ({ name: plural(kind), kind, namespaced: !CLUSTER_SCOPED.has(kind), verbs: ['get', 'list', 'patch'] }));
      return resources.length ? [200, { kind: 'APIResourceList', resources }] : [404, { kind: 'Status', message: 'not found' }];
    }
    if (req.method === 'PATCH') {
      // Anything but a dry run would be written: the store changes, and the test sees it.
      const dry = url.searchParams.get('dryRun') === 'All';
      const refusal = this.refuse.get(p);
      if (refusal && url.searchParams.get('force') !== 'true') return [refusal.code, refusal.status];
      const live = this.store.get(p);
      const result = merge(live ?? {}, JSON.parse(body)) as Obj;
      result.metadata = { ...result.metadata, uid: 'u1', resourceVersion: '7' };
      if (!dry) this.store.set(p, result);
      return [live ? 200 : 201, result];
    }
    if (req.method !== 'GET') return [405, { kind: 'Status', message: 'method not allowed' }];
    const ns = /^\/api\/v1\/namespaces\/([^/]+)$/.exec(p);
    if (ns) return this.namespaces.has(ns[1]!) ? [200, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns[1] } }] : [404, { kind: 'Status', status: 'Failure', reason: 'NotFound', message: `namespaces "${ns[1]}" not found`, code: 404 }];
    const hit = this.store.get(p);
    if (hit) return [200, hit];
    // A collection (all namespaces): /api/v1/configmaps, /apis/apps/v1/deployments.
    const coll = /^\/api\/v1\/([^/]+)$|^\/apis\/([^/]+)\/([^/]+)\/([^/]+)$/.exec(p);
    if (coll) {
      const resource = coll[1] ?? coll[4]!;
      const prefix = coll[1] ? '/api/v1/' : `/apis/${coll[2]}/${coll[3]}/`;
      const want = (url.searchParams.get('labelSelector') ?? '').split(',').filter(Boolean).map((kv) => kv.split('='));
      const items = [...this.store].filter(([path, o]) => path.startsWith(prefix) && path.split('/').at(-2) === resource && want.every(([k, v]) => o.metadata.labels?.[k!] === v)).map(([, o]) => o);
      return [200, { kind: 'List', metadata: {}, items }];
    }
    return [404, { kind: 'Status', status: 'Failure', reason: 'NotFound', message: `${p} not found`, code: 404 }];
  }
}

const dir = tempDir('agentplat-diff-cluster-');
const api = new FakeApi();
let rendered: Obj[] = [];

async function diffCluster(args: readonly string[], kubeconfig = join(dir, 'kubeconfig')) {
  const r = await runInProcess(['diff', '--cluster', '-n', 'agentplat', ...args], { cwd: dir, env: { KUBECONFIG: kubeconfig, NO_COLOR: '1' } });
  expect(r.stderr).not.toMatch(STACK_TRACE);
  return r;
}

/** The cluster holds exactly the render (as an apply of it left it). */
function seed(): void {
  api.store.clear();
  for (const o of rendered) api.store.set(api.objectPath(o), { ...structuredClone(o), metadata: { ...structuredClone(o.metadata), uid: 'u0', resourceVersion: '1', managedFields: [{ manager: 'agentplat', operation: 'Apply', fieldsType: 'FieldsV1', fieldsV1: {} }] } });
}

beforeAll(async () => {
  writeFileSync(join(dir, 'values.yaml'), 'controller:\n  replicas: 2\n');
  writeFileSync(join(dir, 'three.yaml'), 'controller:\n  replicas: 3\n');
  const r = await runInProcess(['render', '-n', 'agentplat', '-f', 'values.yaml', '-o', 'json'], { cwd: dir });
  expect(r.code, r.stderr).toBe(0);
  rendered = (JSON.parse(r.stdout) as { items: Obj[] }).items;
  await api.start();
  api.kinds = [...new Map(rendered.map((o) => [`${o.apiVersion} ${o.kind}`, [o.apiVersion, o.kind] as [string, string]])).values(), ['platform.example.com/v1', 'ApplySet']];
  writeFileSync(
    join(dir, 'kubeconfig'),
    ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: fake', '  cluster:', `    server: http://127.0.0.1:${api.port}`, '    insecure-skip-tls-verify: true', 'users:', '- name: u', '  user:', '    token: t', 'contexts:', '- name: fake', '  context:', '    cluster: fake', '    user: u', 'current-context: fake', ''].join('\n'),
  );
  writeFileSync(
    join(dir, 'unreachable'),
    ['apiVersion: v1', 'kind: Config', 'clusters:', '- name: gone', '  cluster:', '    server: http://127.0.0.1:9', '    insecure-skip-tls-verify: true', 'users:', '- name: u', '  user:', '    token: t', 'contexts:', '- name: gone', '  context:', '    cluster: gone', '    user: u', 'current-context: gone', ''].join('\n'),
  );
});
afterAll(() => new Promise<void>((r) => api.server.close(() => r())));
beforeEach(() => {
  api.seen.length = 0;
  api.refuse.clear();
  seed();
});

describe('diff --cluster', () => {
  it('nothing is written: every request but a read is a server-side apply with dryRun=All, strict field validation and the field manager', async () => {
    api.store.clear();
    const r = await diffCluster(['-f', 'values.yaml']);
    expect(r.code, r.stderr).toBe(1);
    const writes = api.seen.filter((s) => s.method !== 'GET');
    expect(writes.length).toBe(rendered.length);
    for (const w of writes) expect([w.method, w.query.dryRun, w.query.fieldValidation, w.query.fieldManager, w.query.force]).toEqual(['PATCH', 'All', 'Strict', 'agentplat', 'false']);
    expect(api.store.size).toBe(0);
  });

  it('the cluster holds the render: exit 0, nothing on stdout, a summary on stderr', async () => {
    const r = await diffCluster(['-f', 'values.yaml']);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/against context fake \(http:\/\/127\.0\.0\.1:\d+\), field manager agentplat: 0 created, 0 changed, 0 are not in the render, \d+ unchanged; 0 refused, 0 conflicts, 0 drifted fields, 0 not checked yet/);
    expect(r.code).toBe(0);
  });

  it('a changed field: exit 1, the object and the field path as diff prints them, from the live object to what the server would store', async () => {
    const r = await diffCluster(['-f', 'three.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('changed Deployment.apps agentplat/agentplat-controller: spec.replicas\n');
    expect(r.stdout).toContain('-  replicas: 2\n+  replicas: 3\n');
  });

  it('a conflict: the apply is asked again forced, still as a dry run, and the conflict is reported with its manager; -o json has every section', async () => {
    const path = api.objectPath(rendered.find((o) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller')!);
    api.refuse.set(path, { code: 409, status: { kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, message: 'Apply failed with 1 conflict: conflict with "hpa" using apps/v1: .spec.replicas', details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "hpa" using apps/v1', field: '.spec.replicas' }] } } });
    const r = await diffCluster(['-f', 'three.yaml', '-o', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(doc)).toEqual(['version', 'tool', 'cluster', 'to', 'equal', 'summary', 'objects', 'refused', 'conflicts', 'drift', 'unchecked', 'notAllowed', 'notes']);
    expect(doc.conflicts).toEqual([{ group: 'apps', kind: 'Deployment', namespace: 'agentplat', name: 'agentplat-controller', manager: 'hpa', path: 'spec.replicas', message: 'conflict with "hpa" using apps/v1' }]);
    const applies = api.seen.filter((s) => s.method === 'PATCH' && s.path === path);
    expect(applies.map((s) => [s.query.force, s.query.dryRun])).toEqual([['false', 'All'], ['true', 'All']]);
  });

  it('--ignore on a field the apply still meets a conflict on: the conflict stays (exit 1), with a note saying the rule hides changes and drift only, and how to stop setting the field or take it over', async () => {
    const path = api.objectPath(rendered.find((o) => o.kind === 'Deployment' && o.metadata.name === 'agentplat-controller')!);
    api.refuse.set(path, { code: 409, status: { kind: 'Status', status: 'Failure', reason: 'Conflict', code: 409, message: 'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas', details: { causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl" with subresource "scale" using apps/v1', field: '.spec.replicas' }] } } });
    const text = await diffCluster(['-f', 'three.yaml', '--ignore', 'Deployment/agentplat-*:spec.replicas']);
    expect(text.code).toBe(1);
    expect(text.stdout).toContain('conflict Deployment.apps agentplat/agentplat-controller: spec.replicas is owned by "kubectl" through the scale subresource: the apply is refused unless forced (--force-conflicts takes the field over); --ignore Deployment/agentplat-*:spec.replicas leaves out its change and drift, not this conflict\n');
    expect(text.stderr).toContain('note: --ignore Deployment/agentplat-*:spec.replicas leaves out changes and drift, not conflicts: the render still sets spec.replicas of Deployment.apps agentplat/agentplat-controller (owned by "kubectl" through the scale subresource; the render sets 3)');
    expect(text.stderr).toMatch(/; 0 refused, 1 conflict, 0 drifted fields/);
  });

  it('--applyset with a custom-resource parent (RESOURCE.GROUP/NAME, as kubectl takes it): its members the render lacks would be pruned', async () => {
    // The id kubectl computes for a cluster-scoped parent, written out here independently of src/.
    const id = `applyset-${createHash('sha256').update('agentplat..ApplySet.platform.example.com').digest('base64url')}-v1`;
    const leftover: Obj = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'leftover', namespace: 'agentplat', labels: { 'applyset.kubernetes.io/part-of': id } }, data: {} };
    api.store.set(api.objectPath(leftover), leftover);
    // The parent as docs/commands.md makes it once per cluster, after an apply that listed ConfigMaps in namespace agentplat.
    const crd: Obj = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'applysets.platform.example.com', labels: { 'applyset.kubernetes.io/is-parent-type': 'true' } } };
    const parent: Obj = {
      apiVersion: 'platform.example.com/v1',
      kind: 'ApplySet',
      metadata: { name: 'agentplat', labels: { 'applyset.kubernetes.io/id': id }, annotations: { 'applyset.kubernetes.io/tooling': 'kubectl/v1.37.2', 'applyset.kubernetes.io/contains-group-kinds': 'ConfigMap', 'applyset.kubernetes.io/additional-namespaces': 'agentplat' } },
    };
    api.store.set(api.objectPath(crd), crd);
    api.store.set(api.objectPath(parent), parent);
    const r = await diffCluster(['-f', 'values.yaml', '--applyset', 'applysets.platform.example.com/agentplat', '-q']);
    expect(r.stdout.split('\n')).toContain('pruned ConfigMap agentplat/leftover');
    expect(r.stdout).toMatch(/^changed ApplySet parent ApplySet\.platform\.example\.com agentplat \(by kubectl, as field manager kubectl-applyset\): metadata\.annotations\["applyset\.kubernetes\.io\/contains-group-kinds"\]$/m);
    const unknown = await diffCluster(['-f', 'values.yaml', '--applyset', 'widgets.example.com/x']);
    expect([unknown.code, unknown.stdout]).toEqual([2, '']);
    expect(unknown.stderr).toMatch(/--applyset widgets\.example\.com\/x: the cluster serves no resource widgets\.example\.com/);
  });

  it('with one render, values that do not render are reported under "the render", not as an old side: exit 1, nothing asked', async () => {
    writeFileSync(join(dir, 'bad.yaml'), 'controller:\n  replicass: 2\n');
    const r = await diffCluster(['-f', 'bad.yaml']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toMatch(/^the render \(revision B\):\nbad\.yaml:2:3 {2}error {2}unknown key `controller\.replicass`/);
    expect(api.seen).toEqual([]);
  });

  it('a token that may read but not patch: no object is shown as refused; one line names what could not be dry-run, and the run exits 2', async () => {
    for (const o of rendered) {
      const path = api.objectPath(o);
      const resource = path.split('/').at(-2)!;
      api.refuse.set(path, { code: 403, status: { kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: `${resource} "${o.metadata.name}" is forbidden: User "reader" cannot patch resource "${resource}" in API group "" in the namespace "agentplat"` } });
    }
    const r = await diffCluster(['-f', 'three.yaml']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).not.toMatch(/^refused /m);
    const lines = r.stderr.split('\n').filter((l) => l.includes('not allowed (403 Forbidden)'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(new RegExp(`^note: not allowed \\(403 Forbidden\\): patch \\(the dry-run apply\\) of ${rendered.length} objects: .*Deployment\\.apps.* in namespace agentplat; these objects were not checked, and the run exits 2`));
    const json = await diffCluster(['-f', 'three.yaml', '-o', 'json']);
    expect(json.code).toBe(2);
    const doc = JSON.parse(json.stdout) as { equal: boolean; refused: unknown[]; notAllowed: { verb: string }[] };
    expect([doc.equal, doc.refused, doc.notAllowed.length, doc.notAllowed[0]?.verb]).toEqual([false, [], rendered.length, 'patch']);
  });

  it('an admission webhook that denies with 403 is a refusal of that object, not a missing permission', async () => {
    const path = api.objectPath(rendered.find((o) => o.kind === 'Deployment')!);
    api.refuse.set(path, { code: 403, status: { kind: 'Status', status: 'Failure', reason: 'Forbidden', code: 403, message: 'admission webhook "policy.example.com" denied the request: replicas above 2' } });
    const r = await diffCluster(['-f', 'three.yaml']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^refused Deployment\.apps agentplat\/\S+: 403 Forbidden: admission webhook "policy\.example\.com" denied the request/m);
  });

  it('-n of a namespace that does not exist: exit 2 naming it, and the release elsewhere is not listed as yours to delete', async () => {
    const r = await diffCluster(['-f', 'values.yaml', '-n', 'nosuchns']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^agentplat: namespace nosuchns not found \(context fake\)\n {2}hint: check the spelling of -n; for a first install create it first \(kubectl create namespace nosuchns\)/);
    expect(api.seen.filter((s) => s.method === 'PATCH')).toEqual([]);
  });

  it('an unreachable cluster exits 2 with the reason and a hint, nothing on stdout', async () => {
    const r = await diffCluster(['-f', 'values.yaml'], join(dir, 'unreachable'));
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/cannot reach the API server http:\/\/127\.0\.0\.1:9 \(context gone\)/);
  });

  it('flags that are wrong end the run with exit 2 before any request', async () => {
    const cases: [string[], RegExp][] = [
      [['--ignore', 'Deployment:spec.replicas'], /--ignore Deployment:spec\.replicas: write KIND\/NAME:PATH/],
      [['--applyset', 'pods/x'], /--applyset: "pods" cannot be an ApplySet parent/],
      [['--against', 'x.yaml'], /--against and --cluster/],
      [['--field-manager', 'a b'], /--field-manager "a b"/],
    ];
    for (const [args, message] of cases) {
      const r = await diffCluster(['-f', 'values.yaml', ...args]);
      expect([r.code, r.stdout], args.join(' ')).toEqual([2, '']);
      expect(r.stderr).toMatch(message);
    }
    expect(api.seen).toEqual([]);
    const without = await runInProcess(['diff', '-f', 'values.yaml', '--to-values', 'three.yaml', '--kube-context', 'x'], { cwd: dir });
    expect(without.code).toBe(2);
    expect(without.stderr).toMatch(/--kube-context: only with --cluster/);
  });
});
