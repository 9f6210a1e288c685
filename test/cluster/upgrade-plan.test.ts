// `agentplat plan` against what really happens: on each Kubernetes version of the suite, a release
// is installed with kubectl (server-side apply), `plan -o json` is asked about the next render,
// and that render is applied object by object with the same kubectl. What the API server did is
// read back from it: objects that did not exist and now do (created), objects whose
// resourceVersion moved (updated), applies it refused (must be replaced), objects of the release
// still in the cluster that the new render does not hold (a prune deletes them). The plan must
// have predicted exactly these sets. Then each refused object is deleted with the plan's own
// `kubectl delete …` and applied again, which the server must accept, and a deleted Agent is
// applied again with the plan's own keep command.
//
// Two upgrades: revision A to B with the default values (migrated as `migrate` does), and a
// values change within B that moves the bundled database's claim to another storage class, so
// the replaced path is exercised against the API server.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { collectionPath, type Obj } from './_api.ts';
import { agentplat } from './_cli.ts';
import { kfetch, startCluster, type Cluster } from './_cluster.ts';
import { record } from './_figures.ts';
import { VERSIONS } from './_versions.ts';

interface PlanDoc {
  attention: boolean;
  summary: Record<string, number | boolean>;
  objects: { action: 'create' | 'update' | 'replace' | 'delete'; group: string; kind: string; namespace: string; name: string; replacement?: { refused: { field: string }[]; deleteFirst: string } }[];
  deletions: { group: string; kind: string; namespace: string; name: string; reason: string; why: string; keep: string }[];
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');

/** `Kind.group ns/name`, the same for a rendered object, a live one and a plan entry. */
function key(o: { apiVersion: string; kind: string; metadata: { name?: string; namespace?: string } }, defaultNamespace?: string): string {
  const group = groupOf(o.apiVersion);
  const ns = o.metadata.namespace ?? (o.kind === 'CustomResourceDefinition' || o.kind.startsWith('Cluster') ? undefined : defaultNamespace);
  return `${o.kind}${group ? `.${group}` : ''} ${ns ? `${ns}/` : ''}${o.metadata.name}`;
}

const planKey = (o: { group: string; kind: string; namespace: string; name: string }): string => `${o.kind}${o.group ? `.${o.group}` : ''} ${o.namespace ? `${o.namespace}/` : ''}${o.name}`;

function renderObjects(args: string[]): Obj[] {
  const r = agentplat(['render', '-o', 'json', ...args]);
  if (r.code !== 0) throw new Error(`agentplat render ${args.join(' ')} exited ${r.code}:\n${r.err}`);
  return (JSON.parse(r.out) as { items: Obj[] }).items;
}

function kindsOf(objs: Obj[]): string[] {
  return [...new Set(objs.map((o) => `${o.kind.toLowerCase()}${groupOf(o.apiVersion) ? `.${groupOf(o.apiVersion)}` : ''}`))].sort();
}

interface Bench {
  c: Cluster;
  dir: string;
  kubectl(args: string[], input?: string): { status: number; out: string; err: string };
}

/** Applies a whole render as a first install: CRDs first, then (once they are served) the rest. */
function install(b: Bench, objects: Obj[]): void {
  const crds = objects.filter((o) => o.kind === 'CustomResourceDefinition');
  const rest = objects.filter((o) => o.kind !== 'CustomResourceDefinition');
  const list = (items: Obj[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items });
  if (crds.length > 0) {
    const r = b.kubectl(['apply', '--server-side', '-f', '-'], list(crds));
    expect(r.status, r.err).toBe(0);
    const w = b.kubectl(['wait', '--for', 'condition=Established', '--timeout', '300s', ...crds.map((c) => `customresourcedefinition/${c.metadata.name}`)]);
    expect(w.status, w.err).toBe(0);
  }
  const r = b.kubectl(['apply', '--server-side', '-f', '-'], list(rest));
  expect(r.status, r.err).toBe(0);
}

/** The resourceVersion of each object that exists, by key. */
async function versions(c: Cluster, objects: Obj[], namespace: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const o of objects) {
    const path = await collectionPath(c, o, namespace);
    if (!path) continue;
    const r = await kfetch(c, `${path}/${encodeURIComponent(o.metadata.name!)}`);
    if (r.status === 200) out.set(key(o, namespace), (JSON.parse(r.body) as { metadata: { resourceVersion: string } }).metadata.resourceVersion);
    else expect(r.status, `${key(o, namespace)}: ${r.body}`).toBe(404);
  }
  return out;
}

