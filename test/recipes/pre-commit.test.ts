// The pre-commit hooks (.pre-commit-hooks.yaml) work as written: each hook's entry and args run
// with the staged files its `files`/`types` select appended, as pre-commit runs them
// (pass_filenames), from the repository's root, with agentplat installed from a pack of this
// repository. Good files pass (exit 0), bad ones fail the commit (exit 1); files a hook does not
// select never reach it. A commit through the hooks: git's pre-commit hook is a script that does
// what pre-commit does for a repository whose .pre-commit-config.yaml names both hooks (the
// `pre-commit` tool itself is a Python package, and this machine reaches no Python registry).
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../cli/binary.ts';
import { installedPack, NPM_GUARD_MS, sh, stepEnv, type Ran } from '../helpers/pack.ts';
import { tempFiles } from '../helpers/temp-dir.ts';

interface Hook {
  id: string;
  entry: string;
  args?: string[];
  language: string;
  files?: string;
  exclude?: string;
  types?: string[];
  pass_filenames?: boolean;
}

const hooks = parse(readFileSync(join(ROOT, '.pre-commit-hooks.yaml'), 'utf8')) as Hook[];
const hook = (id: string) => hooks.find((h) => h.id === id)!;

let prefix: string;
beforeAll(async () => {
  prefix = await installedPack();
});

/** pre-commit's file selection for a hook: `files` and `exclude` are searched (not anchored), `types` by extension. */
function selects(h: Hook, file: string): boolean {
  if (h.types && !h.types.every((t) => t === 'yaml')) throw new Error(`the pre-commit test knows only the yaml type, not ${h.types.join(', ')}`);
  if (h.types?.includes('yaml') && !/\.ya?ml$/.test(file)) return false;
  if (h.files !== undefined && !new RegExp(h.files).test(file)) return false;
  if (h.exclude !== undefined && new RegExp(h.exclude).test(file)) return false;
  return true;
}

/** Runs a hook on a repository of `files` (path → text) as pre-commit does, all staged; undefined when it selects none. */
function runHook(h: Hook, files: Record<string, string>): (Ran & { passed: string[] }) | undefined {
  const repo = tempFiles('agentplat-pre-commit-repo-', files);
  const passed = Object.keys(files).filter((f) => selects(h, f)).sort();
  if (passed.length === 0) return undefined;
  const [command, ...entryArgs] = h.entry.split(/\s+/);
  const r = spawnSync(command!, [...entryArgs, ...(h.args ?? []), ...(h.pass_filenames === false ? [] : passed)], {
    cwd: repo,
    env: stepEnv(prefix),
    encoding: 'utf8',
    timeout: NPM_GUARD_MS,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, passed };
}

const AGENT = readFileSync(join(ROOT, 'fixtures/resources/agent-declarative.yaml'), 'utf8');
const BAD_MODEL = 'apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  name: m\nspec:\n  model: m\n  provider: ProviderA\n  bogus: 1\n';
const OTHER_YAML = { '.github/workflows/ci.yaml': 'on: push\njobs: {}\n', 'Chart.yaml': 'name: x\n', 'docs/notes.md': '# notes\n' };

describe('pre-commit hooks', () => {
  it('define a lint hook, a lint hook for HelmReleases and Applications and a validate hook, built by pre-commit with node from this package', () => {
    expect(hooks.map((h) => [h.id, h.entry, h.language])).toEqual([
      ['agentplat-lint', 'agentplat lint', 'node'],
      ['agentplat-lint-gitops', 'agentplat lint', 'node'],
      ['agentplat-validate', 'agentplat validate --allow-empty', 'node'],
    ]);
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    for (const h of hooks) expect(Object.keys(pkg.bin)).toContain(h.entry.split(' ')[0]);
  });

  it("docs/ci.md's .pre-commit-config.yaml names hooks this repository defines", () => {
    const readme = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
    const block = /### pre-commit[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    const config = parse(block) as { repos: { hooks: { id: string }[] }[] };
    const ids = config.repos.flatMap((r) => r.hooks.map((h) => h.id));
    expect(ids.length).toBeGreaterThan(0);
    for (const id of ids) expect(hooks.map((h) => h.id)).toContain(id);
  });

  describe('agentplat-lint', () => {
    const lint = hook('agentplat-lint');

    it('selects values files (values.yaml, values-prod.yaml, values.prod.yml) and no other YAML', () => {
      for (const f of ['values.yaml', 'envs/prod/values.yaml', 'values-prod.yaml', 'envs/values.prod.yml']) expect(selects(lint, f), f).toBe(true);
      for (const f of ['Chart.yaml', 'myvalues.yaml', 'values/README.md', 'agents/a.yaml', '.github/workflows/ci.yaml']) expect(selects(lint, f), f).toBe(false);
    });

    it('good values files pass: exit 0', () => {
      const r = runHook(lint, { 'envs/dev/values.yaml': 'ui:\n  replicas: 1\n', 'envs/prod/values-prod.yaml': 'controller:\n  replicas: 2\n', ...OTHER_YAML })!;
      expect(r.passed).toEqual(['envs/dev/values.yaml', 'envs/prod/values-prod.yaml']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    });

    it('a bad values file fails the commit: exit 1, naming file:line:column and the rule', () => {
      const r = runHook(lint, { 'envs/dev/values.yaml': 'ui:\n  replicas: 1\n', 'envs/prod/values.yaml': 'ui:\n  replcas: 3\n' })!;
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^envs\/prod\/values\.yaml:2:3 .*\[values\/unknown-key\]$/m);
    });
  });

  describe('agentplat-validate', () => {
    const validate = hook('agentplat-validate');

    it('selects YAML under agents/ or resources/ folders, not values or CI files', () => {
      for (const f of ['agents/a.yaml', 'k8s/resources/models/m.yml']) expect(selects(validate, f), f).toBe(true);
      for (const f of ['values.yaml', 'agents/README.md', '.github/workflows/ci.yaml', 'Chart.yaml']) expect(selects(validate, f), f).toBe(false);
    });

    it('valid custom resources pass: exit 0', () => {
      const r = runHook(validate, { 'agents/agent.yaml': AGENT, 'values.yaml': 'ui:\n  replcas: 3\n', ...OTHER_YAML })!;
      expect(r.passed).toEqual(['agents/agent.yaml']);
      expect(r.code, r.stdout + r.stderr).toBe(0);
    });

    it('an invalid custom resource fails the commit: exit 1, naming file:line:column and the rule', () => {
      const r = runHook(validate, { 'agents/agent.yaml': AGENT, 'resources/model.yaml': BAD_MODEL })!;
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^resources\/model\.yaml:8:3 .*\[crd\/unknown-field\]$/m);
    });
  });
});

