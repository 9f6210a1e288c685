// `agentplat diff --cluster` against a real kube-apiserver of every version of _versions.ts, with
// the kubectl the suite builds: each prediction of the preflight is checked against what kubectl
// then does to the same server. A release is installed as the README says (CRDs first, then the
// release as an ApplySet under the field manager `agentplat`), the preflight runs for the next
// step, kubectl applies that step, and the objects created, updated and pruned, the objects the
// server refused and the conflicts kubectl reported must be exactly the ones predicted. A second
// release is changed by hand (kubectl patch under another field manager, kubectl edit) and the
// preflight must report that drift and the conflicts kubectl then meets.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectsOf } from '../helpers/objects.ts';
import { agentplat } from './_cli.ts';
import { record } from './_figures.ts';
import { startBench, type Bench } from './_tools.ts';
import { VERSIONS } from './_versions.ts';


type Live = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; uid: string; resourceVersion: string; labels?: Record<string, string> } };
type Id = { group: string; kind: string; namespace: string; name: string };
interface Preflight {
  equal: boolean;
  pruneSkipped?: boolean;
  summary: Record<string, number>;
  objects: (Id & { status: 'added' | 'changed' | 'removed' })[];
  refused: (Id & { code: number; message: string })[];
  conflicts: (Id & { manager: string; path: string })[];
  drift: (Id & { path: string; live?: unknown; render: unknown; managers: { manager: string }[] })[];
  unchecked: (Id & { crd: string })[];
  notes: string[];
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
const keyOf = (id: Id): string => `${id.kind}${id.group ? `.${id.group}` : ''} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
const liveKey = (o: Live): string => keyOf({ group: groupOf(o.apiVersion), kind: o.kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name });
const sorted = (xs: Iterable<string>): string[] => [...xs].sort();

/** The values of each step: revision A's defaults, then (in B) a change with a refused object. */
const VALUES_A = '{}\n';
const VALUES_B2 = [
  'agentplat-tools:',
  '  enabled: false',
  'database:',
  '  rdb:',
  '    bundled:',
  // A claim's size cannot shrink: the API server refuses the update of the PersistentVolumeClaim.
  '      storage: 100Mi',
  'authproxy:',
  '  enabled: true',
  '  config:',
  '    clientID: preflight-client',
  '    clientSecret: preflight-client-secret-value',
  '    cookieSecret: 0123456789abcdef0123456789abcdef',
  '',
].join('\n');

const bench = (version: string): Promise<Bench> => startBench(version, 'agentplat-preflight-');

/** The release's objects and the CRDs (everything labelled managed-by=agentplat) of the given kinds, by key. */
function inventory(b: Bench, kinds: string[]): Map<string, Live> {
  const r = b.run('kubectl', ['get', kinds.join(','), '-A', '-l', 'app.kubernetes.io/managed-by=agentplat', '-o', 'json']);
  if (r.status !== 0) throw new Error(`kubectl get: ${r.err}`);
  return new Map((JSON.parse(r.out) as { items: Live[] }).items.map((o) => [liveKey(o), o]));
}

/** `kind.group` words for kubectl get, of every object of the given renders and the CRDs. */
function kindsOf(...renders: string[]): string[] {
  const objs = renders.flatMap((y) => objectsOf<Live>(y));
  return sorted(new Set(['customresourcedefinitions.apiextensions.k8s.io', ...objs.map((o) => `${o.kind.toLowerCase()}${groupOf(o.apiVersion) ? `.${groupOf(o.apiVersion)}` : ''}`)]));
}

/** What an apply did: objects created, updated (same uid, new resourceVersion) and deleted. */
function happened(before: Map<string, Live>, after: Map<string, Live>): { created: string[]; updated: string[]; deleted: string[] } {
  return {
    created: sorted([...after.keys()].filter((k) => !before.has(k))),
    deleted: sorted([...before.keys()].filter((k) => !after.has(k))),
    updated: sorted([...after].filter(([k, o]) => before.get(k)?.metadata.uid === o.metadata.uid && before.get(k)?.metadata.resourceVersion !== o.metadata.resourceVersion).map(([k]) => k)),
  };
}

/** What the preflight said an apply would do (prune left out when it says kubectl skips it). */
function predicted(p: Preflight): { created: string[]; updated: string[]; deleted: string[] } {
  const of = (s: string) => sorted(p.objects.filter((o) => o.status === s).map(keyOf));
  return { created: of('added'), updated: of('changed'), deleted: p.pruneSkipped ? [] : of('removed') };
}

/** The objects kubectl names as refused in its errors (`The Kind "name" is invalid: …`). */
function refusedByKubectl(stderr: string): string[] {
  return sorted([...stderr.matchAll(/^(?:Error from server \(\w+\): )?(?:error when [^:]*: )?The (\w+) "([^"]+)" is invalid/gm)].map((m) => `${m[1]} ${m[2]}`));
}

/** `conflict with "ops" using apps/v1: .spec.replicas` lines of kubectl's errors, as [manager, field]. */
function conflictsByKubectl(stderr: string): [string, string][] {
  return [...stderr.matchAll(/conflict with "([^"]+)"(?: using [^:]+)?: (\S+)/g)].map((m) => [m[1]!, m[2]!]);
}

function preflight(b: Bench, args: string[]): { code: number; json: Preflight; err: string } {
  const r = b.run('agentplat', ['diff', '--cluster', '-o', 'json', ...args]);
  if (r.out === '') throw new Error(`diff --cluster ${args.join(' ')} exited ${r.status} with nothing on stdout:\n${r.err}`);
  return { code: r.status, json: JSON.parse(r.out) as Preflight, err: r.err };
}

for (const version of VERSIONS) {
  describe(`diff --cluster, Kubernetes ${version}: the preflight predicts what kubectl then does`, () => {
    let b: Bench;
    const renders: Record<string, string> = {};
    const release = ['-n', 'agentplat', '--applyset', 'agentplat'];
    const applyRelease = (valuesFile: string, revision: string) =>
      b.sh(`agentplat render -r ${revision} -f ${valuesFile} -n agentplat --skip-crds | KUBECTL_APPLYSET=true kubectl apply --server-side --field-manager agentplat -n agentplat --prune --applyset=agentplat -f -`);
    const applyCrds = (revision: string) =>
      b.sh(`agentplat crds -r ${revision} | kubectl apply --server-side --field-manager agentplat -f - && kubectl wait --for=condition=Established crd -l app.kubernetes.io/part-of=agentplat --timeout=120s`);

    beforeAll(async () => {
      b = await bench(version);
      writeFileSync(join(b.dir, 'a.yaml'), VALUES_A);
      writeFileSync(join(b.dir, 'b2.yaml'), VALUES_B2);
      const migrated = agentplat(['migrate', '--from', 'A', '-r', 'B', '-f', join(b.dir, 'a.yaml')]);
      expect(migrated.code, migrated.err).toBe(0);
      writeFileSync(join(b.dir, 'b.yaml'), migrated.out);
      for (const [name, args] of Object.entries({ A: ['-r', 'A', '-f', 'a.yaml'], B: ['-r', 'B', '-f', 'b.yaml'], B2: ['-r', 'B', '-f', 'b2.yaml'] })) {
        const r = b.run('agentplat', ['render', '-n', 'agentplat', ...args]);
        expect(r.status, r.err).toBe(0);
        renders[name] = r.out;
      }
      expect(b.run('kubectl', ['create', 'namespace', 'agentplat']).status).toBe(0);
    });
    afterAll(async () => b?.stop());

    it('before the first install every object would be created, and the custom resources wait for their CRDs (named), not a failure', () => {
      const p = preflight(b, ['-r', 'A', '-f', 'a.yaml', ...release]);
      expect(p.code, p.err).toBe(1);
      const rendered = objectsOf<Live>(renders.A!);
      const custom = rendered.filter((o) => groupOf(o.apiVersion) === 'agentplat.dev');
      expect(custom.length).toBeGreaterThan(0);
      expect(sorted(p.json.unchecked.map(keyOf))).toEqual(sorted(custom.map(liveKey)));
      for (const u of p.json.unchecked) expect(u.crd).toMatch(new RegExp(`\\.agentplat\\.dev$`));
      expect(predicted(p.json).created).toEqual(sorted(rendered.filter((o) => groupOf(o.apiVersion) !== 'agentplat.dev').map(liveKey)));
      expect(p.json.refused).toEqual([]);
      expect(p.json.objects.filter((o) => o.status !== 'added')).toEqual([]);
      record(`preflight, Kubernetes ${version}: first install of revision A: ${p.json.summary.created} objects to create, ${p.json.unchecked.length} custom resources wait for their CRDs`);
    });

    it('revision A installed as the README says: the preflight of the same render finds nothing to do', () => {
      const crds = applyCrds('A');
      expect(crds.status, crds.err).toBe(0);
      const r = applyRelease('a.yaml', 'A');
      expect(r.status, r.err).toBe(0);
      const p = preflight(b, ['-r', 'A', '-f', 'a.yaml', ...release]);
      expect(p.json.objects).toEqual([]);
      expect([p.json.refused, p.json.conflicts, p.json.drift, p.json.unchecked]).toEqual([[], [], [], []]);
      expect(p.json.equal).toBe(true);
      expect(p.code, p.err).toBe(0);
    });

    it('upgrade A → B (values migrated): kubectl creates, updates and prunes exactly the objects the preflight named', () => {
      const p = preflight(b, ['--from-revision', 'A', '--to-revision', 'B', '-f', 'a.yaml', ...release]);
      expect(p.code, p.err).toBe(1);
      expect([p.json.refused, p.json.conflicts, p.json.drift, p.json.unchecked]).toEqual([[], [], [], []]);
      const kinds = kindsOf(renders.A!, renders.B!);
      const before = inventory(b, kinds);
      expect(applyCrds('B').status).toBe(0);
      const r = applyRelease('b.yaml', 'B');
      expect(r.status, r.err).toBe(0);
      const did = happened(before, inventory(b, kinds));
      expect(did).toEqual(predicted(p.json));
      expect(did.updated.length).toBeGreaterThan(0);
      expect(did.deleted.length).toBeGreaterThan(0);
      record(`preflight, Kubernetes ${version}: upgrade A → B: ${did.created.length} created, ${did.updated.length} updated, ${did.deleted.length} pruned, ${p.json.summary.unchanged} unchanged, all as predicted`);
    });

    it('a values change the server refuses in part: the refusal is kubectl\'s, the other objects are created as predicted, and the prune is skipped as kubectl skips it', () => {
      const p = preflight(b, ['-r', 'B', '-f', 'b.yaml', '--to-values', 'b2.yaml', ...release]);
      expect(p.code, p.err).toBe(1);
      expect(p.json.refused.map((x) => [keyOf(x), x.code])).toEqual([['PersistentVolumeClaim agentplat/agentplat-postgresql', 422]]);
      expect(p.json.refused[0]!.message).toMatch(/spec is immutable after creation/);
      expect(p.json.pruneSkipped).toBe(true);
      expect(p.json.objects.some((o) => o.status === 'removed')).toBe(true);
      // The authentication proxy's client secret is in the created Secret: masked.
      expect(JSON.stringify(p.json)).not.toContain('preflight-client-secret-value');
      const kinds = kindsOf(renders.B!, renders.B2!);
      const before = inventory(b, kinds);
      const r = applyRelease('b2.yaml', 'B');
      expect(r.status).not.toBe(0);
      expect(refusedByKubectl(r.err)).toEqual(p.json.refused.map((x) => `${x.kind} ${x.name}`));
      const did = happened(before, inventory(b, kinds));
      expect(did).toEqual(predicted(p.json));
      expect(did.created.length).toBeGreaterThan(0);
      record(`preflight, Kubernetes ${version}: values change in B: ${did.created.length} created, ${p.json.refused.length} refused as kubectl refused it, prune skipped as predicted`);
    });

    it('drift and conflicts: a kubectl patch under another field manager and a kubectl edit are reported as drift and as the conflicts kubectl then meets', () => {
      const ns = ['-n', 'drift', '--release-name', 'drift'];
      expect(b.run('kubectl', ['create', 'namespace', 'drift']).status).toBe(0);
      const install = b.sh('agentplat render -r B -f b.yaml -n drift --release-name drift --skip-crds | kubectl apply --server-side --field-manager agentplat -f -');
      expect(install.status, install.err).toBe(0);
      const clean = preflight(b, ['-r', 'B', '-f', 'b.yaml', '--skip-crds', ...ns]);
      expect(clean.code, clean.err).toBe(0);

      const patch = b.run('kubectl', ['patch', 'deployment', 'drift-controller', '-n', 'drift', '--type', 'merge', '-p', '{"spec":{"replicas":3}}', '--field-manager', 'platform-team']);
      expect(patch.status, patch.err).toBe(0);
      // kubectl edit with an editor that changes one line, as a person would.
      writeFileSync(join(b.dir, 'editor.sh'), '#!/bin/sh\nsed -i -e \'s/^\\(  LEADER_ELECT: \\).*/\\1"true"/\' "$1"\n', { mode: 0o755 });
      const edit = b.run('kubectl', ['edit', 'configmap', 'drift-controller', '-n', 'drift'], undefined, { EDITOR: join(b.dir, 'editor.sh') });
      expect(edit.status, edit.err).toBe(0);
      expect(b.run('kubectl', ['get', 'configmap', 'drift-controller', '-n', 'drift', '-o', 'jsonpath={.data.LEADER_ELECT}']).out).toBe('true');

      const p = preflight(b, ['-r', 'B', '-f', 'b.yaml', '--skip-crds', ...ns]);
      expect(p.code, p.err).toBe(1);
      expect(p.json.drift.map((d) => [keyOf(d), d.path, d.live, d.render, d.managers.map((m) => m.manager)])).toEqual([
        ['ConfigMap drift/drift-controller', 'data.LEADER_ELECT', 'true', 'false', ['kubectl-edit']],
        ['Deployment.apps drift/drift-controller', 'spec.replicas', 3, 1, ['platform-team']],
      ]);
      const conflicts = p.json.conflicts.map((x) => [keyOf(x), x.manager, x.path]);
      expect(conflicts).toEqual([
        ['ConfigMap drift/drift-controller', 'kubectl-edit', 'data.LEADER_ELECT'],
        ['Deployment.apps drift/drift-controller', 'platform-team', 'spec.replicas'],
      ]);

      // kubectl applies the render object by object: the conflicts it meets are these, on these objects.
      const met: [string, string, string][] = [];
      for (const o of objectsOf<Live>(b.run('agentplat', ['render', '-r', 'B', '-f', 'b.yaml', '--skip-crds', ...ns]).out)) {
        const r = b.run('kubectl', ['apply', '--server-side', '--field-manager', 'agentplat', '-f', '-'], JSON.stringify(o));
        for (const [manager, field] of conflictsByKubectl(r.err)) met.push([liveKey(o), manager, field.replace(/^\./, '')]);
        expect(r.status !== 0, `${liveKey(o)}: ${r.err}`).toBe(conflictsByKubectl(r.err).length > 0);
      }
      expect(met.sort()).toEqual(conflicts.sort());
      record(`preflight, Kubernetes ${version}: drift: 2 fields changed by hand found with their managers, the same 2 conflicts kubectl met`);
    });
  });
}
