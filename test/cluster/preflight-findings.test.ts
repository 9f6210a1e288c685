// `agentplat diff --cluster`'s conflicts, drift and field paths against a real kube-apiserver of
// every version of _versions.ts, each checked the way a user would meet it: a release installed as
// the README installs it (`agentplat render … | kubectl apply --server-side --field-manager
// agentplat -f -`), changed by hand (kubectl scale, kubectl patch under another field manager), the
// preflight run, then the kubectl apply it predicts, and its answer compared with the prediction.
//
// - `--ignore` leaves a field's change and drift out, never the conflict the apply meets on a field
//   the render still sets; a render that leaves the field out (the authentication proxy with its
//   autoscaler) meets none, and --force-conflicts takes the field over.
// - Drift is only what another field manager wrote: after an install of revision A, B's render
//   reports exactly the fields managedFields say someone else owns.
// - A field is spelled one way in conflicts, changes and drift, and --ignore takes that spelling or
//   the one kubectl printed the conflict in.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { objectsOf } from '../helpers/objects.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { record } from './_figures.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

type Id = { group: string; kind: string; namespace: string; name: string };
type Live = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; managedFields?: { manager: string; operation: string; subresource?: string; fieldsV1?: Record<string, unknown> }[] }; spec?: Record<string, unknown> };
interface Preflight {
  equal: boolean;
  objects: (Id & { status: string; changes?: { path: string }[] })[];
  refused: (Id & { message: string })[];
  conflicts: (Id & { manager: string; subresource?: string; path: string; ignoredBy?: string[] })[];
  drift: (Id & { path: string; live?: unknown; render: unknown; managers: { manager: string; operation?: string; subresource?: string }[] })[];
  unchecked: Id[];
  notes: string[];
}

const groupOf = (apiVersion: string): string => (apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '');
const keyOf = (id: Id): string => `${id.kind}${id.group ? `.${id.group}` : ''} ${id.namespace ? `${id.namespace}/` : ''}${id.name}`;
const liveKey = (o: Live): string => keyOf({ group: groupOf(o.apiVersion), kind: o.kind, namespace: o.metadata.namespace ?? '', name: o.metadata.name });

/** The fields of this file's scenarios as kubectl prints them in a conflict, and as agentplat spells them. */
const SPELLING: Record<string, string> = {
  '.spec.replicas': 'spec.replicas',
  '.data.config.json': 'data["config.json"]',
  '.metadata.labels.app.kubernetes.io/version': 'metadata.labels["app.kubernetes.io/version"]',
  '.spec.template.spec.containers[name="controller"].image': 'spec.template.spec.containers[name=controller].image',
};
const spelled = (field: string): string => SPELLING[field] ?? `(no spelling in the test's table for ${field})`;

/**
 * The conflicts in kubectl's errors, as [manager, subresource, field]: one conflict is
 * `conflict with "M"[ with subresource "S"] using V: FIELD`, several of one manager are
 * `conflicts with "M"[ with subresource "S"] using V:` and a `- FIELD` line each.
 */
function kubectlConflicts(stderr: string): [string, string, string][] {
  const out: [string, string, string][] = [];
  for (const m of stderr.matchAll(/conflict with "([^"]+)"(?: with subresource "([^"]+)")?(?: using [^:\s]+)?: (\S+)/g)) out.push([m[1]!, m[2] ?? '', m[3]!]);
  for (const m of stderr.matchAll(/conflicts with "([^"]+)"(?: with subresource "([^"]+)")?(?: using [^:\s]+)?:\n((?:- .*\n?)+)/g)) {
    for (const line of m[3]!.trim().split('\n')) out.push([m[1]!, m[2] ?? '', line.slice(2).trim()]);
  }
  return out.sort();
}

/**
 * Every field of `fieldsV1` as agentplat spells it, for the keys and named entries the scenarios
 * change (`f:spec` → spec, `k:{"name":"ui"}` → [name=ui]); other entries are named by their raw key.
 */
function ownedPaths(fields: Record<string, unknown>, prefix = ''): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === '.') continue;
    let p: string;
    if (k.startsWith('f:')) p = /^[A-Za-z_][A-Za-z0-9_-]*$/.test(k.slice(2)) ? `${prefix}${prefix ? '.' : ''}${k.slice(2)}` : `${prefix}[${JSON.stringify(k.slice(2))}]`;
    else if (k.startsWith('k:') && Object.keys(JSON.parse(k.slice(2)) as object).join() === 'name') p = `${prefix}[name=${(JSON.parse(k.slice(2)) as { name: string }).name}]`;
    else p = `${prefix}[${k}]`;
    const sub = v !== null && typeof v === 'object' ? Object.keys(v).filter((x) => x !== '.') : [];
    if (sub.length === 0) out.push(p);
    else out.push(...ownedPaths(v as Record<string, unknown>, p));
  }
  return out;
}

