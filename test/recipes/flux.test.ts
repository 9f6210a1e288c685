// The Flux recipe (recipes/flux) works as written: render.sh, run in a values repository with
// agentplat installed from a pack of this repository, writes for each environment the folder the
// recipe's Flux Kustomization syncs; the folder holds exactly the objects `agentplat render`
// prints, plus the Namespace; a re-render drops the files of objects no longer rendered, so
// Flux prunes them; a values error fails the script. The recipe's CI workflow runs its steps too.
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT, runBin } from '../cli/binary.ts';
import { objectsOf } from '../helpers/objects.ts';
import { folderWith, installedPack, installOnce, sh, sharedPack, stepEnv, TARBALL } from '../helpers/pack.ts';

const DIR = join(ROOT, 'recipes', 'flux');
const RENDER = readFileSync(join(DIR, 'render.sh'), 'utf8');
const [gitRepository, kustomization] = objectsOf<any>(readFileSync(join(DIR, 'flux-sync.yaml'), 'utf8')) as [
  { kind: string; metadata: { name: string } },
  { kind: string; spec: { path: string; prune: boolean; sourceRef: { kind: string; name: string } } },
];
const workflow = parse(readFileSync(join(DIR, 'render-workflow.yaml'), 'utf8')) as { jobs: Record<string, { steps: { name?: string; run?: string }[] }> };

let prefix: string;
beforeAll(async () => {
  prefix = await installedPack();
});

const valuesRepo = (files: Record<string, string>) => folderWith('agentplat-flux-repo-', files);

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

const ENVS = { 'envs/dev/values.yaml': 'ui:\n  replicas: 1\n', 'envs/prod/values.yaml': 'controller:\n  replicas: 2\n' };

describe('Flux recipe', () => {
  it('the Kustomization syncs deploy/prod from the GitRepository, pruning', () => {
    expect(gitRepository.kind).toBe('GitRepository');
    expect(kustomization.spec.sourceRef).toEqual({ kind: 'GitRepository', name: gitRepository.metadata.name });
    expect(kustomization.spec.path).toBe('./deploy/prod');
    expect(kustomization.spec.prune).toBe(true);
  });

  it('render.sh writes the folder the Kustomization syncs: every object agentplat renders, and the Namespace', () => {
    const repo = valuesRepo(ENVS);
    const r = render(repo);
    expect(r.code, r.stderr).toBe(0);
    const synced = join(repo, kustomization.spec.path);
    const files = manifests(synced);
    const expected = runBin(['render', '--revision', 'B', '--namespace', 'agentplat', '-f', 'envs/prod/values.yaml'], { cwd: repo });
    expect(expected.code, expected.stderr).toBe(0);
    expect(objects([...files.values()].join('\n---\n'))).toEqual(objects(`${expected.stdout}\n---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: agentplat\n`));
    expect(existsSync(join(repo, 'deploy', 'dev', 'agentplat'))).toBe(true);
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
