// `agentplat validate --cluster` predicts what the API server does once the target revision's CRDs
// are applied, and the real API server is held to the prediction. Revisions A and B ship the same
// CRDs, so the cluster starts with the CRDs an earlier install left behind (Helm never upgrades
// CRDs): revision A's, made older here in three ways a CRD history has —
// - Agent without its CEL rules and with a field the new schema does not have (`spec.legacyMode`);
// - ModelConfig stored at v1alpha1 (the upstream's old version), v1alpha2 served beside it;
// - the other kinds as revision A ships them.
// Objects are created under those CRDs, some valid under revision B's CRDs and some not. Then
// `validate --cluster --revision B` (the built binary, a kubeconfig file) must name exactly the
// refused objects and the refused CRD update, and applying B's CRDs must go as predicted: the
// ModelConfig CRD update is refused for its stored version, and once the Agent CRD is B's, a
// create of each object as it was written (a restore, a re-create by a GitOps tool) is refused
// for exactly the predicted objects. Unreachable and forbidden runs go through the binary too.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { apply, crdProblems, create, ensureNamespaces, forgetDiscovery, installCrds, type Obj } from './_api.ts';
import { agentplat } from './_cli.ts';
import { kfetch, startCluster, type Cluster } from './_cluster.ts';
import { VERSIONS } from './_versions.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { connect, type KubeObject } from '../../src/cluster/connect.ts';

type Json = Record<string, unknown>;

const work = tempDir('agentplat-validate-cluster-');

/** The CRDs `agentplat crds -r REV -o json` prints. */
function crdsOf(revision: string): Obj[] {
  const r = agentplat(['crds', '-r', revision, '-o', 'json']);
  if (r.code !== 0) throw new Error(`agentplat crds -r ${revision} exited ${r.code}: ${r.err}`);
  return (JSON.parse(r.out) as { items: Obj[] }).items;
}

const crdKind = (crd: Obj): string => ((crd.spec as Json).names as Json).kind as string;

/** Every x-kubernetes-validations of a schema removed (a CRD from before the rules). */
function withoutCel(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutCel);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'x-kubernetes-validations').map(([k, v]) => [k, withoutCel(v)]));
}

type Version = { name: string; served: boolean; storage: boolean; schema: { openAPIV3Schema: Json } };

/** The CRDs an earlier install left: revision A's, made older as the header says. */
function olderCrds(a: Obj[]): Obj[] {
  return a.map((crd) => {
    const copy = structuredClone(crd) as Obj & { spec: { versions: Version[] } };
    if (crdKind(crd) === 'Agent') {
      for (const v of copy.spec.versions) {
        v.schema = withoutCel(v.schema) as Version['schema'];
        const spec = (v.schema.openAPIV3Schema.properties as Record<string, Json>).spec!;
        (spec.properties as Json).legacyMode = { type: 'string' };
      }
    }
    if (crdKind(crd) === 'ModelConfig') {
      const v2 = copy.spec.versions.find((v) => v.name === 'v1alpha2')!;
      copy.spec.versions = [{ ...structuredClone(v2), name: 'v1alpha1', storage: true }, { ...v2, storage: false }];
    }
    return copy;
  });
}

const agent = (namespace: string, name: string, spec: Json): Obj & KubeObject => ({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name, namespace }, spec });

/** What the cluster holds before the upgrade. */
const OBJECTS: Obj[] = [
  agent('team-a', 'helper', { declarative: { systemMessage: 'You help.' } }),
  // Breaks B's CEL rule "spec.byo is required when spec.type is BYO" (the older CRD had no rules).
  agent('team-a', 'byo-no-block', { type: 'BYO', description: 'no byo block' }),
  // A field the older schema had and B's does not.
  agent('team-b', 'legacy', { declarative: { systemMessage: 'Old.' }, legacyMode: 'compat' }),
  agent('team-b', 'reviewer', { declarative: { systemMessage: 'You review.' } }),
  { apiVersion: 'agentplat.dev/v1alpha1', kind: 'ModelConfig', metadata: { name: 'default', namespace: 'team-a' }, spec: { model: 'm', provider: 'ProviderA' } },
];

