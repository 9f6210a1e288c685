// One configuration for every command that lints: `.agentplat.yaml` and --rule/--strict give
// `render` and `lint` of one folder the same revision, the same rule levels and the same verdict.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { runInProcess } from './in-process.ts';

function folder(files: Record<string, string>): string {
  const dir = tempDir('agentplat-settings-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

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
    expect(flag.stderr).toContain('1 warning fail the run (--strict)');
    expect(await both(join(cwd, 'strict'), ['-f', 'w.yaml'])).toMatchObject({ lint: 1, render: 1, stdout: '' });
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
