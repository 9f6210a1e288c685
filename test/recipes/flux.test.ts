// The Flux recipe (recipes/flux) works as written: render.sh, run in a values repository with
// agentplat installed from a pack of this repository, writes for each environment the folders the
// recipe's two Flux Kustomizations sync; together they hold exactly the objects `agentplat render`
// prints, plus the Namespace; a re-render drops the files of objects no longer rendered, so
// Flux prunes them, but never a CRD (that would delete every custom resource of its kind); a
// values error fails the script. The recipe's CI workflow runs its steps too.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runBin } from '../cli/binary.ts';
import { objectsOf } from '../helpers/objects.ts';
import { installedPack, installOnce, sh, sharedPack, stepEnv, TARBALL } from '../helpers/pack.ts';
import { tempFiles } from '../helpers/temp-dir.ts';

const DIR = join(ROOT, 'recipes', 'flux');
const RENDER = readFileSync(join(DIR, 'render.sh'), 'utf8');
interface Kustomization {
  kind: string;
  metadata: { name: string };
  spec: { path: string; prune: boolean; sourceRef: { kind: string; name: string }; dependsOn?: { name: string }[] };
}
const [gitRepository, ...kustomizations] = objectsOf<any>(readFileSync(join(DIR, 'flux-sync.yaml'), 'utf8')) as [{ kind: string; metadata: { name: string } }, ...Kustomization[]];
/** The Kustomization that syncs the release (it prunes); the other one syncs the CRDs. */
const kustomization = kustomizations.find((k) => k.metadata.name === 'agentplat-prod')!;
type Workflow = { jobs: Record<string, { steps: { name?: string; run?: string }[] }> };
const workflow = parse(readFileSync(join(DIR, 'render-workflow.yaml'), 'utf8')) as Workflow;
const lintWorkflow = parse(readFileSync(join(DIR, 'lint-workflow.yaml'), 'utf8')) as Workflow;
const HELMRELEASE = readFileSync(join(DIR, 'helmrelease.yaml'), 'utf8');

let prefix: string;
beforeAll(async () => {
  prefix = await installedPack();
});

const valuesRepo = (files: Record<string, string>) => tempFiles('agentplat-flux-repo-', files);

function render(repo: string, env: Record<string, string> = {}) {
  return sh('sh', RENDER, repo, stepEnv(prefix, env));
}

/** Every YAML file below `dir` (relative path → text), as kustomize-controller collects them. */
function manifests(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of readdirSync(d)) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(e)) out.set(relative(dir, p), readFileSync(p, 'utf8'));
    }
  };
  walk(dir);
  return out;
}

/** Objects of a YAML stream as `Kind namespace/name`, sorted. */
function objects(text: string): string[] {
  return objectsOf(text)
    .map((o) => `${o.kind} ${o.metadata.namespace ?? ''}/${o.metadata.name}`)
    .sort();
}

interface Crd {
  kind: string;
  metadata: { name: string; annotations?: Record<string, string> };
}

/** The CRDs the Kustomizations of flux-sync.yaml sync from `repo`: name → which one, whether it prunes, the CRD's annotations. */
function fluxCrds(repo: string): Map<string, { kustomization: string; prune: boolean; annotations: Record<string, string> }> {
  const out = new Map<string, { kustomization: string; prune: boolean; annotations: Record<string, string> }>();
  for (const k of kustomizations) {
    for (const text of manifests(join(repo, k.spec.path)).values()) {
      for (const o of objectsOf<Crd>(text).filter((c) => c.kind === 'CustomResourceDefinition')) {
        expect(out.has(o.metadata.name), `${o.metadata.name} is synced by two Kustomizations`).toBe(false);
        out.set(o.metadata.name, { kustomization: k.metadata.name, prune: k.spec.prune, annotations: o.metadata.annotations ?? {} });
      }
    }
  }
  return out;
}

const ENVS = { 'envs/dev/values.yaml': 'ui:\n  replicas: 1\n', 'envs/prod/values.yaml': 'controller:\n  replicas: 2\n' };