interface Happened {
  created: string[];
  updated: string[];
  refused: string[];
  deleted: string[];
  unchanged: number;
  /** The API server's message for each refused object. */
  messages: Map<string, string>;
}

/**
 * Applies `next` object by object over a cluster holding `current` and reads back what happened.
 * `deleted` are the objects of the release (its instance label; CRDs by their part-of label) of
 * `current`'s kinds that are still in the cluster and not in `next`: what a prune removes.
 */
async function upgrade(b: Bench, current: Obj[], next: Obj[], namespace: string, release: string): Promise<Happened> {
  const all = [...current, ...next];
  const before = await versions(b.c, all, namespace);
  const messages = new Map<string, string>();
  const refused: string[] = [];
  for (const o of next) {
    const r = b.kubectl(['apply', '--server-side', '-n', namespace, '-f', '-'], JSON.stringify(o));
    if (r.status !== 0) {
      refused.push(key(o, namespace));
      messages.set(key(o, namespace), r.err.trim());
    }
  }
  const after = await versions(b.c, all, namespace);
  const nextKeys = new Set(next.map((o) => key(o, namespace)));
  const created = next.map((o) => key(o, namespace)).filter((k) => !before.has(k) && after.has(k));
  const updated = next.map((o) => key(o, namespace)).filter((k) => before.has(k) && after.has(k) && before.get(k) !== after.get(k));
  const unchanged = next.map((o) => key(o, namespace)).filter((k) => before.has(k) && before.get(k) === after.get(k) && !refused.includes(k)).length;
  const live: string[] = [];
  const query = (kinds: string[], label: string) => {
    if (kinds.length === 0) return;
    const r = b.kubectl(['get', kinds.join(','), '-A', '-l', label, '-o', 'json']);
    expect(r.status, r.err).toBe(0);
    live.push(...(JSON.parse(r.out) as { items: Obj[] }).items.map((o) => key(o)));
  };
  const crd = 'customresourcedefinition.apiextensions.k8s.io';
  query(kindsOf(current).filter((k) => k !== crd), `app.kubernetes.io/instance=${release}`);
  query(kindsOf(current).filter((k) => k === crd), 'app.kubernetes.io/part-of=agentplat');
  const deleted = live.filter((k) => !nextKeys.has(k));
  return { created: created.sort(), updated: updated.sort(), refused: refused.sort(), deleted: deleted.sort(), unchanged, messages };
}

function plan(args: string[]): PlanDoc {
  const r = agentplat(['plan', '-o', 'json', ...args]);
  expect([0, 1], r.err).toContain(r.code);
  return JSON.parse(r.out) as PlanDoc;
}

function predicted(p: PlanDoc, action: PlanDoc['objects'][number]['action']): string[] {
  return p.objects.filter((o) => o.action === action).map(planKey).sort();
}

/** The plan's sets against what happened, one assertion each so a failure names the set. */
function expectPredicted(p: PlanDoc, h: Happened): void {
  expect(h.created, 'created').toEqual(predicted(p, 'create'));
  expect(h.updated, 'updated').toEqual(predicted(p, 'update'));
  expect(h.refused, 'refused by the API server (replace)').toEqual(predicted(p, 'replace'));
  expect(h.deleted, 'left for a prune (delete)').toEqual(predicted(p, 'delete'));
  expect(h.unchanged, 'unchanged').toBe(p.summary.unchanged);
}

