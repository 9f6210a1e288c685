// The composite GitHub Action (recipes/github-action/action.yml) works as written: its shell
// steps run in order, the way a runner runs them (bash -eo pipefail, inputs through expressions,
// step outputs through $GITHUB_OUTPUT), in a values repository holding a pack of this repository.
// The `uses:` steps (setup-node, upload-sarif) are GitHub's own; the test checks what they are given.
// The install step runs once per test run for each distinct input (installOnce): every repository
// here holds the same pack, and the steps after it use the prefix it installed into.
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../cli/binary.ts';
import { installOnce, NPM_GUARD_MS, sharedPack, stepEnv, TARBALL, type Ran } from '../helpers/pack.ts';
import { tempFiles } from '../helpers/temp-dir.ts';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  with?: Record<string, string>;
  shell?: string;
  env?: Record<string, string>;
  run?: string;
  if?: string;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = parse(readFileSync(join(ROOT, 'recipes/github-action/action.yml'), 'utf8')) as Action;

/** Replaces `${{ inputs.x }}` and `${{ steps.id.outputs.y }}`; any other expression fails the test. */
function expand(text: string, inputs: Record<string, string>, outputs: Record<string, Record<string, string>>): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expr: string) => {
    const input = /^inputs\.([\w-]+)$/.exec(expr);
    if (input) {
      if (!(input[1]! in action.inputs)) throw new Error(`action.yml reads an undeclared input ${input[1]}`);
      return inputs[input[1]!] ?? action.inputs[input[1]!]!.default ?? '';
    }
    const out = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(expr);
    if (out) return outputs[out[1]!]?.[out[2]!] ?? '';
    throw new Error(`the action test does not evaluate \${{ ${expr} }}`);
  });
}

interface ActionRun {
  /** Every shell step that ran, by name, in order; the run stops at the first that fails, like a job. */
  steps: (Ran & { name: string })[];
  /** What each `uses:` step was given, by action. */
  uses: Record<string, Record<string, string>>;
  outputs: Record<string, string>;
}

async function runAction(repo: string, inputs: Record<string, string>): Promise<ActionRun> {
  for (const [name, spec] of Object.entries(action.inputs)) if (spec.required) expect(inputs[name], `input ${name} is required`).toBeDefined();
  let prefix = join(repo, '.npm-global');
  const stepOutputs: Record<string, Record<string, string>> = {};
  const ran: ActionRun = { steps: [], uses: {}, outputs: {} };
  for (const [i, step] of action.runs.steps.entries()) {
    expect(step.if, 'every step runs under the default success() condition').toBeUndefined();
    if (step.uses) {
      ran.uses[step.uses] = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, expand(v, inputs, stepOutputs)]));
      continue;
    }
    expect(step.shell).toBe('bash');
    const stepVars = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expand(v, inputs, stepOutputs)]));
    const text = expand(step.run!, inputs, stepOutputs);
    if (/\bnpm install\b/.test(text)) {
      expect(step.id, 'the install step has no outputs to read').toBeUndefined();
      prefix = await installOnce(text, repo, stepVars);
      ran.steps.push({ name: step.name ?? `step ${i}`, code: 0, stdout: '', stderr: '' });
      continue;
    }
    const outputFile = join(repo, `.github-output-${i}`);
    writeFileSync(outputFile, '');
    const env = stepEnv(prefix, { GITHUB_OUTPUT: outputFile, ...stepVars });
    const script = join(repo, `.step-${i}.sh`);
    writeFileSync(script, text);
    const r = spawnSync('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd: repo, env, encoding: 'utf8', timeout: NPM_GUARD_MS });
    ran.steps.push({ name: step.name ?? `step ${i}`, code: r.status, stdout: r.stdout, stderr: r.stderr });
    if (step.id) stepOutputs[step.id] = Object.fromEntries(readFileSync(outputFile, 'utf8').split('\n').filter(Boolean).map((l) => l.split('=', 2) as [string, string]));
    if (r.status !== 0) break;
  }
  ran.outputs = Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, expand(v.value, inputs, stepOutputs)]));
  return ran;
}

/** A values repository with the pack where the `package` input's default expects it. */
async function valuesRepo(files: Record<string, string>): Promise<string> {
  const dir = tempFiles('agentplat-action-repo-', files);
  const pkg = join(dir, action.inputs.package!.default!);
  mkdirSync(dirname(pkg), { recursive: true });
  copyFileSync(await sharedPack(), pkg);
  return dir;
}