describe('Flux recipe', () => {
  it('two Kustomizations sync deploy/prod from the GitRepository: the release, pruning, once the CRDs, never pruned, are ready', () => {
    expect(gitRepository.kind).toBe('GitRepository');
    expect(kustomizations.map((k) => [k.kind, k.metadata.name, k.spec.path, k.spec.prune])).toEqual([
      ['Kustomization', 'agentplat-prod-crds', './deploy/prod/crds', false],
      ['Kustomization', 'agentplat-prod', './deploy/prod/release', true],
    ]);
    for (const k of kustomizations) expect(k.spec.sourceRef).toEqual({ kind: 'GitRepository', name: gitRepository.metadata.name });
    expect(kustomization.spec.dependsOn).toEqual([{ name: 'agentplat-prod-crds' }]);
    // Neither path holds the other: no object is applied by both.
    const [a, b] = kustomizations.map((k) => `${k.spec.path}/`);
    expect(a!.startsWith(b!) || b!.startsWith(a!)).toBe(false);
  });

  it('render.sh writes the folders the Kustomizations sync: together every object agentplat renders, and the Namespace', () => {
    const repo = valuesRepo(ENVS);
    const r = render(repo);
    expect(r.code, r.stderr).toBe(0);
    const synced = kustomizations.flatMap((k) => [...manifests(join(repo, k.spec.path)).values()]);
    const expected = runBin(['render', '--revision', 'B', '--namespace', 'agentplat', '-f', 'envs/prod/values.yaml'], { cwd: repo });
    expect(expected.code, expected.stderr).toBe(0);
    expect(objects(synced.join('\n---\n'))).toEqual(objects(`${expected.stdout}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: agentplat\n`));
    expect(existsSync(join(repo, 'deploy', 'dev', 'release', 'agentplat'))).toBe(true);
    expect(existsSync(join(repo, 'deploy', 'dev', 'crds'))).toBe(true);
  });

  it('turning sub-charts off keeps every CRD in the set Flux keeps: none leaves its file, and none could be pruned', () => {
    const repo = valuesRepo(ENVS);
    expect(render(repo).code).toBe(0);
    const before = fluxCrds(repo);
    // Every CRD the chart and its sub-charts have is synced.
    const all = objectsOf<Crd>(runBin(['crds']).stdout).map((c) => c.metadata.name);
    expect([...before.keys()].sort()).toEqual([...all].sort());
    expect(before.has('mcpservers.agentplat.dev')).toBe(true);
    writeFileSync(join(repo, 'envs', 'prod', 'values.yaml'), 'mcpop:\n  enabled: false\nsubstrate:\n  enabled: false\ndashboards-mcp:\n  enabled: false\n');
    const r = render(repo);
    expect(r.code, r.stderr).toBe(0);
    const after = fluxCrds(repo);
    // The sub-charts are off: their other objects are gone from what is synced.
    expect([...manifests(join(repo, kustomization.spec.path)).keys()].filter((f) => /charts\/(mcpop|dashboards-mcp)\//.test(f))).toEqual([]);
    for (const [name, was] of before) {
      // Flux deletes an object only when it left the path of a Kustomization that prunes and the
      // object in the cluster (as last applied, `was`) is not annotated prune: disabled.
      const kept = after.has(name) || !was.prune || was.annotations['kustomize.toolkit.fluxcd.io/prune'] === 'disabled';
      expect(kept, `${name} would be pruned by ${was.kustomization}`).toBe(true);
      // The recipe holds all three: still synced, by a Kustomization that never prunes, annotated.
      expect(after.get(name), name).toEqual(was);
      expect(was.prune, name).toBe(false);
      expect(was.annotations['kustomize.toolkit.fluxcd.io/prune'], name).toBe('disabled');
    }
  });

  it('AGENTPLAT_NAMESPACE and AGENTPLAT_REVISION reach the render', () => {
    const repo = valuesRepo({ 'envs/prod/values.yaml': 'controller:\n  toolRefreshInterval: 30s\n' });
    expect(render(repo).code).toBe(1);
    const r = render(repo, { AGENTPLAT_REVISION: 'A', AGENTPLAT_NAMESPACE: 'platform' });
    expect(r.code, r.stderr).toBe(0);
    const found = objects([...manifests(join(repo, 'deploy', 'prod')).values()].join('\n---\n'));
    expect(found).toContain('Namespace /platform');
    expect(found).toContain('Deployment platform/agentplat-controller');
  });

  it('AGENTPLAT_API_VERSIONS and AGENTPLAT_KUBE_VERSION reach the render: a ServiceMonitor renders through it', () => {
    const repo = valuesRepo({ 'envs/prod/values.yaml': 'controller:\n  metrics:\n    enabled: true\n    serviceMonitor:\n      enabled: true\n' });
    expect(render(repo).code).toBe(0);
    expect(objects([...manifests(join(repo, 'deploy', 'prod')).values()].join('\n---\n')).some((o) => o.startsWith('ServiceMonitor '))).toBe(false);
    const env = { AGENTPLAT_API_VERSIONS: 'monitoring.coreos.com/v1,gateway.networking.k8s.io/v1', AGENTPLAT_KUBE_VERSION: '1.29' };
    const r = render(repo, env);
    expect(r.code, r.stderr).toBe(0);
    const expected = runBin(['render', '--namespace', 'agentplat', '-f', 'envs/prod/values.yaml', '--api-versions', env.AGENTPLAT_API_VERSIONS, '--kube-version', '1.29'], { cwd: repo });
    const written = [...manifests(join(repo, 'deploy', 'prod')).entries()].filter(([f]) => f !== 'release/namespace.yaml').map(([, t]) => t).join('\n---\n');
    expect(objects(written).sort()).toEqual(objects(expected.stdout).sort());
    expect(objects(written)).toContain('ServiceMonitor agentplat/agentplat-controller-metrics');
  });

  it('a re-render without a sub-chart removes its files, so Flux prunes its objects', () => {
    const repo = valuesRepo(ENVS);
    expect(render(repo).code).toBe(0);
    const before = [...manifests(join(repo, 'deploy', 'prod')).keys()];
    expect(before.some((f) => f.includes('charts/dashboards-mcp/'))).toBe(true);
    writeFileSync(join(repo, 'envs', 'prod', 'values.yaml'), 'dashboards-mcp:\n  enabled: false\n');
    expect(render(repo).code).toBe(0);
    const after = [...manifests(join(repo, 'deploy', 'prod')).keys()];
    expect(after.filter((f) => f.includes('charts/dashboards-mcp/'))).toEqual([]);
    expect(after.length).toBeLessThan(before.length);
  });

  it('values with an error fail the script and leave that environment as it was', () => {
    const repo = valuesRepo(ENVS);
    expect(render(repo).code).toBe(0);
    const before = manifests(join(repo, 'deploy', 'prod'));
    writeFileSync(join(repo, 'envs', 'prod', 'values.yaml'), 'controller:\n  replcas: 2\n');
    const r = render(repo);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('[values/unknown-key]');
    expect(manifests(join(repo, 'deploy', 'prod'))).toEqual(before);
  });

  it('a repository without envs/<env>/values.yaml is a usage error', () => {
    const r = render(valuesRepo({ 'values.yaml': '{}\n' }));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no envs/<env>/values.yaml');
  });

  it('the CI workflow passes when deploy/ is up to date and fails when the values changed without a render', async () => {
    const repo = valuesRepo({ ...ENVS, 'tools/.keep': '' });
    copyFileSync(await sharedPack(), join(repo, 'tools', TARBALL));
    mkdirSync(join(repo, 'scripts'));
    copyFileSync(join(DIR, 'render.sh'), join(repo, 'scripts', 'render.sh'));
    const git = (script: string) => sh('sh', script, repo, stepEnv(prefix, { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' }));
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);
    expect(steps[0]!.run, 'the workflow installs agentplat first').toMatch(/\bnpm install\b/);
    // The install step runs once per test run (installOnce); the steps after it use its prefix.
    const runSteps = async () => {
      const installed = await installOnce(steps[0]!.run!, repo);
      return [0, ...steps.slice(1).map((s) => sh('bash', s.run!, repo, stepEnv(installed)).code)];
    };
    expect(render(repo).code).toBe(0);
    expect(git('git init -q && git add -A && git commit -qm values').code).toBe(0);
    expect(await runSteps()).toEqual([0, 0, 0]);
    // A pull request that changes the values but not deploy/.
    expect(git('git reset -q --hard && git clean -qfdx -e tools && printf "dashboards-mcp:\\n  enabled: false\\n" > envs/prod/values.yaml && git commit -qam change').code).toBe(0);
    expect(await runSteps()).toEqual([0, 0, 1]);
  });
});

describe('Flux recipe for HelmReleases', () => {
  it('docs/ci.md shows the one-line command the lint workflow runs', () => {
    const steps = Object.values(lintWorkflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);
    const lint = steps.map((s) => s.run!.trim()).filter((r) => r.startsWith('agentplat lint'));
    expect(lint).toHaveLength(1);
    expect(readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8')).toContain(['', '```sh', lint[0]!, '```', ''].join('\n'));
  });

  /** A Flux repository: the recipe's HelmRelease in a Kustomization folder, another chart's HelmRelease, the pack under tools/. */
  const fluxRepo = async (helmrelease: string) => {
    const repo = tempFiles('agentplat-flux-helmreleases-', {
      'clusters/prod/agentplat/helmrelease.yaml': helmrelease,
      'clusters/prod/agentplat/kustomization.yaml': 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - helmrelease.yaml\n',
      'clusters/prod/podinfo/helmrelease.yaml': 'apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata:\n  name: podinfo\n  namespace: flux-system\nspec:\n  chart:\n    spec:\n      chart: podinfo\n      version: 6.x\n  values:\n    replicaCount: 2\n',
      'tools/.keep': '',
    });
    copyFileSync(await sharedPack(), join(repo, 'tools', TARBALL));
    return repo;
  };
  /** The workflow's run steps: the install once per test run, then the others with its prefix. */
  const runSteps = async (repo: string) => {
    const steps = Object.values(lintWorkflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);
    expect(steps[0]!.run, 'the workflow installs agentplat first').toMatch(/\bnpm install\b/);
    const installed = await installOnce(steps[0]!.run!, repo);
    return steps.slice(1).map((s) => sh('bash', s.run!, repo, stepEnv(installed)));
  };

  it('the lint workflow lints the HelmRelease files themselves: the recipe\'s HelmRelease passes, another chart\'s is skipped', async () => {
    const ran = await runSteps(await fluxRepo(HELMRELEASE));
    expect(ran.map((r) => r.code), ran.map((r) => r.stderr).join('\n')).toEqual([0]);
    expect(ran[0]!.stdout).toContain('1 file, 0 errors');
    expect(ran[0]!.stderr).toContain('is of chart "podinfo", not agentplat: skipped');
  });

  it('the lint workflow fails on a wrong key in the valuesFrom ConfigMap, at its line in helmrelease.yaml', async () => {
    const broken = HELMRELEASE.replace('    ui:\n      replicas: 2\n', '    ui:\n      replcas: 2\n');
    expect(broken).not.toBe(HELMRELEASE);
    const line = broken.split('\n').findIndex((l) => l.includes('replcas')) + 1;
    const ran = await runSteps(await fluxRepo(broken));
    expect(ran[0]!.code).toBe(1);
    expect(ran[0]!.stdout).toContain(`clusters/prod/agentplat/helmrelease.yaml:${line}:7`);
    expect(ran[0]!.stdout).toContain('[values/unknown-key]');
  });
});