/** The refusals validate --cluster must report: `file rule path`. */
const EXPECTED = [
  '<Agent team-a/byo-no-block> crd/cel spec.type',
  '<Agent team-b/legacy> crd/unknown-field spec.legacyMode',
  '<CustomResourceDefinition modelconfigs.agentplat.dev> crd/stored-version status.storedVersions',
];

interface Report {
  files: { file: string; problems: { severity: string; rule: string; path: string; message: string; hint?: string }[] }[];
  summary: { files: number; errors: number };
}

/** A kubeconfig file for the cluster with another user (a token) or another server URL. */
function kubeconfigFile(c: Cluster, name: string, opts: { token?: string; server?: string } = {}): string {
  const file = join(work, `${c.version}-${name}.kubeconfig`);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: opts.server ?? c.server, 'certificate-authority-data': Buffer.from(c.ca).toString('base64') } }],
      users: [{ name, user: { token: opts.token ?? c.token } }],
      contexts: [{ name, context: { cluster: 'c', user: name } }],
      'current-context': name,
    }),
  );
  return file;
}

async function request(c: Cluster, method: string, path: string, body: unknown): Promise<{ status: number; body: Json }> {
  const r = await kfetch(c, path, { method, body: JSON.stringify(body), contentType: 'application/json' });
  if (r.status >= 300 && r.status !== 409) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return { status: r.status, body: JSON.parse(r.body) as Json };
}