interface Bench extends Tools {
  c: Cluster;
  stop(): Promise<void>;
}

async function bench(version: string): Promise<Bench> {
  const c = await startCluster(version, inject('clusterBinaries')[version]!);
  const tools = toolsFor(c, 'agentplat-findings-');
  return {
    ...tools,
    c,
    async stop() {
      tools.remove();
      await c.stop();
    },
  };
}

for (const version of VERSIONS) {
  describe(`diff --cluster, Kubernetes ${version}: conflicts --ignore cannot hide, drift only from other managers, one spelling of a field`, () => {
    let b: Bench;
    const preflight = (args: string[]): { code: number; json: Preflight; err: string } => {
      const r = b.run('agentplat', ['diff', '--cluster', '-o', 'json', ...args]);
      if (r.out === '') throw new Error(`diff --cluster ${args.join(' ')} exited ${r.status} with nothing on stdout:\n${r.err}`);
      return { code: r.status, json: JSON.parse(r.out) as Preflight, err: r.err };
    };
    /** A release installed as the README installs it. */
    const install = (release: string, revision: string, values: string) => {
      expect(b.run('kubectl', ['create', 'namespace', release]).status).toBe(0);
      const r = b.sh(`agentplat render -r ${revision} ${values} -n ${release} --release-name ${release} --skip-crds | kubectl apply --server-side --field-manager agentplat -f -`);
      expect(r.status, r.err).toBe(0);
    };
    const applyCrds = (revision: string) => {
      const r = b.sh(`agentplat crds -r ${revision} | kubectl apply --server-side --field-manager agentplat -f - && kubectl wait --for=condition=Established crd -l app.kubernetes.io/part-of=agentplat --timeout=120s`);
      expect(r.status, r.err).toBe(0);
    };
    const replicas = (ns: string, name: string): number => Number(b.run('kubectl', ['get', 'deployment', name, '-n', ns, '-o', 'jsonpath={.spec.replicas}']).out);

    beforeAll(async () => {
      b = await bench(version);
      writeFileSync(join(b.dir, 'a.yaml'), '{}\n');
      const migrated = b.run('agentplat', ['migrate', '--from', 'A', '-r', 'B', '-f', 'a.yaml']);
      expect(migrated.status, migrated.err).toBe(0);
      writeFileSync(join(b.dir, 'b.yaml'), migrated.out);
      // The authentication proxy with its autoscaler: its Deployment sets no replicas.
      writeFileSync(
        join(b.dir, 'autoscaled.yaml'),
        ['controller:', '  auth:', '    mode: trusted-proxy', 'authproxy:', '  enabled: true', '  config:', '    clientID: findings-client', '    clientSecret: findings-client-secret-value', '    cookieSecret: 0123456789abcdef0123456789abcdef', '  autoscaling:', '    enabled: true', ''].join('\n'),
      );
      // Revision A installed before B's CRDs, as an upgrade finds it; then B's CRDs and two B releases.
      applyCrds('A');
      install('upgrade', 'A', '-f a.yaml');
      applyCrds('B');
      install('scaled', 'B', '-f b.yaml -f autoscaled.yaml');
      install('spelled', 'B', '-f b.yaml');
    });
    afterAll(async () => b?.stop());

    it('after kubectl scale, --ignore \'Deployment/*:spec.replicas\' still reports the conflict the apply meets (exit 1) and says how to stop setting replicas; kubectl apply then meets exactly that conflict', () => {
      const scale = b.run('kubectl', ['scale', 'deployment', 'scaled-controller', 'scaled-authproxy', '-n', 'scaled', '--replicas', '3']);
      expect(scale.status, scale.err).toBe(0);
      const values = ['-r', 'B', '-f', 'b.yaml', '-f', 'autoscaled.yaml', '-n', 'scaled', '--release-name', 'scaled', '--skip-crds'];
      const rule = 'Deployment/*:spec.replicas';
      const p = preflight([...values, '--ignore', rule]);
      expect(p.code, p.err).toBe(1);
      // The controller's Deployment sets replicas: a conflict with kubectl's scale. The proxy's does not: none.
      expect(p.json.conflicts.map((c) => [keyOf(c), c.manager, c.subresource, c.path, c.ignoredBy])).toEqual([['Deployment.apps scaled/scaled-controller', 'kubectl', 'scale', 'spec.replicas', [rule]]]);
      expect(p.json.drift).toEqual([]);
      expect(p.json.objects).toEqual([]);
      const note = p.json.notes.find((n) => n.startsWith(`--ignore ${rule}`)) ?? p.json.notes.join('\n');
      expect(note).toContain(`--ignore ${rule} leaves out changes and drift, not conflicts: the render still sets spec.replicas of Deployment.apps scaled/scaled-controller (owned by "kubectl" through the scale subresource; the render sets 1)`);
      expect(note).toMatch(/make the render leave the field out, or apply with --force-conflicts/);

      // The README's apply: refused on that conflict, as predicted.
      const apply = `agentplat render ${values.join(' ')} | kubectl apply --server-side --field-manager agentplat -f -`;
      const refused = b.sh(apply);
      expect(refused.status).not.toBe(0);
      expect(kubectlConflicts(refused.err).map(([m, s, f]) => [m, s, spelled(f)])).toEqual(p.json.conflicts.map((c) => [c.manager, c.subresource ?? '', c.path]));
      expect([replicas('scaled', 'scaled-controller'), replicas('scaled', 'scaled-authproxy')]).toEqual([3, 3]);

      // Taken over knowingly: the controller back at the render's count, the proxy's left to its autoscaler.
      const forced = b.sh(`${apply} --force-conflicts`);
      expect(forced.status, forced.err).toBe(0);
      expect([replicas('scaled', 'scaled-controller'), replicas('scaled', 'scaled-authproxy')]).toEqual([1, 3]);
      const after = preflight(values);
      expect([after.code, after.json.conflicts, after.json.drift, after.json.objects]).toEqual([0, [], [], []]);

      // Scaled again, and a render at the live count: the field is shared, no conflict, and the apply goes through.
      expect(b.run('kubectl', ['scale', 'deployment', 'scaled-controller', '-n', 'scaled', '--replicas', '3']).status).toBe(0);
      const atLive = [...values, '--set', 'controller.replicas=3'];
      const shared = preflight(atLive);
      expect([shared.json.refused, shared.json.conflicts, shared.json.drift], shared.err).toEqual([[], [], []]);
      const same = b.sh(`agentplat render ${atLive.join(' ')} | kubectl apply --server-side --field-manager agentplat -f -`);
      expect(same.status, same.err).toBe(0);
      expect(replicas('scaled', 'scaled-controller')).toBe(3);
      expect(preflight(atLive).code).toBe(0);
      record(`findings, Kubernetes ${version}: kubectl scale + --ignore spec.replicas: 1 conflict reported (exit 1), the 1 kubectl met; none on the Deployment whose render leaves replicas out`);
    });

    it('after an install of A, B\'s render reports as drift exactly the fields managedFields say another manager wrote, not the fields B adds; kubectl apply meets the conflicts predicted', () => {
      const scale = b.run('kubectl', ['scale', 'deployment', 'upgrade-ui', '-n', 'upgrade', '--replicas', '2']);
      expect(scale.status, scale.err).toBe(0);
      const values = ['-r', 'B', '-f', 'b.yaml', '-n', 'upgrade', '--release-name', 'upgrade', '--skip-crds'];
      const p = preflight(values);
      expect(p.code, p.err).toBe(1);
      expect(p.json.refused).toEqual([]);
      // What another manager owns, read from the live objects' managedFields, among the fields B's render sets.
      const render = objectsOf<Live>(b.run('agentplat', ['render', ...values]).out);
      const kinds = [...new Set(render.map((o) => `${o.kind.toLowerCase()}${groupOf(o.apiVersion) ? `.${groupOf(o.apiVersion)}` : ''}`))].join(',');
      const live = (JSON.parse(b.run('kubectl', ['get', kinds, '-n', 'upgrade', '-l', 'app.kubernetes.io/instance=upgrade', '-o', 'json', '--show-managed-fields']).out) as { items: Live[] }).items;
      const rendered = new Set(render.map(liveKey));
      const others = live
        .filter((o) => rendered.has(liveKey(o)))
        .flatMap((o) => (o.metadata.managedFields ?? []).filter((m) => m.manager !== 'agentplat' || m.subresource).flatMap((m) => ownedPaths(m.fieldsV1 ?? {}).map((path) => [liveKey(o), path, m.manager, m.subresource ?? ''])))
        .sort();
      expect(others).toEqual([['Deployment.apps upgrade/upgrade-ui', 'spec.replicas', 'kubectl', 'scale']]);
      expect(p.json.drift.map((d) => [keyOf(d), d.path, ...d.managers.map((m) => [m.manager, m.subresource ?? '']).flat()]).sort()).toEqual(others);
      expect(p.json.drift[0]).toMatchObject({ live: 2, render: 1 });

      // The apply of B's render: the one conflict predicted (B's CRDs are already applied).
      const r = b.sh(`agentplat render ${values.join(' ')} | kubectl apply --server-side --field-manager agentplat -f -`);
      expect(r.status).not.toBe(0);
      expect(kubectlConflicts(r.err).map(([m, s, f]) => [m, s, spelled(f)])).toEqual(p.json.conflicts.map((c) => [c.manager, c.subresource ?? '', c.path]).sort());
      record(`findings, Kubernetes ${version}: B's render over an A install: ${p.json.drift.length} drifted field, the ${others.length} managedFields give to another manager; ${p.json.objects.length} objects to change`);
    });

    it('conflicts, changes and drift spell each field one way; --ignore in that spelling or in the one kubectl printed hides the change and the drift and marks the conflict, which kubectl then meets', () => {
      const ns = ['-n', 'spelled'];
      const patches: [string, string, string][] = [
        ['configmap', 'spelled-ui-config', '{"data":{"config.json":"{}"}}'],
        ['configmap', 'spelled-controller', '{"metadata":{"labels":{"app.kubernetes.io/version":"edited"}}}'],
        ['deployment', 'spelled-controller', '{"spec":{"template":{"spec":{"containers":[{"name":"controller","image":"example.com/edited:1"}]}}}}'],
      ];
      for (const [kind, name, patch] of patches) {
        const r = b.run('kubectl', ['patch', kind, name, ...ns, '--type', kind === 'deployment' ? 'strategic' : 'merge', '-p', patch, '--field-manager', 'hand']);
        expect(r.status, r.err).toBe(0);
      }
      const values = ['-r', 'B', '-f', 'b.yaml', ...ns, '--release-name', 'spelled', '--skip-crds'];
      const p = preflight(values);
      expect(p.code, p.err).toBe(1);
      const fields = [
        ['ConfigMap spelled/spelled-controller', 'metadata.labels["app.kubernetes.io/version"]'],
        ['ConfigMap spelled/spelled-ui-config', 'data["config.json"]'],
        ['Deployment.apps spelled/spelled-controller', 'spec.template.spec.containers[name=controller].image'],
      ];
      expect(p.json.conflicts.map((c) => [keyOf(c), c.path]).sort()).toEqual(fields);
      expect(p.json.drift.map((d) => [keyOf(d), d.path]).sort()).toEqual(fields);
      expect(p.json.objects.flatMap((o) => (o.changes ?? []).map((c) => [keyOf(o), c.path])).sort()).toEqual(fields);

      // kubectl applies the render object by object: the conflicts it meets, with the field as it prints it.
      const met: [string, string, string][] = [];
      for (const o of objectsOf<Live>(b.run('agentplat', ['render', ...values]).out)) {
        const r = b.run('kubectl', ['apply', '--server-side', '--field-manager', 'agentplat', '-f', '-'], JSON.stringify(o));
        for (const [manager, , field] of kubectlConflicts(r.err)) met.push([liveKey(o), manager, field]);
      }
      expect(met.map(([k, m, f]) => [k, m, spelled(f)]).sort()).toEqual(p.json.conflicts.map((c) => [keyOf(c), c.manager, c.path]).sort());

      // --ignore as kubectl printed each field, then as agentplat prints it: the same findings left out.
      const kindOf = (key: string) => key.slice(0, key.indexOf(' ')).split('.')[0];
      const nameOf = (key: string) => key.slice(key.lastIndexOf('/') + 1);
      const asKubectl = met.map(([k, , f]) => `${kindOf(k)}/${nameOf(k)}:${f}`);
      const asAgentplat = fields.map(([k, f]) => `${kindOf(k!)}/${nameOf(k!)}:${f}`);
      for (const rules of [asKubectl, asAgentplat]) {
        const q = preflight([...values, ...rules.flatMap((r) => ['--ignore', r])]);
        expect(q.code, q.err).toBe(1);
        expect([q.json.drift, q.json.objects], rules.join(' ')).toEqual([[], []]);
        expect(q.json.conflicts.map((c) => [keyOf(c), c.path, c.ignoredBy?.length]).sort()).toEqual(fields.map((f) => [...f, 1]));
        expect(q.json.notes.filter((n) => n.includes('matched no field'))).toEqual([]);
      }
      record(`findings, Kubernetes ${version}: 3 fields changed by hand spelled alike in conflicts, changes and drift; --ignore in kubectl's spelling and in agentplat's hides the same`);
    });
  });
}