const CLEAN = { 'base.yaml': 'controller:\n  replicas: 2\n', 'envs/dev/values.yaml': 'ui:\n  replicas: 2\n', 'envs/prod/values.yaml': 'ui:\n  replicas: 3\n' };
const TYPO = { ...CLEAN, 'envs/prod/values.yaml': 'ui:\n  replcas: 3\n' };
const INPUTS = { files: "envs/**/values.yaml", base: 'base.yaml' };

describe('GitHub Action recipe (composite)', () => {
  it("docs/ci.md's usage passes only inputs the action declares, and every required one", () => {
    const readme = readFileSync(join(ROOT, 'docs', 'ci.md'), 'utf8');
    const block = /### GitHub Action \(composite\)[\s\S]*?```yaml\n([\s\S]*?)```/.exec(readme)![1]!;
    const steps = Object.values((parse(block) as { jobs: Record<string, { steps: Step[] }> }).jobs).flatMap((j) => j.steps);
    const usage = steps.find((s) => s.uses?.includes('recipes/github-action'))!;
    for (const key of Object.keys(usage.with!)) expect(action.inputs, key).toHaveProperty([key]);
    for (const [name, spec] of Object.entries(action.inputs)) if (spec.required) expect(usage.with).toHaveProperty([name]);
  });

  it('is a composite action whose package default is the pack of this version', () => {
    expect(action.runs.using).toBe('composite');
    expect(action.inputs.package!.default).toBe(`tools/${TARBALL}`);
  });

  it('on clean values every step passes, the SARIF upload gets an empty log, and exit-code is 0', async () => {
    const repo = await valuesRepo(CLEAN);
    const run = await runAction(repo, INPUTS);
    expect(run.steps.map((s) => [s.name, s.code])).toEqual([
      ['Install agentplat', 0],
      ['Lint values', 0],
      ['Verdict', 0],
    ]);
    expect(run.outputs['exit-code']).toBe('0');
    const upload = run.uses['github/codeql-action/upload-sarif@v3']!;
    expect(upload).toEqual({ sarif_file: 'agentplat.sarif', category: 'agentplat-values' });
    const sarif = JSON.parse(readFileSync(join(repo, upload.sarif_file!), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
    expect(sarif.version).toBe('2.1.0');
    expect(sarif.runs[0]!.results).toEqual([]);
    // Node 24, the LTS GitHub's runners moved JavaScript actions to; the sarif-file output names the uploaded log.
    expect(run.uses['actions/setup-node@v4']).toEqual({ 'node-version': '24' });
    expect(run.outputs['sarif-file']).toBe(upload.sarif_file);
  });

  it('on a typo it annotates the line, uploads a SARIF result at file:line:column, then fails', async () => {
    const repo = await valuesRepo(TYPO);
    const run = await runAction(repo, INPUTS);
    expect(run.steps.map((s) => [s.name, s.code])).toEqual([
      ['Install agentplat', 0],
      ['Lint values', 0],
      ['Verdict', 1],
    ]);
    expect(run.outputs['exit-code']).toBe('1');
    expect(run.steps[1]!.stdout).toMatch(/^::error file=envs\/prod\/values\.yaml,line=2,col=3,title=values\/unknown-key::/m);
    const sarif = JSON.parse(readFileSync(join(repo, 'agentplat.sarif'), 'utf8')) as { runs: { results: { ruleId: string; locations: { physicalLocation: unknown }[] }[] }[] };
    expect(sarif.runs[0]!.results.map((r) => [r.ruleId, r.locations[0]!.physicalLocation])).toEqual([
      ['values/unknown-key', { artifactLocation: { uri: 'envs/prod/values.yaml' }, region: { startLine: 2, startColumn: 3 } }],
    ]);
  });

  it('strict: true makes a warning fail the action', async () => {
    const repo = await valuesRepo({ ...CLEAN, 'envs/dev/values.yaml': 'controller:\n  streaming: "on"\n' });
    const lenient = await runAction(repo, INPUTS);
    const strict = await runAction(repo, { ...INPUTS, strict: 'true' });
    expect(lenient.outputs['exit-code']).toBe('0');
    expect(strict.outputs['exit-code']).toBe('1');
  });

  it('a usage error (an unknown revision) fails the lint step itself, before any upload', async () => {
    const repo = await valuesRepo(CLEAN);
    const run = await runAction(repo, { ...INPUTS, revision: 'C' });
    expect(run.steps.map((s) => [s.name, s.code])).toEqual([
      ['Install agentplat', 0],
      ['Lint values', 2],
    ]);
    expect(run.steps[1]!.stderr).toContain('revision');
  });
});