/**
 * git's pre-commit hook doing what pre-commit does with `hooks`: the staged files (added, copied,
 * modified, renamed, type-changed; `git diff --staged --name-only --diff-filter=ACMRTUXB`, as
 * pre-commit lists them), for each hook those its `files` and `exclude` patterns select (searched,
 * not anchored, as Python's re.search) and its `types` (yaml: a .yaml or .yml name, as pre-commit's
 * identify tags it), then the hook's entry and args with those files appended; no file, no run.
 * Any hook that exits non-zero fails the commit.
 */
function preCommitHook(list: Hook[]): string {
  return `#!/usr/bin/env node
const { execFileSync, spawnSync } = require('node:child_process');
const hooks = ${JSON.stringify(list)};
const staged = execFileSync('git', ['diff', '--staged', '--name-only', '--no-ext-diff', '-z', '--diff-filter=ACMRTUXB'], { encoding: 'utf8' }).split('\\0').filter(Boolean);
let failed = false;
for (const h of hooks) {
  const files = staged.filter((f) => (!h.files || new RegExp(h.files).test(f)) && !(h.exclude && new RegExp(h.exclude).test(f)) && (!(h.types || []).includes('yaml') || /\\.ya?ml$/.test(f)));
  if (files.length === 0) { console.log(h.id + ': (no files to check) Skipped'); continue; }
  const [command, ...entryArgs] = h.entry.split(/\\s+/);
  const r = spawnSync(command, [...entryArgs, ...(h.args || []), ...(h.pass_filenames === false ? [] : files)], { stdio: 'inherit' });
  console.log(h.id + ': ' + files.join(' ') + ' ' + (r.status === 0 ? 'Passed' : 'Failed (exit ' + r.status + ')'));
  if (r.status !== 0) failed = true;
}
process.exit(failed ? 1 : 0);
`;
}

describe('a commit through the hooks', () => {
  const KUSTOMIZATION = 'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources:\n  - agent.yaml\n';
  const GIT_ENV = { GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com' };

  /** A repository with `committed` in its first commit and the hooks installed as git's pre-commit hook. */
  function repository(committed: Record<string, string>): { run: (script: string) => Ran } {
    const repo = tempFiles('agentplat-pre-commit-git-', committed);
    const run = (script: string) => sh('sh', script, repo, stepEnv(prefix, GIT_ENV));
    expect(run('git init -q && git add -A && git commit -qm start').code).toBe(0);
    writeFileSync(join(repo, '.git', 'hooks', 'pre-commit'), preCommitHook(hooks));
    chmodSync(join(repo, '.git', 'hooks', 'pre-commit'), 0o755);
    return { run };
  }

  it('a commit that stages only a kustomization.yaml under resources/ is committed: validate runs on it, checks nothing and passes', () => {
    const { run } = repository({ 'resources/agent.yaml': AGENT, 'values.yaml': 'ui:\n  replicas: 1\n' });
    expect(selects(hook('agentplat-validate'), 'resources/kustomization.yaml')).toBe(true);
    const r = run(`cat > resources/kustomization.yaml <<'EOF'\n${KUSTOMIZATION}EOF\ngit add resources/kustomization.yaml && git commit -m "kustomization"`);
    // git hands a hook's standard output to its standard error.
    expect(r.stderr).toContain('agentplat-validate: resources/kustomization.yaml Passed');
    expect(r.stderr).toContain('agentplat-lint: (no files to check) Skipped');
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(run('git log --format=%s').stdout.split('\n')[0]).toBe('kustomization');
  });

  it('a commit that stages an invalid custom resource beside it is refused, and nothing is committed', () => {
    const { run } = repository({ 'resources/agent.yaml': AGENT });
    const r = run(`printf '${KUSTOMIZATION.replace(/\n/g, '\\n')}' > resources/kustomization.yaml && cat > resources/model.yaml <<'EOF'\n${BAD_MODEL}EOF\ngit add resources && git commit -m "model"`);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^resources\/model\.yaml:8:3 .*\[crd\/unknown-field\]$/m);
    expect(r.stderr).toContain('agentplat-validate: resources/kustomization.yaml resources/model.yaml Failed (exit 1)');
    expect(run('git log --format=%s').stdout.trim()).toBe('start');
  });
});
