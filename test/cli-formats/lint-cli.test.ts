import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { expandGlob } from '../../src/glob.ts';
import { expandTargets } from '../../src/lint/targets.ts';
import { runInProcess } from '../cli/in-process.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A temp working directory holding `files` (path → text). */
function workdir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-lint-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const CLEAN = 'controller:\n  replicas: 2\n';
const TYPO = 'controller:\n  replcas: 2\n';
const WARN = 'controller:\n  streaming: "on"\n';
const A_ONLY = 'controller:\n  toolRefreshInterval: 30s\n';

describe('agentplat lint: revisions and exit codes', () => {
  it('lints against revision B by default and exits 0 when clean', async () => {
    const cwd = workdir({ 'a.yaml': A_ONLY, 'ok.yaml': CLEAN });
    expect((await runInProcess(['lint', '-f', 'ok.yaml'], { cwd })).code).toBe(0);
    const b = await runInProcess(['lint', '-f', 'a.yaml'], { cwd });
    expect(b.code).toBe(1);
    expect(b.stdout).toContain('[values/unknown-key]');
    expect((await runInProcess(['lint', '-f', 'a.yaml', '--revision', 'A'], { cwd })).code).toBe(0);
  });

  it('exits 1 on errors and prints file:line:col with the rule', async () => {
    const cwd = workdir({ 'prod.yaml': TYPO });
    const r = await runInProcess(['lint', '-f', 'prod.yaml'], { cwd });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^prod\.yaml:2:3 {2}error {2}.*replcas.* {2}\[values\/unknown-key\]$/m);
    expect(r.stdout.trimEnd().split('\n').at(-1)).toBe('1 file, 1 error, 0 warnings');
  });

  it.each([
    ['an unknown flag', ['--bogus']],
    ['an unknown revision', ['--revision', 'C']],
    ['an unknown format', ['--format', 'xml']],
    ['an unreadable file', ['-f', 'missing.yaml']],
    ['a glob that matches nothing', ['nothing/*.yaml']],
    ['a bad --max-warnings', ['--max-warnings', 'many']],
    ['a bad --rule', ['--rule', 'values/schema=loud']],
    ['a bad --kube-version', ['--kube-version', 'latest']],
  ])('exits 2 on %s', async (_name, args) => {
    const cwd = workdir({ 'ok.yaml': CLEAN });
    const r = await runInProcess(['lint', ...args], { cwd });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });

  it('names the valid formats when the format is unknown', async () => {
    const r = await runInProcess(['lint', '--format', 'xml'], { cwd: workdir({}) });
    expect(r.stderr).toContain('valid formats: text, json, sarif, github, junit');
  });

  it('accepts --kube-version 1.27 (coerced to 1.27.0) and v1.29.3', async () => {
    const cwd = workdir({ 'ok.yaml': CLEAN });
    expect((await runInProcess(['lint', '-f', 'ok.yaml', '--kube-version', '1.27'], { cwd })).code).toBe(0);
    expect((await runInProcess(['lint', '-f', 'ok.yaml', '--kube-version', 'v1.29.3'], { cwd })).code).toBe(0);
  });
});

describe('agentplat lint: warnings, --strict, --max-warnings, --quiet', () => {
  it('exits 0 on warnings alone, 1 with --strict', async () => {
    const cwd = workdir({ 'w.yaml': WARN });
    const plain = await runInProcess(['lint', '-f', 'w.yaml'], { cwd });
    expect(plain.code).toBe(0);
    expect(plain.stdout).toContain('[values/streaming-deprecated]');
    expect((await runInProcess(['lint', '-f', 'w.yaml', '--strict'], { cwd })).code).toBe(1);
  });

  it('exits 1 when warnings exceed --max-warnings, 0 at the limit', async () => {
    const cwd = workdir({ 'w.yaml': WARN });
    expect((await runInProcess(['lint', '-f', 'w.yaml', '--max-warnings', '1'], { cwd })).code).toBe(0);
    const over = await runInProcess(['lint', '-f', 'w.yaml', '--max-warnings', '0'], { cwd });
    expect(over.code).toBe(1);
    expect(over.stderr).toContain('1 warning exceeds the limit of 0');
  });

  it('--quiet prints errors only', async () => {
    const cwd = workdir({ 'w.yaml': WARN, 'e.yaml': TYPO });
    const r = await runInProcess(['lint', 'w.yaml', 'e.yaml', '--quiet'], { cwd });
    expect(r.stdout).not.toContain('streaming');
    expect(r.stdout).toContain('replcas');
    expect(r.code).toBe(1);
  });
});

