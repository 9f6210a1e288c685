// One configuration for every command that lints: `.agentplat.yaml` and --rule/--strict give
// `render` and `lint` of one folder the same revision, the same rule levels and the same verdict.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryIo } from '../../src/cli/io.ts';
import { createProgram, run } from '../../src/cli/program.ts';
import { tempFiles } from '../helpers/temp-dir.ts';
import { runInProcess } from './in-process.ts';

const folder = (files: Record<string, string>) => tempFiles('agentplat-settings-', files);

const A_ONLY = 'controller:\n  toolRefreshInterval: 30s\n';
const WARN = 'controller:\n  streaming: "on"\n';

/** lint and render of the same folder and flags; both exit codes, and what render printed. */
async function both(cwd: string, flags: string[]) {
  const lint = await runInProcess(['lint', ...flags], { cwd });
  const render = await runInProcess(['render', '--skip-crds', ...flags], { cwd });
  return { lint: lint.code, render: render.code, stdout: render.stdout, stderr: `${lint.stderr}${render.stderr}` };
}

describe('render and lint read the same settings and decide alike', () => {
  it('revision from .agentplat.yaml: both check revision A, and render prints chart 0.10.0', async () => {
    const cwd = folder({ '.agentplat.yaml': 'revision: A\n', 'v.yaml': A_ONLY });
    const r = await both(cwd, ['-f', 'v.yaml']);
    expect(r).toMatchObject({ lint: 0, render: 0 });
    expect(r.stdout).toContain('helm.sh/chart: agentplat-0.10.0');
    expect(r.stdout).not.toContain('agentplat-0.11.0');
  });

  it('a rule raised to error in .agentplat.yaml fails both, and render prints nothing', async () => {
    const cwd = folder({ '.agentplat.yaml': 'rules:\n  values/streaming-deprecated: error\n', 'v.yaml': WARN });
    const r = await both(cwd, ['-f', 'v.yaml']);
    expect(r).toMatchObject({ lint: 1, render: 1, stdout: '' });
  });

  it('a rule turned off in .agentplat.yaml lets both pass', async () => {
    const cwd = folder({ '.agentplat.yaml': 'rules:\n  values/unknown-key: off\n', 'v.yaml': A_ONLY });
    const r = await both(cwd, ['-f', 'v.yaml']);
    expect(r).toMatchObject({ lint: 0, render: 0 });
    expect(r.stdout).toContain('kind: Deployment');
  });

  it('--rule on the command line: off passes both, error fails both', async () => {
    const cwd = folder({ 'a.yaml': A_ONLY, 'w.yaml': WARN });
    expect(await both(cwd, ['-f', 'a.yaml', '--rule', 'values/unknown-key=off'])).toMatchObject({ lint: 0, render: 0 });
    expect(await both(cwd, ['-f', 'w.yaml', '--rule', 'values/streaming-deprecated=error'])).toMatchObject({ lint: 1, render: 1, stdout: '' });
  });

  it('strict (flag or file) makes a warning fail both, and render prints nothing', async () => {
    const cwd = folder({ 'w.yaml': WARN, 'strict/.agentplat.yaml': 'strict: true\n', 'strict/w.yaml': WARN });
    expect(await both(cwd, ['-f', 'w.yaml'])).toMatchObject({ lint: 0, render: 0 });
    const flag = await both(cwd, ['-f', 'w.yaml', '--strict']);
    expect(flag).toMatchObject({ lint: 1, render: 1, stdout: '' });
    expect(flag.stderr).toContain('agentplat: 1 warning fails the run (--strict)\n');
    expect(await both(join(cwd, 'strict'), ['-f', 'w.yaml'])).toMatchObject({ lint: 1, render: 1, stdout: '' });
  });

  it('the verdict line agrees with its count: 1 warning fails / exceeds, 2 warnings fail / exceed', async () => {
    const cwd = folder({ 'w.yaml': WARN, 'w2.yaml': WARN });
    const lintErr = async (args: string[]) => (await runInProcess(['lint', ...args], { cwd })).stderr;
    expect(await lintErr(['w.yaml', '--max-warnings', '0'])).toBe('agentplat: 1 warning exceeds the limit of 0 (--max-warnings)\n');
    expect(await lintErr(['w.yaml', 'w2.yaml', '--strict'])).toBe('agentplat: 2 warnings fail the run (--strict)\n');
    expect(await lintErr(['w.yaml', 'w2.yaml', '--max-warnings', '1'])).toBe('agentplat: 2 warnings exceed the limit of 1 (--max-warnings)\n');
  });

  it('a malformed .agentplat.yaml is a usage error (exit 2) for both, naming file:line:col', async () => {
    const cwd = folder({ '.agentplat.yaml': 'strict: [\n', 'w.yaml': WARN });
    const r = await both(cwd, ['-f', 'w.yaml']);
    expect(r).toMatchObject({ lint: 2, render: 2, stdout: '' });
    expect(r.stderr).toMatch(/\.agentplat\.yaml:\d+:\d+: invalid YAML/);
  });
});

