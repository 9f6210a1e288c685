// `agentplat diff --cluster --applyset` against a real kube-apiserver of every version of
// _versions.ts and the kubectl the suite builds: the ApplySet parent. For each parent the
// preflight runs as a user runs it, then the command it predicts, `kubectl apply --server-side
// --prune --applyset=… --field-manager agentplat`, runs against the same server, and the two must
// agree: a parent kubectl refuses (another tool's Secret or ConfigMap, an ordinary Secret) is
// refused with kubectl's own reason and nothing is applied; a good parent is created or updated
// with exactly the labels and annotations the preflight showed, and the objects created and
// pruned are the ones it named.
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { objectsOf } from '../helpers/objects.ts';
import { crdProblems, installCrds, type Obj } from './_api.ts';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { record } from './_figures.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

type Meta = { name: string; namespace?: string; uid: string; resourceVersion: string; deletionTimestamp?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
type Live = { apiVersion: string; kind: string; metadata: Meta };
type Id = { group: string; kind: string; namespace: string; name: string };
interface ParentPrediction extends Id {
  id: string;
  status: 'created' | 'changed' | 'unchanged' | 'refused';
  message?: string;
  hint?: string;
  changes: { path: string; live?: string; new?: string }[];
}
interface Preflight {
  equal: boolean;
  pruneSkipped?: boolean;
  applySet?: ParentPrediction;
  objects: (Id & { status: 'added' | 'changed' | 'removed' })[];
  refused: unknown[];
  conflicts: unknown[];
  unchecked: unknown[];
  notes: string[];
}

const TOOLING = 'applyset.kubernetes.io/tooling';
const ID_LABEL = 'applyset.kubernetes.io/id';
const KINDS = 'applyset.kubernetes.io/contains-group-kinds';

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
const keyOf = (id: Id): string => `${id.kind}${id.group ? `.${id.group}` : ''} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
const liveKey = (o: Live): string => keyOf({ group: groupOf(o.apiVersion), kind: o.kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name });
const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

const VALUES_FULL = '{}\n';
/** A sub-chart off and the bundled database off: its PersistentVolumeClaim, the only one of its kind, goes. */
const VALUES_SMALLER = 'agentplat-tools:\n  enabled: false\ndatabase:\n  rdb:\n    urlFile: /var/run/secrets/db/url\n    bundled:\n      enabled: false\n';

interface Bench extends Tools {
  c: Cluster;
  stop(): Promise<void>;
}

async function bench(version: string): Promise<Bench> {
  const c = await startCluster(version, inject('clusterBinaries')[version]!);
  const tools = toolsFor(c, 'agentplat-applyset-parent-');
  const crds = (JSON.parse(agentplat(['crds', '-o', 'json']).out) as { items: Obj[] }).items;
  expect(crdProblems(await installCrds(c, crds))).toEqual([]);
  return {
    ...tools,
    c,
    async stop() {
      tools.remove();
      await c.stop();
    },
  };
}

/** The preflight as a user runs it: the release in namespace NS, the CRDs applied apart. */
function preflight(b: Bench, ns: string, values: string, applyset: string): { code: number; json: Preflight; err: string } {
  const r = b.run('agentplat', ['diff', '--cluster', '-o', 'json', '-f', values, '-n', ns, '--skip-crds', '--applyset', applyset]);
  if (r.out === '') throw new Error(`diff --cluster --applyset ${applyset} exited ${r.status} with nothing on stdout:\n${r.err}`);
  return { code: r.status, json: JSON.parse(r.out) as Preflight, err: r.err };
}

/** The apply the preflight predicts, as the README writes it. */
function apply(b: Bench, ns: string, values: string, applyset: string): { status: number; out: string; err: string } {
  return b.sh(`agentplat render -f ${values} -n ${ns} --skip-crds | KUBECTL_APPLYSET=true kubectl apply --server-side --field-manager agentplat -n ${ns} --prune --applyset=${applyset} -f -`);
}

/**
 * The objects of the release (labelled managed-by=agentplat) of the given kinds, by key. An object
 * being deleted counts as deleted: this control plane runs no controllers, so the finalizer of a
 * deleted PersistentVolumeClaim (kubernetes.io/pvc-protection) is never removed.
 */
function inventory(b: Bench, kinds: string[]): Map<string, Live> {
  const r = b.run('kubectl', ['get', kinds.join(','), '-A', '-l', 'app.kubernetes.io/managed-by=agentplat', '-o', 'json']);
  if (r.status !== 0) throw new Error(`kubectl get: ${r.err}`);
  return new Map((JSON.parse(r.out) as { items: Live[] }).items.filter((o) => o.metadata.deletionTimestamp === undefined).map((o) => [liveKey(o), o]));
}

function kindsOf(b: Bench, ns: string, ...values: string[]): string[] {
  const objs = values.flatMap((v) => objectsOf<Live>(b.run('agentplat', ['render', '-f', v, '-n', ns, '--skip-crds']).out));
  return sorted(new Set(objs.map((o) => `${o.kind.toLowerCase()}${groupOf(o.apiVersion) ? `.${groupOf(o.apiVersion)}` : ''}`)));
}

function happened(before: Map<string, Live>, after: Map<string, Live>): { created: string[]; deleted: string[] } {
  return { created: sorted([...after.keys()].filter((k) => !before.has(k))), deleted: sorted([...before.keys()].filter((k) => !after.has(k))) };
}

function predicted(p: Preflight): { created: string[]; deleted: string[] } {
  const of = (s: string) => sorted(p.objects.filter((o) => o.status === s).map(keyOf));
  return { created: p.applySet?.status === 'refused' ? [] : of('added'), deleted: p.pruneSkipped ? [] : of('removed') };
}

/** The parent's labels and annotations, live (undefined when it does not exist). */
function parentMeta(b: Bench, resource: string, ns: string, name: string): Record<string, string> | undefined {
  const r = b.run('kubectl', ['get', resource, name, '-n', ns, '-o', 'json']);
  if (r.status !== 0) {
    expect(r.err).toMatch(/NotFound|not found/);
    return undefined;
  }
  const m = (JSON.parse(r.out) as Live).metadata;
  return { ...Object.fromEntries(Object.entries(m.labels ?? {}).map(([k, v]) => [`metadata.labels["${k}"]`, v])), ...Object.fromEntries(Object.entries(m.annotations ?? {}).map(([k, v]) => [`metadata.annotations["${k}"]`, v])) };
}

/** The live labels and annotations with the preflight's changes made. */
function afterChanges(live: Record<string, string> | undefined, changes: ParentPrediction['changes']): Record<string, string> {
  const out = { ...(live ?? {}) };
  for (const c of changes) {
    expect(out[c.path], `${c.path}: the live value the preflight read`).toBe(c.live);
    if (c.new === undefined) delete out[c.path];
    else out[c.path] = c.new;
  }
  return out;
}

/** kubectl writes its own version in the tooling annotation: the preflight names the tool and leaves the version to kubectl. */
function withoutToolingVersion(meta: Record<string, string>): Record<string, string> {
  const key = `metadata.annotations["${TOOLING}"]`;
  return meta[key] === undefined ? meta : { ...meta, [key]: meta[key]!.replace(/^kubectl\/.*$/, 'kubectl/…') };
}

for (const version of VERSIONS) {
  describe(`diff --cluster --applyset, Kubernetes ${version}: the ApplySet parent as kubectl then treats it`, () => {
    let b: Bench;
    const NS = 'agentplat';
    let kinds: string[] = [];

    beforeAll(async () => {
      b = await bench(version);
      writeFileSync(join(b.dir, 'full.yaml'), VALUES_FULL);
      writeFileSync(join(b.dir, 'smaller.yaml'), VALUES_SMALLER);
      expect(b.run('kubectl', ['create', 'namespace', NS]).status).toBe(0);
      kinds = kindsOf(b, NS, 'full.yaml');
    });
    afterAll(async () => b?.stop());

    /** A parent kubectl refuses: the preflight says so with kubectl's reason, kubectl stops with it and applies nothing. */
    function expectRefusedAsKubectlRefuses(applyset: string, resource: string, name: string, reason: RegExp): void {
      const before = inventory(b, kinds);
      const parentBefore = parentMeta(b, resource, NS, name);
      const p = preflight(b, NS, 'full.yaml', applyset);
      expect(p.code, p.err).toBe(1);
      expect(p.json.applySet?.status, JSON.stringify(p.json.applySet)).toBe('refused');
      expect(p.json.applySet!.message).toMatch(reason);
      expect(p.json.pruneSkipped).toBe(true);
      const r = apply(b, NS, 'full.yaml', applyset);
      expect(r.status, r.out).not.toBe(0);
      // kubectl's error is the preflight's reason, word for word.
      expect(r.err).toContain(p.json.applySet!.message!);
      expect(happened(before, inventory(b, kinds))).toEqual(predicted(p.json));
      expect(predicted(p.json)).toEqual({ created: [], deleted: [] });
      expect(parentMeta(b, resource, NS, name)).toEqual(parentBefore);
    }

    it('(a) a parent Secret another tool made (tooling helm/v3): refused as kubectl refuses it, "managed by tooling", nothing applied', () => {
      // The id kubectl would compute for it, so that only the tooling tells it apart.
      const id = `applyset-${createHash('sha256').update(`helm-set.${NS}.Secret.`).digest('base64url')}-v1`;
      const made = b.run('kubectl', ['create', 'secret', 'generic', 'helm-set', '-n', NS]);
      expect(made.status, made.err).toBe(0);
      expect(b.run('kubectl', ['label', 'secret', 'helm-set', '-n', NS, `${ID_LABEL}=${id}`]).status).toBe(0);
      expect(b.run('kubectl', ['annotate', 'secret', 'helm-set', '-n', NS, `${TOOLING}=helm/v3`, `${KINDS}=ConfigMap`]).status).toBe(0);
      expectRefusedAsKubectlRefuses('helm-set', 'secret', 'helm-set', /managed by tooling "helm" instead of "kubectl"$/);
    });

    it('(a) a parent ConfigMap another tool made (tooling kpt/v1.0.0): refused the same way', () => {
      const made = b.run('kubectl', ['create', 'configmap', 'kpt-set', '-n', NS]);
      expect(made.status, made.err).toBe(0);
      expect(b.run('kubectl', ['annotate', 'configmap', 'kpt-set', '-n', NS, `${TOOLING}=kpt/v1.0.0`]).status).toBe(0);
      expectRefusedAsKubectlRefuses('configmaps/kpt-set', 'configmap', 'kpt-set', /managed by tooling "kpt" instead of "kubectl"$/);
    });

    it('(b) an ordinary Secret named as the parent (no ApplySet label or annotation): refused as kubectl refuses it, "missing required annotation"', () => {
      const made = b.run('kubectl', ['create', 'secret', 'generic', 'app-credentials', '-n', NS, '--from-literal=password=hunter2']);
      expect(made.status, made.err).toBe(0);
      expectRefusedAsKubectlRefuses('app-credentials', 'secret', 'app-credentials', /missing required annotation "applyset\.kubernetes\.io\/tooling"$/);
    });

    it('(c) a good parent: created, then updated, with exactly the labels and annotations the preflight showed; the objects created and pruned as named', () => {
      // The first apply: kubectl creates the parent.
      const first = preflight(b, NS, 'full.yaml', 'agentplat');
      expect(first.code, first.err).toBe(1);
      expect(first.json.applySet?.status, JSON.stringify(first.json.applySet)).toBe('created');
      const before = inventory(b, kinds);
      const r1 = apply(b, NS, 'full.yaml', 'agentplat');
      expect(r1.status, r1.err).toBe(0);
      expect(happened(before, inventory(b, kinds))).toEqual(predicted(first.json));
      const live1 = parentMeta(b, 'secret', NS, 'agentplat')!;
      expect(live1[`metadata.annotations["${TOOLING}"]`]).toMatch(/^kubectl\/v\d/);
      expect(withoutToolingVersion(live1)).toEqual(withoutToolingVersion(afterChanges(undefined, first.json.applySet!.changes)));

      // The same render again: nothing to do, the parent included.
      const again = preflight(b, NS, 'full.yaml', 'agentplat');
      expect(again.json.applySet?.status).toBe('unchanged');
      expect(again.code, again.err).toBe(0);

      // A smaller render: kubectl rewrites the kinds (no PersistentVolumeClaim) and prunes the objects it dropped.
      const kindsBoth = sorted(new Set([...kinds, ...kindsOf(b, NS, 'smaller.yaml')]));
      const second = preflight(b, NS, 'smaller.yaml', 'agentplat');
      expect(second.code, second.err).toBe(1);
      const before2 = inventory(b, kindsBoth);
      const r2 = apply(b, NS, 'smaller.yaml', 'agentplat');
      expect(r2.status, r2.err).toBe(0);
      const did = happened(before2, inventory(b, kindsBoth));
      expect(did).toEqual(predicted(second.json));
      expect(did.deleted.length).toBeGreaterThan(0);
      const live2 = parentMeta(b, 'secret', NS, 'agentplat')!;
      expect(live2).toEqual(afterChanges(live1, second.json.applySet!.changes));
      expect(second.json.applySet!.status).toBe('changed');
      expect(second.json.applySet!.changes.map((c) => c.path)).toEqual([`metadata.annotations["${KINDS}"]`]);
      record(`applyset parent, Kubernetes ${version}: a good parent created with ${first.json.applySet!.changes.length} labels and annotations, then ${second.json.applySet!.status} (${second.json.applySet!.changes.length} changes), ${did.deleted.length} pruned, all as predicted`);
    });
  });
}