describe('agentplat lint: rule settings and .agentplat.yaml', () => {
  it('--rule ID=off drops a rule and ID=warn downgrades it', async () => {
    const cwd = workdir({ 'e.yaml': TYPO });
    expect((await runInProcess(['lint', '-f', 'e.yaml', '--rule', 'values/unknown-key=off'], { cwd })).code).toBe(0);
    const warned = await runInProcess(['lint', '-f', 'e.yaml', '--rule', 'values/unknown-key=warn'], { cwd });
    expect(warned.code).toBe(0);
    expect(warned.stdout).toContain('warning');
  });

  it('reads settings from .agentplat.yaml in a parent directory; flags win over it', async () => {
    const cwd = workdir({
      '.agentplat.yaml': 'rules:\n  values/streaming-deprecated: error\nformat: json\n',
      'sub/w.yaml': WARN,
    });
    const sub = join(cwd, 'sub');
    const fromFile = await runInProcess(['lint', '-f', 'w.yaml'], { cwd: sub });
    expect(fromFile.code).toBe(1);
    expect(JSON.parse(fromFile.stdout).summary.errors).toBe(1);
    const flagWins = await runInProcess(['lint', '-f', 'w.yaml', '--rule', 'values/streaming-deprecated=warn', '--format', 'text'], { cwd: sub });
    expect(flagWins.code).toBe(0);
    expect(flagWins.stdout).toContain('1 file, 0 errors, 1 warning');
  });

  it('takes revision, strict and maxWarnings from the config file', async () => {
    const cwd = workdir({ '.agentplat.yaml': 'revision: A\nstrict: true\n', 'a.yaml': A_ONLY, 'w.yaml': WARN });
    expect((await runInProcess(['lint', '-f', 'a.yaml'], { cwd })).code).toBe(0);
    expect((await runInProcess(['lint', '-f', 'w.yaml'], { cwd })).code).toBe(1);
    expect((await runInProcess(['lint', '-f', 'a.yaml', '--revision', 'B'], { cwd })).code).toBe(1);
  });

  it('rejects an invalid config file as a usage error naming file:line:col', async () => {
    const cwd = workdir({ '.agentplat.yaml': 'strict: true\nmaxWarnings: -1\n', 'ok.yaml': CLEAN });
    const r = await runInProcess(['lint', '-f', 'ok.yaml'], { cwd });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('.agentplat.yaml:2:14: `maxWarnings` must be a whole number');
    const unknown = await runInProcess(['lint', ], { cwd: workdir({ '.agentplat.yaml': 'rulez: {}\n' }) });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('.agentplat.yaml:1:1: unknown setting `rulez`');
  });

  it('refuses a setting that names no known rule (exit 2, with the near miss)', async () => {
    const r = await runInProcess(['lint', '-f', 'ok.yaml', '--rule', 'values/unknown-kye=off'], { cwd: workdir({ 'ok.yaml': CLEAN }) });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no rule has the id `values/unknown-kye`');
    expect(r.stderr).toContain('hint: did you mean `values/unknown-key`?');
  });
});