describe('an unknown rule id is a usage error', () => {
  it('--rule with a misspelt id exits 2 for lint and render, with the near miss', async () => {
    const cwd = folder({ 'w.yaml': WARN });
    const r = await both(cwd, ['-f', 'w.yaml', '--rule', 'values/streaming-deprecatd=off']);
    expect(r).toMatchObject({ lint: 2, render: 2, stdout: '' });
    expect(r.stderr).toContain('no rule has the id `values/streaming-deprecatd`');
    expect(r.stderr).toContain('hint: did you mean `values/streaming-deprecated`?');
    expect((await both(cwd, ['--rule', 'values/nope=off'])).lint).toBe(2);
  });

  it('an unknown id in .agentplat.yaml exits 2 and names the file, line and column', async () => {
    const cwd = folder({ '.agentplat.yaml': 'rules:\n  values/unknown-kye: off\n' });
    const r = await both(cwd, []);
    expect(r).toMatchObject({ lint: 2, render: 2, stdout: '' });
    expect(r.stderr).toContain('.agentplat.yaml:2:3: no rule has the id `values/unknown-kye`');
    expect(r.stderr).toContain('hint: did you mean `values/unknown-key`?');
  });
});

describe('migrate lints its result with the same settings', () => {
  it('a rule turned off in .agentplat.yaml leaves no decision; a malformed file is a usage error', async () => {
    const file = { 'a.yaml': 'controller:\n  bogus: 1\n' };
    expect((await runInProcess(['migrate', '-f', 'a.yaml'], { cwd: folder(file) })).code).toBe(1);
    expect((await runInProcess(['migrate', '-f', 'a.yaml'], { cwd: folder({ ...file, '.agentplat.yaml': 'rules:\n  values/unknown-key: off\n' }) })).code).toBe(0);
    const bad = await runInProcess(['migrate', '-f', 'a.yaml'], { cwd: folder({ ...file, '.agentplat.yaml': 'rules: [\n' }) });
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
  });
});

describe('every command that prints for one revision takes it from .agentplat.yaml, as lint and render do', () => {
  it('values, schema, docs and crds in a folder with revision: A print what -r A prints', async () => {
    const cwd = folder({ '.agentplat.yaml': 'revision: A\n' });
    for (const command of ['values', 'schema', 'docs', 'crds']) {
      const fromFile = await runInProcess([command], { cwd });
      const fromFlag = await runInProcess([command, '-r', 'A'], { cwd });
      expect(fromFile.code, command).toBe(0);
      expect(fromFile.stdout, command).toBe(fromFlag.stdout);
    }
    expect((await runInProcess(['values'], { cwd })).stdout).not.toBe((await runInProcess(['values', '-r', 'B'], { cwd })).stdout);
    expect((await runInProcess(['schema'], { cwd })).stdout).not.toBe((await runInProcess(['schema', '-r', 'B'], { cwd })).stdout);
  });

  /** Commands whose --revision means something else, so that the file's revision does not apply. */
  const OWN_MEANING: Record<string, string> = {
    migrate: '--revision is the revision to migrate to; the file names the one the folder is on',
    explain: 'without --revision it answers for both revisions',
    version: 'without --revision it reports every revision',
  };

  it('every other command with --revision reads revision: from the file (a wrong one is refused, naming the file)', async () => {
    const cwd = folder({ '.agentplat.yaml': 'revision: C\n' });
    const program = createProgram({ io: createMemoryIo(), exitCode: 0 });
    const commands = program.commands.filter((c) => c.options.some((o) => o.long === '--revision') && !(c.name() in OWN_MEANING)).map((c) => c.name());
    expect(commands).toEqual(expect.arrayContaining(['render', 'template', 'lint', 'diff', 'plan', 'values', 'schema', 'docs', 'crds']));
    for (const command of commands) {
      // validate reads the revision only for a cluster (--cluster); it decides it before connecting.
      const r = await runInProcess(command === 'validate' ? [command, '--cluster'] : [command], { cwd });
      expect(r.code, command).toBe(2);
      expect(r.stdout, command).toBe('');
      expect(r.stderr, command).toContain('.agentplat.yaml');
    }
  });
});

describe('a misspelt setting of .agentplat.yaml', () => {
  it.each([
    ['ignorekeys', 'ignoreKeys'],
    ['ignoreKey', 'ignoreKeys'],
    ['maxWarning', 'maxWarnings'],
    ['rule', 'rules'],
    ['revison', 'revision'],
  ])('`%s` is refused with did you mean `%s`', async (typo, meant) => {
    const cwd = folder({ '.agentplat.yaml': `strict: true\n${typo}: x\n` });
    const r = await runInProcess(['lint'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`.agentplat.yaml:2:1: unknown setting \`${typo}\``);
    expect(r.stderr).toContain(`hint: did you mean \`${meant}\`? (the settings are rules, maxWarnings, strict, revision, format, ignoreKeys, editor)`);
  });

  it('a word near no setting lists the settings alone', async () => {
    const r = await runInProcess(['lint'], { cwd: folder({ '.agentplat.yaml': 'colour: red\n' }) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('hint: settings: rules, maxWarnings, strict, revision, format, ignoreKeys');
    expect(r.stderr).not.toContain('did you mean');
  });
});
