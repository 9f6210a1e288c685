// Pruning round trip against a real kube-apiserver with the kubectl of the same version: a release
// applied as an ApplySet by kubectl, then a render without a sub-chart and without one of the
// rbac.namespaces, applied with --prune, removes exactly those objects. The labels and the parent
// kubectl makes are the ones `render --applyset` prints, and kubectl's --applyset mode refuses
// input that is already labelled (what the README says about it).
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import * as k8s from '@kubernetes/client-node';
import { crdProblems, ensureNamespaces, installCrds, type Obj } from './_api.ts';
import { agentplat } from './_cli.ts';
import { startCluster, type Cluster } from './_cluster.ts';
import { NEWEST } from './_versions.ts';

const HERE = import.meta.dirname;
const PART_OF = 'applyset.kubernetes.io/part-of';
const ID = 'applyset.kubernetes.io/id';

function buildKubectl(version: string): string {
  const r = spawnSync('bash', [join(HERE, 'build-kubectl.sh'), version], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const bin = r.stdout.trim().split('\n').pop() ?? '';
  if (r.status !== 0 || !bin) throw new Error(`test/cluster/build-kubectl.sh ${version} failed (exit ${r.status}); see its output above`);
  return bin;
}

function render(args: string[]): string {
  const r = agentplat(['render', '-n', 'ns', '--skip-crds', ...args]);
  if (r.code !== 0) throw new Error(`agentplat render ${args.join(' ')} exited ${r.code}:\n${r.err}`);
  return r.out;
}

const FULL = ['--set', 'rbac.namespaces={ns,team-a,team-b}'];
const SMALLER = ['--set', 'rbac.namespaces={ns,team-a}', '--set', 'agentplat-tools.enabled=false'];

describe(`prune with ApplySets, Kubernetes ${NEWEST}`, () => {
  let c: Cluster;
  let kubectl: string;
  beforeAll(async () => {
    kubectl = buildKubectl(NEWEST);
    c = await startCluster(NEWEST, inject('clusterBinaries')[NEWEST]!);
    const crds = (JSON.parse(agentplat(['crds', '-o', 'json']).out) as { items: Obj[] }).items;
    expect(crdProblems(await installCrds(c, crds))).toEqual([]);
    await ensureNamespaces(c, ['ns', 'team-a', 'team-b']);
  });
  afterAll(async () => c?.stop());

  const kubectlApply = (manifests: string, extra: string[]) =>
    spawnSync(kubectl, ['--kubeconfig', c.kubeconfig, 'apply', '--server-side', '-n', 'ns', ...extra, '-f', '-'], {
      input: manifests,
      encoding: 'utf8',
      env: { ...process.env, KUBECTL_APPLYSET: 'true' },
    });

  async function live(kind: 'deployments' | 'roles', namespace: string): Promise<string[]> {
    if (kind === 'deployments') return (await c.kc.makeApiClient(k8s.AppsV1Api).listNamespacedDeployment({ namespace })).items.map((d) => d.metadata!.name!);
    return (await c.kc.makeApiClient(k8s.RbacAuthorizationV1Api).listNamespacedRole({ namespace })).items.map((d) => d.metadata!.name!);
  }

  it('kubectl --applyset refuses render --applyset output (it labels the objects itself)', () => {
    const r = kubectlApply(render([...FULL, '--applyset', 'agentplat']), ['--prune', '--applyset=agentplat']);
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/ApplySet label "applyset\.kubernetes\.io\/part-of" already set in input data/);
  });

  it('kubectl makes the parent and labels render --applyset prints; a smaller render then prunes the dropped sub-chart and namespace', async () => {
    const first = kubectlApply(render(FULL), ['--prune', '--applyset=agentplat']);
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);

    const ours = render([...FULL, '--applyset', 'agentplat']);
    const parentOurs = ours.split('\n---\n').find((d) => d.includes(`${ID}:`))!;
    const secret = await c.kc.makeApiClient(k8s.CoreV1Api).readNamespacedSecret({ name: 'agentplat', namespace: 'ns' });
    const id = secret.metadata!.labels![ID]!;
    expect(parentOurs).toContain(`${ID}: ${id}`);
    for (const key of ['applyset.kubernetes.io/contains-group-kinds', 'applyset.kubernetes.io/additional-namespaces']) {
      const want = secret.metadata!.annotations![key]!;
      expect(parentOurs, key).toMatch(new RegExp(`${key.replace(/[./]/g, '\\$&')}: "?${want.replace(/[./]/g, '\\$&')}"?\\n`));
    }
    const deployments = await c.kc.makeApiClient(k8s.AppsV1Api).listNamespacedDeployment({ namespace: 'ns' });
    expect(deployments.items.length).toBeGreaterThan(0);
    for (const d of deployments.items) expect(d.metadata!.labels![PART_OF]).toBe(id);
    expect((await live('deployments', 'ns')).some((n) => n.startsWith('agentplat-tools'))).toBe(true);
    expect((await live('roles', 'team-b')).length).toBeGreaterThan(0);

    const second = kubectlApply(render(SMALLER), ['--prune', '--applyset=agentplat']);
    expect(second.status).toBe(0);
    expect(second.stdout).toMatch(/pruned/);
    expect((await live('deployments', 'ns')).some((n) => n.startsWith('agentplat-tools'))).toBe(false);
    expect(await live('roles', 'team-b')).toEqual([]);
    expect((await live('roles', 'team-a')).length).toBeGreaterThan(0);
  });
});