describe('agentplat lint: many files in one process', () => {
  it('lints each positional file on its own over the same -f base', async () => {
    const cwd = workdir({
      'base.yaml': 'controller:\n  replicas: 2\n',
      'envs/dev.yaml': 'ui:\n  replicas: 1\n',
      'envs/prod.yaml': TYPO,
    });
    const r = await runInProcess(['lint', '-f', 'base.yaml', 'envs/*.yaml', '--format', 'json'], { cwd });
    const doc = JSON.parse(r.stdout);
    expect(doc.revision).toBe('B');
    expect(doc.files.map((f: { file: string }) => f.file)).toEqual(['envs/dev.yaml', 'envs/prod.yaml']);
    // dev.yaml's ui.replicas: 1 is the chart's default: a note (values/same-as-default).
    expect(doc.summary).toEqual({ files: 2, errors: 1, warnings: 0, infos: 1 });
    expect(r.code).toBe(1);
  });

  it('reports a problem in a shared -f layer once, not once per file', async () => {
    const cwd = workdir({ 'base.yaml': TYPO, 'a.yaml': CLEAN, 'b.yaml': CLEAN });
    const doc = JSON.parse((await runInProcess(['lint', '-f', 'base.yaml', 'a.yaml', 'b.yaml', '--format', 'json'], { cwd })).stdout);
    expect(doc.summary.errors).toBe(1);
    expect(doc.files.find((f: { file: string }) => f.file === 'base.yaml').errors).toBe(1);
  });

  it('prints one summary and the right exit code for 200 files', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++) files[`envs/team-${String(i).padStart(3, '0')}/values.yaml`] = i % 50 === 7 ? TYPO : i % 40 === 3 ? WARN : CLEAN;
    const cwd = workdir(files);
    const r = await runInProcess(['lint', 'envs/**/values.yaml'], { cwd });
    const summaries = r.stdout.split('\n').filter((l) => /^\d+ files?, /.test(l));
    expect(summaries).toEqual(['200 files, 4 errors, 5 warnings']);
    expect(r.code).toBe(1);
    const clean = await runInProcess(['lint', 'envs/team-00?/values.yaml', '--rule', 'values/unknown-key=off', '--format', 'json'], { cwd });
    // With values/unknown-key off, the misspelt key renders nothing: values/no-effect says so.
    expect(JSON.parse(clean.stdout).summary).toEqual({ files: 10, errors: 0, warnings: 2, infos: 0 });
    expect(clean.code).toBe(0);
  });
});

