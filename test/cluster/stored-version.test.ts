// The `crd/stored-version` hint of `validate --cluster`, run as a user runs it: a cluster whose
// ModelConfig CRD stores its objects at v1alpha1 (an earlier CRD, installed as the README installs
// CRDs), objects written at that version in two namespaces, then `validate --cluster -r B`. The
// commands its hint prints are run verbatim through bash with the suite's kubectl, then the apply
// of revision B's CRDs it names; every object must read back with its fields, the CRD must end as
// revision B's with only B's version stored, and the kind must list. The hint's order is the point:
// objects written again before the storage version is switched stay stored at v1alpha1, and once
// B's CRD (which lists no v1alpha1) is applied the API server cannot read them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

type Json = Record<string, unknown>;
type Crd = { metadata: { name: string }; spec: { names: { kind: string }; versions: { name: string; served: boolean; storage: boolean }[] }; status?: { storedVersions?: string[] } };
type Item = { apiVersion: string; metadata: { name: string; namespace: string }; spec: Json };

interface Report {
  files: { file: string; problems: { rule: string; hint?: string }[] }[];
}

/** Revision A's CRDs, the ModelConfig one as an earlier install left it: v1alpha1 stored, v1alpha2 served beside it. */
function olderCrds(): Crd[] {
  const r = agentplat(['crds', '-r', 'A', '-o', 'json']);
  if (r.code !== 0) throw new Error(`agentplat crds -r A exited ${r.code}: ${r.err}`);
  return (JSON.parse(r.out) as { items: Crd[] }).items.map((crd) => {
    if (crd.spec.names.kind !== 'ModelConfig') return crd;
    const v2 = crd.spec.versions.find((v) => v.name === 'v1alpha2')!;
    return { ...crd, spec: { ...crd.spec, versions: [{ ...structuredClone(v2), name: 'v1alpha1', storage: true }, { ...v2, storage: false }] } };
  });
}

const MODELCONFIGS = [
  { namespace: 'team-a', name: 'default', spec: { model: 'm-a', provider: 'ProviderA' } },
  { namespace: 'team-a', name: 'second', spec: { model: 'm-a2', provider: 'ProviderA' } },
  { namespace: 'team-b', name: 'default', spec: { model: 'm-b', provider: 'ProviderA' } },
];

const sortedItems = (items: Item[]) => items.map((i) => ({ ns: i.metadata.namespace, name: i.metadata.name, spec: i.spec })).sort((a, b) => `${a.ns}/${a.name}`.localeCompare(`${b.ns}/${b.name}`));

for (const version of VERSIONS) {
  describe(`validate --cluster's stored-version hint, Kubernetes ${version}`, () => {
    let c: Cluster;
    let t: Tools;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      t = toolsFor(c, 'agentplat-stored-version-');
      writeFileSync(join(t.dir, 'older-crds.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: olderCrds() }));
      const crds = t.sh('kubectl apply --server-side --field-manager agentplat -f older-crds.json && kubectl wait --for=condition=Established crd --all --timeout=120s');
      expect(crds.status, crds.err).toBe(0);
      const objects = MODELCONFIGS.map((m) => ({ apiVersion: 'agentplat.dev/v1alpha1', kind: 'ModelConfig', metadata: { name: m.name, namespace: m.namespace }, spec: m.spec }));
      writeFileSync(join(t.dir, 'modelconfigs.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
      const made = t.sh('kubectl create namespace team-a && kubectl create namespace team-b && kubectl create -f modelconfigs.json');
      expect(made.status, made.err).toBe(0);
    });
    afterAll(async () => {
      t?.remove();
      await c?.stop();
    });

    it("the hint's commands, run as printed, leave every ModelConfig readable and B's CRD applied, with only v1alpha2 stored", () => {
      const before = t.run('agentplat', ['validate', '--cluster', '-r', 'B', '--format', 'json']);
      expect(before.status, before.err).toBe(1);
      const problem = (JSON.parse(before.out) as Report).files.find((f) => f.file === '<CustomResourceDefinition modelconfigs.agentplat.dev>')?.problems.find((p) => p.rule === 'crd/stored-version');
      expect(problem?.hint).toBeDefined();
      const m = /in this order \(one line\): (.*); then apply the CRDs of revision B: (.*)$/.exec(problem!.hint!);
      expect(m, problem!.hint).not.toBeNull();
      const [, steps, applyB] = m!;
      // The order the hint prints: the storage switch, the rewrite at v1alpha2, the status patch.
      expect(steps!.split(' && ').map((s) => s.split(' ').slice(0, 3).join(' '))).toEqual(['kubectl patch crd', 'kubectl get modelconfigs.v1alpha2.agentplat.dev', 'kubectl patch crd']);

      const ran = t.sh(steps!);
      expect(ran.status, ran.err).toBe(0);
      const crd = JSON.parse(t.run('kubectl', ['get', 'crd', 'modelconfigs.agentplat.dev', '-o', 'json']).out) as Crd;
      expect(crd.status?.storedVersions).toEqual(['v1alpha2']);

      const applied = t.sh(`${applyB} && kubectl wait --for=condition=Established crd --all --timeout=120s`);
      expect(applied.status, applied.err).toBe(0);
      const after = JSON.parse(t.run('kubectl', ['get', 'crd', 'modelconfigs.agentplat.dev', '-o', 'json']).out) as Crd;
      expect(after.spec.versions.map((v) => v.name)).toEqual(['v1alpha2']);
      expect(after.status?.storedVersions).toEqual(['v1alpha2']);

      // Every object reads back, listed and one by one, with the fields it was written with.
      const listed = t.run('kubectl', ['get', 'modelconfigs.agentplat.dev', '-A', '-o', 'json']);
      expect(listed.status, listed.err).toBe(0);
      expect(sortedItems((JSON.parse(listed.out) as { items: Item[] }).items)).toEqual(sortedItems(MODELCONFIGS.map((x) => ({ apiVersion: '', metadata: { name: x.name, namespace: x.namespace }, spec: x.spec }))));
      for (const x of MODELCONFIGS) {
        const one = t.run('kubectl', ['get', 'modelconfig.agentplat.dev', x.name, '-n', x.namespace, '-o', 'json']);
        expect(one.status, one.err).toBe(0);
        expect((JSON.parse(one.out) as Item).apiVersion).toBe('agentplat.dev/v1alpha2');
      }
      // And validate --cluster now finds nothing to refuse.
      const again = t.run('agentplat', ['validate', '--cluster', '-r', 'B']);
      expect(again.status, again.out + again.err).toBe(0);
    });
  });
}