/** A service account of namespace `default` and a token for it (the TokenRequest API). */
async function serviceAccountToken(c: Cluster, name: string): Promise<string> {
  await request(c, 'POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name } });
  const r = await request(c, 'POST', `/api/v1/namespaces/default/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} });
  return (r.body.status as { token: string }).token;
}

const found = (r: Report): string[] => r.files.flatMap((g) => g.problems.filter((p) => p.severity === 'error').map((p) => `${g.file} ${p.rule} ${p.path}`)).sort();

for (const version of VERSIONS) {
  describe(`Kubernetes ${version}`, () => {
    let c: Cluster;
    let kubeconfig: string;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      kubeconfig = kubeconfigFile(c, 'admin');
      const problems = crdProblems(await installCrds(c, olderCrds(crdsOf('A'))));
      if (problems.length > 0) throw new Error(`the older CRDs were not installed:\n${problems.join('\n')}`);
      await ensureNamespaces(c, ['team-a', 'team-b', 'restore-check']);
      for (const o of OBJECTS) {
        const r = await create(c, o, { dryRun: false });
        if (r.error) throw new Error(`${o.kind} ${o.metadata.name} was not created under the older CRDs: ${r.error.message}`);
      }
    });
    afterAll(async () => c?.stop());

    it('validate --cluster --revision B names exactly the objects and the CRD update the API server will refuse', () => {
      const r = agentplat(['validate', '--cluster', '--revision', 'B', '--kubeconfig', kubeconfig, '--format', 'json']);
      expect(r.code, r.err).toBe(1);
      const report = JSON.parse(r.out) as Report;
      expect(found(report)).toEqual(EXPECTED);
      // Every object was checked, the clean ones listed as clean inputs.
      expect(report.summary.files).toBe(OBJECTS.length);
      expect(report.files.map((g) => g.file)).toEqual(expect.arrayContaining(['<Agent team-a/helper>', '<Agent team-b/reviewer>', '<ModelConfig team-a/default>']));
      expect(r.err).toContain('checked 5 resources (Agent 4, ModelConfig 1) against the CRDs of revision B; refused after the upgrade: 2 (Agent 2); CRD updates the API server will refuse: modelconfigs.agentplat.dev');

      const text = agentplat(['validate', '--cluster', '--revision', 'B', '--kubeconfig', kubeconfig]);
      expect(text.code).toBe(1);
      expect(text.out).toContain('<Agent team-a/byo-no-block>  error  spec: spec.byo is required when spec.type is BYO  [crd/cel]');
      expect(text.out).toContain('<Agent team-b/legacy>  error  unknown field spec.legacyMode  [crd/unknown-field]');
      expect(text.out).toMatch(/<CustomResourceDefinition modelconfigs\.agentplat\.dev> {2}error {2}status\.storedVersions lists v1alpha1, which the CRD of revision B does not serve/);
      expect(text.out).toContain('5 resources, 3 errors, 0 warnings');

      // One namespace: only its objects.
      const one = agentplat(['validate', '--cluster', '--revision', 'B', '--kubeconfig', kubeconfig, '-n', 'team-b', '--format', 'json']);
      expect(found(JSON.parse(one.out) as Report)).toEqual([EXPECTED[1], EXPECTED[2]]);
    });

    it('SARIF output carries the refusals with the object in the message', () => {
      const r = agentplat(['validate', '--cluster', '--kubeconfig', kubeconfig, '--format', 'sarif']);
      expect(r.code).toBe(1);
      const texts = (JSON.parse(r.out) as { runs: { results: { message: { text: string } }[] }[] }).runs[0]!.results.map((x) => x.message.text);
      expect(texts).toHaveLength(3);
      expect(texts.some((t) => t.startsWith('<Agent team-b/legacy>: unknown field spec.legacyMode'))).toBe(true);
    });

    it("applying B's CRDs goes as predicted: the ModelConfig CRD is refused for its stored version; under B's Agent CRD, exactly the predicted objects are refused when written as they were", async () => {
      const b = crdsOf('B');
      const mc = await apply(c, b.find((x) => crdKind(x) === 'ModelConfig')!, { dryRun: false });
      expect(mc.status).toBe(422);
      expect(mc.error?.message).toMatch(/status\.storedVersions\[0\]: Invalid value: "v1alpha1": (missing from|must appear in) spec\.versions/);

      const states = await installCrds(c, b.filter((x) => crdKind(x) !== 'ModelConfig'));
      expect(crdProblems(states)).toEqual([]);
      forgetDiscovery(c);
      const refused: string[] = [];
      for (const o of OBJECTS.filter((x) => x.kind === 'Agent')) {
        // The same object in a namespace of its own: a create, as a restore or a re-create does it.
        const r = await create(c, { ...o, metadata: { ...o.metadata, namespace: 'restore-check' } }, { dryRun: true });
        if (r.error) refused.push(`<Agent ${o.metadata.namespace}/${o.metadata.name}>`);
      }
      expect(refused).toEqual(EXPECTED.filter((e) => e.startsWith('<Agent')).map((e) => e.slice(0, e.indexOf('>') + 1)));

      // After the upgrade validate --cluster agrees with itself: the objects it said B refuses are
      // still there (the API server does not re-check stored objects), the CEL one still refused;
      // the unknown field is gone, dropped from the stored object when it is read under B's schema.
      const after = agentplat(['validate', '--cluster', '--revision', 'B', '--kubeconfig', kubeconfig, '--format', 'json']);
      expect(found(JSON.parse(after.out) as Report)).toEqual([EXPECTED[0], EXPECTED[2]]);
    });

    it('the cluster client of src/cluster/connect.ts: get, list in one namespace, and a dry-run server-side apply that reports refusals and field-ownership conflicts and writes nothing', async () => {
      const client = await connect({ kubeconfig }, { cwd: work, env: {} });
      expect(client.context).toBe('admin');
      const gvk = { group: 'agentplat.dev', version: 'v1alpha2', kind: 'Agent' };
      const got = await client.get(gvk, 'helper', 'team-a');
      expect(got?.metadata.uid).toEqual(expect.any(String));
      expect(await client.get(gvk, 'no-such-agent', 'team-a')).toBeUndefined();
      expect((await client.list(gvk, { namespace: 'team-b' })).items.map((o) => o.metadata.name).sort()).toEqual(['legacy', 'reviewer']);

      const changed = agent('team-a', 'helper', { declarative: { systemMessage: 'Changed.' } });
      const ok = await client.applyDryRun(changed, { fieldManager: 'agentplat-test' });
      // kubectl created the object (manager "agentplat-cluster-test" of the suite's helpers owns
      // the field): a different value under another manager, without force, is a conflict.
      expect(ok.ok).toBe(false);
      if (!ok.ok) {
        expect(ok.refusal.status).toBe(409);
        expect(ok.refusal.reason).toBe('Conflict');
        expect(ok.refusal.causes.map((c) => c.field)).toContain('.spec.declarative.systemMessage');
      }
      const same = await client.applyDryRun(agent('team-a', 'helper', { declarative: { systemMessage: 'You help.' } }), { fieldManager: 'agentplat-test' });
      expect(same.ok).toBe(true);
      const strict = await client.applyDryRun(agent('team-a', 'new-one', { declarative: {}, nope: 1 }), { fieldManager: 'agentplat-test' });
      expect(strict.ok).toBe(false);
      if (!strict.ok) expect(strict.refusal.message).toMatch(/\.spec\.nope: field not declared in schema/);
      // Nothing was written.
      expect((await client.get(gvk, 'helper', 'team-a'))?.metadata.resourceVersion).toBe(got?.metadata.resourceVersion);
      expect(await client.get(gvk, 'new-one', 'team-a')).toBeUndefined();
    });

    it('an unreachable API server exits 2 with the URL and the cause', () => {
      const port = new URL(c.server).port;
      // One port past the server's: nothing of this cluster listens there.
      const elsewhere = kubeconfigFile(c, 'elsewhere', { server: `https://127.0.0.1:${Number(port) === 65535 ? 1 : Number(port) + 1}` });
      const r = agentplat(['validate', '--cluster', '--kubeconfig', elsewhere]);
      expect(r.code).toBe(2);
      expect(r.out).toBe('');
      expect(r.err).toMatch(/^agentplat: cannot reach the API server https:\/\/127\.0\.0\.1:\d+ \(context elsewhere\): .*ECONNREFUSED/);
    });

    it('a wrong token exits 2 with 401; a user with no rights exits 2 naming what was refused; a user of one namespace gets that namespace checked and the run says the others were not', async () => {
      const bad = agentplat(['validate', '--cluster', '--kubeconfig', kubeconfigFile(c, 'wrong-token', { token: 'not-a-token' })]);
      expect(bad.code).toBe(2);
      expect(bad.err).toMatch(/refused the credentials of user wrong-token \(context wrong-token\) to .*: 401 Unauthorized/);

      const nobody = kubeconfigFile(c, 'nobody', { token: await serviceAccountToken(c, 'nobody') });
      const refused = agentplat(['validate', '--cluster', '--kubeconfig', nobody]);
      expect(refused.code).toBe(2);
      expect(refused.err).toMatch(/^validate: could not read \(403 Forbidden\): Agent, AgentHarness, MCPServer, ModelConfig, ModelProviderConfig, RemoteMCPServer, SandboxAgent \(list refused\); the CRDs .*; ask for get and list on what is named/m);
      expect(refused.err).toContain('checked 0 resources against the CRDs of revision B; none of these will be refused; the run is incomplete');

      // Allowed to list namespaces and the agentplat.dev resources of team-a only.
      const token = await serviceAccountToken(c, 'team-a-reader');
      const subject = [{ kind: 'ServiceAccount', name: 'team-a-reader', namespace: 'default' }];
      await request(c, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterroles', { metadata: { name: 'list-namespaces' }, rules: [{ apiGroups: [''], resources: ['namespaces'], verbs: ['list'] }] });
      await request(c, 'POST', '/apis/rbac.authorization.k8s.io/v1/clusterrolebindings', { metadata: { name: 'team-a-reader-namespaces' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name: 'list-namespaces' }, subjects: subject });
      await request(c, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/roles', { metadata: { name: 'read-agentplat' }, rules: [{ apiGroups: ['agentplat.dev'], resources: ['*'], verbs: ['get', 'list'] }] });
      await request(c, 'POST', '/apis/rbac.authorization.k8s.io/v1/namespaces/team-a/rolebindings', { metadata: { name: 'team-a-reader' }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name: 'read-agentplat' }, subjects: subject });
      const teamA = agentplat(['validate', '--cluster', '--kubeconfig', kubeconfigFile(c, 'team-a-reader', { token }), '--format', 'json']);
      // The refusal in team-a is reported; team-b, which holds another, was not read: exit 2, not 1.
      expect(teamA.code, teamA.err).toBe(2);
      expect(found(JSON.parse(teamA.out) as Report)).toEqual([EXPECTED[0]]);
      expect(teamA.err).toMatch(/^validate: could not read \(403 Forbidden\): Agent, AgentHarness, MCPServer, ModelConfig, ModelProviderConfig, RemoteMCPServer, SandboxAgent in namespaces (\S+, )*team-b(, \S+)*; the CRDs .*agents\.agentplat\.dev.* \(get customresourcedefinitions refused: stored versions not checked\)/m);
      expect(teamA.err).toContain('(context team-a-reader, namespace team-a): checked 3 resources');
    });
  });
}