for (const version of VERSIONS) {
  describe(`Kubernetes ${version}`, () => {
    let b: Bench;
    beforeAll(async () => {
      const c = await startCluster(version, inject('clusterBinaries')[version]!);
      const dir = mkdtempSync(join(tmpdir(), 'agentplat-upgrade-plan-'));
      const env: NodeJS.ProcessEnv = { ...process.env, KUBECONFIG: c.kubeconfig, NO_COLOR: '1' };
      b = {
        c,
        dir,
        kubectl(args, input) {
          const r = spawnSync(inject('kubectl'), args, { cwd: dir, env, input, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
          if (r.error) throw r.error;
          return { status: r.status ?? -1, out: r.stdout, err: r.stderr };
        },
      };
    });
    afterAll(async () => {
      if (b) rmSync(b.dir, { recursive: true, force: true });
      await b?.c.stop();
    });

    it('revision A to B with the default values: the plan predicted exactly the objects created, updated, deleted and refused', async () => {
      const ns = 'upgrade-a-b';
      expect(b.kubectl(['create', 'namespace', ns]).status).toBe(0);
      const a = renderObjects(['-r', 'A', '-n', ns]);
      install(b, a);
      const p = plan(['--from', 'A', '--to', 'B', '-n', ns]);
      const next = renderObjects(['-r', 'B', '-n', ns]);
      const h = await upgrade(b, a, next, ns, 'agentplat');
      expectPredicted(p, h);
      expect(h.deleted.length + h.updated.length).toBeGreaterThan(0);
      // Each deletion needs attention, with how to keep it: delete one Agent as a prune would, then
      // run the plan's own keep command (the old side's render, applied); the API server takes it.
      expect(p.attention).toBe(true);
      expect(p.deletions.map(planKey).sort()).toEqual(predicted(p, 'delete'));
      const kept = p.deletions.find((d) => d.name === 'rollouts-agent')!;
      const [, render] = kept.keep.match(/: agentplat (render [^|]+?) \| kubectl apply --server-side --field-manager agentplat -f -/)!;
      const resource = `agent.agentplat.dev/${kept.name}`;
      expect(b.kubectl(['delete', resource, '-n', ns]).status).toBe(0);
      const manifest = agentplat(render!.split(' '));
      expect(manifest.code, manifest.err).toBe(0);
      const applied = b.kubectl(['apply', '--server-side', '--field-manager', 'agentplat', '-f', '-'], manifest.out);
      expect(applied.status, applied.err).toBe(0);
      expect(b.kubectl(['get', resource, '-n', ns]).status).toBe(0);
      record(`Kubernetes ${b.c.minor}: plan --from A --to B predicted ${p.objects.length} object changes (${predicted(p, 'create').length} created, ${predicted(p, 'update').length} updated, ${predicted(p, 'replace').length} replaced, ${predicted(p, 'delete').length} deleted, ${p.summary.unchanged} unchanged); the API server did exactly these (${h.created.length}/${h.updated.length}/${h.refused.length}/${h.deleted.length}/${h.unchanged})`);
    });

    it('a storage class change of the bundled database within B: the server refuses exactly the claim the plan marks replaced, and accepts it after the plan\'s delete command', async () => {
      const ns = 'upgrade-class';
      expect(b.kubectl(['create', 'namespace', ns]).status).toBe(0);
      const standard = join(b.dir, 'standard.yaml');
      const fast = join(b.dir, 'fast.yaml');
      writeFileSync(standard, 'database:\n  rdb:\n    bundled:\n      storageClassName: standard\n');
      writeFileSync(fast, 'database:\n  rdb:\n    bundled:\n      storageClassName: fast\n');
      // Its own release name, so that its cluster-wide objects are not the first release's.
      const release = ['--release-name', 'agentplat-db'];
      const current = renderObjects(['-r', 'B', '-n', ns, ...release, '-f', standard]);
      install(b, current);
      const p = plan(['-r', 'B', '-n', ns, ...release, '-f', standard, '--to-values', fast]);
      expect(p.attention).toBe(true);
      const next = renderObjects(['-r', 'B', '-n', ns, ...release, '-f', fast]);
      const h = await upgrade(b, current, next, ns, 'agentplat-db');
      expectPredicted(p, h);
      expect(h.refused).toEqual([`PersistentVolumeClaim ${ns}/agentplat-db-postgresql`]);
      const replaced = p.objects.find((o) => o.action === 'replace')!;
      expect(replaced.replacement!.refused.map((r) => r.field)).toEqual(['spec.storageClassName']);
      // The server's own words name the field the plan names.
      expect(h.messages.get(h.refused[0]!)).toMatch(/spec: Forbidden: spec is immutable after creation/);
      // Then the plan's command, and the apply goes through. The control plane here runs no
      // controller manager, so the claim's protection finalizer (added at creation, removed by the
      // pvc-protection controller once no pod uses the claim) is taken off by hand.
      const del = b.kubectl([...replaced.replacement!.deleteFirst.split(' ').slice(1), '--wait=false']);
      expect(del.status, del.err).toBe(0);
      const name = `persistentvolumeclaim/${replaced.name}`;
      expect(b.kubectl(['patch', name, '-n', ns, '--type=merge', '-p', '{"metadata":{"finalizers":null}}']).status).toBe(0);
      const gone = b.kubectl(['wait', '--for=delete', name, '-n', ns, '--timeout=120s']);
      expect(gone.status, gone.err).toBe(0);
      const claim = next.find((o) => o.kind === 'PersistentVolumeClaim')!;
      const again = b.kubectl(['apply', '--server-side', '-n', ns, '-f', '-'], JSON.stringify(claim));
      expect(again.status, again.err).toBe(0);
      record(`Kubernetes ${b.c.minor}: plan of a storage class change predicted 1 replacement (spec.storageClassName of the database claim); the API server refused exactly that apply, and took it after the plan's kubectl delete`);
    });
  });
}