describe('agentplat lint: color', () => {
  it('colors text only when asked, and never with NO_COLOR or --no-color', async () => {
    const cwd = workdir({ 'e.yaml': TYPO });
    const ESC = '\u001b[';
    expect((await runInProcess(['lint', '-f', 'e.yaml'], { cwd, env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await runInProcess(['lint', '-f', 'e.yaml'], { cwd, env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await runInProcess(['lint', '-f', 'e.yaml', '--no-color'], { cwd, env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    expect((await runInProcess(['lint', '-f', 'e.yaml', '--format', 'sarif'], { cwd, env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
  });
});

describe('glob expansion', () => {
  it('matches * and ? within a segment, ** across segments, skipping dotfiles, sorted', () => {
    const cwd = workdir({ 'a/x.yaml': '', 'a/b/y.yaml': '', 'a/b/c/z.yaml': '', 'a/.hidden.yaml': '', 'a/x1.yml': '', 'a/x.yaml.bak': '' });
    expect(expandGlob('a/*.yaml', cwd)).toEqual(['a/x.yaml']);
    expect(expandGlob('a/x?.yml', cwd)).toEqual(['a/x1.yml']);
    expect(expandGlob('a/**/*.yaml', cwd)).toEqual(['a/b/c/z.yaml', 'a/b/y.yaml', 'a/x.yaml']);
    expect(expandGlob('**/z.yaml', cwd)).toEqual(['a/b/c/z.yaml']);
  });

  it('one pattern language for lint and validate: lint expands its patterns with the function validate uses', async () => {
    const cwd = workdir({ 'envs/a1.yaml': CLEAN, 'envs/a2.yaml': CLEAN, 'envs/a3.yaml': CLEAN });
    const validateGlob = await import('../../src/glob.ts');
    expect(expandTargets(['envs/a[12]*.yaml'], cwd)).toEqual(validateGlob.expandGlob('envs/a[12]*.yaml', cwd));
    expect(expandTargets(['envs/a[12]*.yaml'], cwd)).toEqual(['envs/a1.yaml', 'envs/a2.yaml']);
  });

  it('** does not follow a link to a folder, so a link back to a parent ends', () => {
    const cwd = workdir({ 'a/x.yaml': '' });
    symlinkSync(cwd, join(cwd, 'a', 'loop'));
    expect(expandGlob('**/*.yaml', cwd)).toEqual(['a/x.yaml']);
  });
});

describe('agentplat lint: notes about defaults the user did not touch', () => {
  const FORMATS = ['text', 'json', 'sarif', 'github', 'junit'];

  it.each(FORMATS)('--format %s: no bundled-database note by default, on a file that does not touch the database', async (format) => {
    const r = await runInProcess(['lint', '-f', 'ok.yaml', '--format', format], { cwd: workdir({ 'ok.yaml': CLEAN }) });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('bundled-database');
    expect(r.stdout).not.toContain('<agentplat values');
    expect(r.stdout).not.toContain('::notice');
  });

  it.each(FORMATS)('--format %s: --verbose or a level set for the rule shows it', async (format) => {
    const cwd = workdir({ 'ok.yaml': CLEAN });
    expect((await runInProcess(['lint', '-f', 'ok.yaml', '--format', format, '--verbose'], { cwd })).stdout).toContain('values/bundled-database');
    expect((await runInProcess(['lint', '-f', 'ok.yaml', '--format', format, '--rule', 'values/bundled-database=info'], { cwd })).stdout).toContain('values/bundled-database');
  });

  it('a user who wrote the database settings sees the note in their own file', async () => {
    const r = await runInProcess(['lint', '-f', 'db.yaml'], { cwd: workdir({ 'db.yaml': 'database:\n  rdb:\n    bundled:\n      enabled: true\n' }) });
    expect(r.stdout).toMatch(/^db\.yaml:4:7 {2}info .*\[values\/bundled-database\]$/m);
  });
});

describe('agentplat lint: problems without a source file of the user', () => {
  it('JSON groups them under file: null, lists no pseudo-file, and its counts agree', async () => {
    const r = await runInProcess(['lint', '-f', 'ok.yaml', '--format', 'json', '--verbose'], { cwd: workdir({ 'ok.yaml': CLEAN }) });
    const doc = JSON.parse(r.stdout) as { files: { file: string | null; errors: number; warnings: number; infos: number; problems: { rule: string; line?: number }[] }[]; summary: Record<string, number> };
    expect(doc.files.map((f) => f.file)).toEqual([null, 'ok.yaml']);
    expect(doc.files[0]!.problems.map((p) => p.rule)).toEqual(['values/bundled-database', 'security/tools-cluster-admin']);
    expect(doc.summary.files).toBe(1);
    for (const k of ['errors', 'warnings', 'infos'] as const) expect(doc.summary[k]).toBe(doc.files.reduce((n, f) => n + f[k], 0));
  });

  it('SARIF gives it no location, GitHub no file, JUnit no suite named after a pseudo-file', async () => {
    const cwd = workdir({ 'ok.yaml': CLEAN });
    const sarif = JSON.parse((await runInProcess(['lint', '-f', 'ok.yaml', '--format', 'sarif', '--verbose'], { cwd })).stdout);
    const results = sarif.runs[0].results as { ruleId: string; locations?: unknown[] }[];
    expect(results.map((x) => x.ruleId)).toEqual(['values/bundled-database', 'security/tools-cluster-admin']);
    for (const x of results) expect(x.locations ?? []).toEqual([]);
    const github = (await runInProcess(['lint', '-f', 'ok.yaml', '--format', 'github', '--verbose'], { cwd })).stdout;
    expect(github).toMatch(/^::notice title=values\/bundled-database::/m);
    expect(github).not.toContain('file=');
    const junit = (await runInProcess(['lint', '-f', 'ok.yaml', '--format', 'junit', '--verbose'], { cwd })).stdout;
    expect(junit).not.toMatch(/<testsuite name="&lt;agentplat values/);
  });
});

describe('agentplat lint: a binary values file', () => {
  it.each([
    ['not UTF-8', Buffer.from([0x61, 0x3a, 0x20, 0xff, 0xfe, 0x0a])],
    ['a NUL byte', Buffer.from('a: \u0000\u0001\n')],
  ])('%s: a usage error (exit 2) for lint, render and migrate, naming line and column; no lint rule', async (_name, bytes) => {
    const cwd = workdir({});
    writeFileSync(join(cwd, 'bin.yaml'), bytes);
    for (const args of [['lint', '-f', 'bin.yaml'], ['lint', 'bin.yaml'], ['render', '-f', 'bin.yaml'], ['migrate', '-f', 'bin.yaml']]) {
      const io = await runInProcess(args, { cwd });
      expect(io.code, args.join(' ')).toBe(2);
      expect(io.stdout, args.join(' ')).toBe('');
      expect(io.stderr, args.join(' ')).toMatch(/^agentplat: bin\.yaml:1:4: .*, not a values file$/m);
    }
    expect((await import('../../src/lint/config.ts')).ruleCatalog().has('values/not-text')).toBe(false);
  });
});
