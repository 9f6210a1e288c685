// What `validate --cluster` and `diff --cluster` claim under limited permissions, held to the API
// server: each run goes through the built binary with a kubeconfig of a restricted user (service
// accounts with a TokenRequest token, bound to Roles and ClusterRoles over RBAC), then the same user
// asks the server with kubectl, and an admin run says what the restricted run could not see.
// - A user who may list the custom resources of one namespace only: the run names that namespace
//   as the one read, the others as not read, and exits 2; the admin run finds refusals there.
// - `-n` of a namespace that does not exist is "not found" (kubectl agrees), for validate and diff.
// - A user who may read some kinds: those are checked, the rest named in one line, exit 2.
// - A read-only user: `diff --cluster` cannot dry-run (kubectl's server-side dry run is refused
//   the same way), says so in one line and exits 2, with no object shown as refused.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { kfetch, startCluster, type Cluster } from './_cluster.ts';
import { toolsFor, type Tools } from './_tools.ts';
import { VERSIONS } from './_versions.ts';

type Json = Record<string, unknown>;

interface Report {
  files: { file: string; problems: { severity: string; rule: string }[] }[];
}

async function request(c: Cluster, method: string, path: string, body: unknown): Promise<Json> {
  const r = await kfetch(c, path, { method, body: JSON.stringify(body), contentType: 'application/json' });
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${r.body}`);
  return JSON.parse(r.body) as Json;
}

/**
 * A service account of namespace `default` bound to `rules` (cluster-wide, or in `namespace`), and
 * a kubeconfig file for it whose context namespace is `contextNamespace`.
 */
async function restrictedUser(c: Cluster, t: Tools, name: string, rules: Json[], opts: { namespace?: string; contextNamespace?: string } = {}): Promise<string> {
  await request(c, 'POST', '/api/v1/namespaces/default/serviceaccounts', { metadata: { name } });
  const token = ((await request(c, 'POST', `/api/v1/namespaces/default/serviceaccounts/${name}/token`, { apiVersion: 'authentication.k8s.io/v1', kind: 'TokenRequest', spec: {} })).status as { token: string }).token;
  const subjects = [{ kind: 'ServiceAccount', name, namespace: 'default' }];
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  if (opts.namespace === undefined) {
    await request(c, 'POST', `${rbac}/clusterroles`, { metadata: { name }, rules });
    await request(c, 'POST', `${rbac}/clusterrolebindings`, { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'ClusterRole', name }, subjects });
  } else {
    await request(c, 'POST', `${rbac}/namespaces/${opts.namespace}/roles`, { metadata: { name }, rules });
    await request(c, 'POST', `${rbac}/namespaces/${opts.namespace}/rolebindings`, { metadata: { name }, roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name }, subjects });
  }
  const file = join(t.dir, `${name}.kubeconfig`);
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: c.server, 'certificate-authority-data': Buffer.from(c.ca).toString('base64') } }],
      users: [{ name, user: { token } }],
      contexts: [{ name, context: { cluster: 'c', user: name, ...(opts.contextNamespace ? { namespace: opts.contextNamespace } : {}) } }],
      'current-context': name,
    }),
  );
  return file;
}

const errors = (out: string): string[] => (JSON.parse(out) as Report).files.flatMap((f) => f.problems.filter((p) => p.severity === 'error').map((p) => `${f.file} ${p.rule}`)).sort();

/** Agents valid under revision B's CRD and, in team-b, one it refuses (created under a CRD without B's CEL rules). */
const AGENTS = [
  { namespace: 'team-a', name: 'helper', spec: { declarative: { systemMessage: 'You help.' } } },
  { namespace: 'team-b', name: 'byo-no-block', spec: { type: 'BYO', description: 'no byo block' } },
  { namespace: 'team-b', name: 'reviewer', spec: { declarative: { systemMessage: 'You review.' } } },
];

function withoutCel(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutCel);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => k !== 'x-kubernetes-validations').map(([k, v]) => [k, withoutCel(v)]));
}

for (const version of VERSIONS) {
  describe(`--cluster runs under limited permissions, Kubernetes ${version}`, () => {
    let c: Cluster;
    let t: Tools;
    beforeAll(async () => {
      c = await startCluster(version, inject('clusterBinaries')[version]!);
      t = toolsFor(c, 'agentplat-permissions-');
      // Revision B's CRDs, the Agent one without its CEL rules (as an earlier CRD had it).
      const crds = JSON.parse(t.run('agentplat', ['crds', '-r', 'B', '-o', 'json']).out) as { items: { spec: { names: { kind: string } } }[] };
      crds.items = crds.items.map((crd) => (crd.spec.names.kind === 'Agent' ? (withoutCel(crd) as typeof crd) : crd));
      writeFileSync(join(t.dir, 'crds.json'), JSON.stringify(crds));
      writeFileSync(join(t.dir, 'agents.json'), JSON.stringify({ apiVersion: 'v1', kind: 'List', items: AGENTS.map((a) => ({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name: a.name, namespace: a.namespace }, spec: a.spec })) }));
      writeFileSync(join(t.dir, 'values.yaml'), '{}\n');
      const setup = t.sh(
        [
          'kubectl apply --server-side --field-manager agentplat -f crds.json',
          'kubectl wait --for=condition=Established crd --all --timeout=120s',
          'kubectl create namespace team-a && kubectl create namespace team-b && kubectl create namespace agentplat',
          'kubectl create -f agents.json',
          'agentplat render -r B -f values.yaml -n agentplat --skip-crds | kubectl apply --server-side --field-manager agentplat -n agentplat -f -',
        ].join(' && '),
      );
      expect(setup.status, setup.err).toBe(0);
    });
    afterAll(async () => {
      t?.remove();
      await c?.stop();
    });

    const as = (kubeconfig: string, cmd: string, args: string[]) => t.run(cmd, args, undefined, { KUBECONFIG: kubeconfig });

    it('a user who may list the custom resources of one namespace: the run names the namespace it read and the ones it could not, and exits 2; the admin run finds the refusal it could not see', async () => {
      const kc = await restrictedUser(c, t, 'team-a-only', [{ apiGroups: ['agentplat.dev'], resources: ['*'], verbs: ['get', 'list'] }], { namespace: 'team-a', contextNamespace: 'team-a' });
      const r = as(kc, 'agentplat', ['validate', '--cluster', '-r', 'B', '--format', 'json']);
      expect(r.status, r.err).toBe(2);
      expect(errors(r.out)).toEqual([]);
      expect(r.err).toMatch(/^validate --cluster \(context team-a-only, namespace team-a\): checked 1 resource \(Agent 1\) against the CRDs of revision B; none of these will be refused; the run is incomplete/m);
      expect(r.err).toMatch(/^validate: could not read \(403 Forbidden\): .*Agent.* in every namespace but team-a \(listing across namespaces and listing the namespaces were refused\); the CRDs .*agents\.agentplat\.dev/m);
      expect(r.err.split('\n').filter((l) => l.startsWith('validate: could not read'))).toHaveLength(1);
      expect(r.err).not.toContain('all namespaces');
      // What kubectl gets as the same user: team-a reads, across namespaces and the namespaces do not.
      expect(as(kc, 'kubectl', ['get', 'agents.agentplat.dev', '-n', 'team-a', '-o', 'name']).out.trim().split('\n')).toEqual(['agent.agentplat.dev/helper']);
      expect(as(kc, 'kubectl', ['get', 'agents.agentplat.dev', '-A']).err).toMatch(/Forbidden/);
      expect(as(kc, 'kubectl', ['get', 'namespaces']).err).toMatch(/Forbidden/);
      // The admin's run reads everything: the refusal is in a namespace the restricted run named as unread.
      const admin = t.run('agentplat', ['validate', '--cluster', '-r', 'B', '--format', 'json']);
      expect(admin.status, admin.err).toBe(1);
      expect(errors(admin.out)).toEqual(['<Agent team-b/byo-no-block> crd/cel']);
      expect(admin.err).toContain('(context c, all namespaces)');
      // With -n the restricted user claims only team-a, and the run is complete for Agents; the CRDs it may not read keep it at 2.
      const one = as(kc, 'agentplat', ['validate', '--cluster', '-r', 'B', '-n', 'team-b']);
      expect(one.status).toBe(2);
      expect(one.err).toMatch(/could not read \(403 Forbidden\): .*Agent.* in namespace team-b/);
      expect(one.err).not.toContain('-n NAMESPACE');
    });

    it('-n of a namespace that does not exist is "not found" for validate and diff, as kubectl says; diff lists nothing of the release as not in the render', () => {
      const v = t.run('agentplat', ['validate', '--cluster', '-r', 'B', '-n', 'nosuchns']);
      expect(v.status).toBe(2);
      expect(v.err).toMatch(/^agentplat: namespace nosuchns not found \(context c\)/);
      expect(v.err).not.toMatch(/checked 0/);
      expect(t.run('kubectl', ['get', 'namespace', 'nosuchns']).err).toMatch(/NotFound|not found/);
      const d = t.run('agentplat', ['diff', '--cluster', '-r', 'B', '-f', 'values.yaml', '-n', 'nosuchns']);
      expect(d.status).toBe(2);
      expect(d.out).toBe('');
      expect(d.err).toMatch(/^agentplat: namespace nosuchns not found \(context c\)/);
      // The release is there, in its own namespace: the same preflight there sees it.
      const real = t.run('agentplat', ['diff', '--cluster', '-r', 'B', '-f', 'values.yaml', '-n', 'agentplat', '--skip-crds', '-q']);
      expect(real.err).not.toMatch(/internal error/);
      expect(real.out).not.toMatch(/^not in the render /m);
    });

    it('a user who may read the Agents only: they are checked, the other kinds and the CRDs are named in one line, and the run exits 2', async () => {
      const kc = await restrictedUser(c, t, 'agents-only', [
        { apiGroups: ['agentplat.dev'], resources: ['agents'], verbs: ['get', 'list'] },
        { apiGroups: [''], resources: ['namespaces'], verbs: ['get', 'list'] },
      ]);
      const r = as(kc, 'agentplat', ['validate', '--cluster', '-r', 'B', '--format', 'json']);
      expect(r.status, r.err).toBe(2);
      expect(errors(r.out)).toEqual(['<Agent team-b/byo-no-block> crd/cel']);
      const lines = r.err.split('\n').filter((l) => l.startsWith('validate: '));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^validate: could not read \(403 Forbidden\): AgentHarness, MCPServer, ModelConfig, ModelProviderConfig, RemoteMCPServer, SandboxAgent \(list refused\); the CRDs .* \(get customresourcedefinitions refused: stored versions not checked\)/);
      expect(r.err).toContain('(context agents-only, all namespaces): checked 3 resources (Agent 3)');
      // kubectl as that user: Agents list, ModelConfigs and the CRDs do not.
      expect(as(kc, 'kubectl', ['get', 'agents.agentplat.dev', '-A', '-o', 'name']).out.trim().split('\n')).toHaveLength(3);
      expect(as(kc, 'kubectl', ['get', 'modelconfigs.agentplat.dev', '-A']).err).toMatch(/Forbidden/);
      expect(as(kc, 'kubectl', ['get', 'crd', 'agents.agentplat.dev']).err).toMatch(/Forbidden/);
    });

    it('a read-only user: diff --cluster names what it may not dry-run in one line and exits 2, no object shown as refused; kubectl\'s server-side dry run is refused the same way', async () => {
      const kc = await restrictedUser(c, t, 'read-only', [{ apiGroups: ['*'], resources: ['*'], verbs: ['get', 'list', 'watch'] }]);
      const r = as(kc, 'agentplat', ['diff', '--cluster', '-r', 'B', '-f', 'values.yaml', '-n', 'agentplat', '--skip-crds']);
      expect(r.status, r.err).toBe(2);
      expect(r.out).not.toMatch(/^refused /m);
      const lines = r.err.split('\n').filter((l) => l.includes('not allowed (403 Forbidden)'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^note: not allowed \(403 Forbidden\): patch \(the dry-run apply\) of \d+ objects: .*Deployment\.apps.* in namespace agentplat; these objects were not checked, and the run exits 2/);
      const json = as(kc, 'agentplat', ['diff', '--cluster', '-r', 'B', '-f', 'values.yaml', '-n', 'agentplat', '--skip-crds', '-o', 'json']);
      expect(json.status).toBe(2);
      const doc = JSON.parse(json.out) as { refused: unknown[]; notAllowed: { kind: string; namespace: string; name: string; verb: string }[] };
      expect(doc.refused).toEqual([]);
      const rendered = t.run('agentplat', ['render', '-r', 'B', '-f', 'values.yaml', '-n', 'agentplat', '--skip-crds', '-o', 'json']);
      const objects = (JSON.parse(rendered.out) as { items: { kind: string; metadata: { name: string } }[] }).items;
      expect(doc.notAllowed.map((n) => `${n.kind}/${n.name}`).sort()).toEqual(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort());
      // kubectl, as the same user, with the same render: the server-side dry run is refused, each object forbidden.
      const kubectl = t.sh(`agentplat render -r B -f values.yaml -n agentplat --skip-crds > release.yaml`);
      expect(kubectl.status).toBe(0);
      const dry = as(kc, 'kubectl', ['apply', '--server-side', '--dry-run=server', '--field-manager', 'agentplat', '-n', 'agentplat', '-f', 'release.yaml']);
      expect(dry.status).not.toBe(0);
      expect(dry.err).toMatch(/is forbidden: User "system:serviceaccount:default:read-only" cannot patch resource/);
      // And with the admin's rights the same preflight asks nothing it may not.
      const admin = t.run('agentplat', ['diff', '--cluster', '-r', 'B', '-f', 'values.yaml', '-n', 'agentplat', '--skip-crds']);
      expect(admin.err).not.toContain('not allowed');
      expect([0, 1]).toContain(admin.status);
    });
  });
}
