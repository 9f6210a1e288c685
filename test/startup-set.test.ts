// What the offline start-up path runs: the libraries of which any function ran in a run of the
// shipped CLI (dist/cli.cjs through bin/agentplat), from V8's coverage of the process. A render or
// a lint of a values file must not run the completion library, ajv's compiler, the CEL evaluator
// or the Kubernetes client: each is loaded by the command or flag that needs it, and a change
// that imports one of them where the start-up path reaches it fails here.
import { spawnSync } from 'node:child_process';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMONJS_HEAD } from '../src/code-cache.ts';
import { ensureBuilt, ROOT, runBin } from './cli/binary.ts';
import { scriptsRun } from './helpers/scripts-run.ts';
import { tempDir } from './helpers/temp-dir.ts';

beforeAll(() => ensureBuilt());

/** The packages (node_modules/<name>) of which at least one function ran in `agentplat …args`. */
function librariesRun(args: readonly string[], env: Record<string, string> = {}, session?: { stdin: string }): string[] {
  const r = scriptsRun(args, { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-'), ...env }, ...(session ? { stdin: session.stdin } : {}) });
  expect(r.stderr).toBe('');
  // A session on standard input ends with it: the protocol library exits 1 when the input ends
  // before it has handled the shutdown, 0 after; which comes first is not the server's to decide.
  if (session) expect([0, 1]).toContain(r.code);
  else expect(r.code).toBe(0);
  const bundles = r.scripts.filter((s) => s.url.startsWith('file:') && BUNDLE.test(fileURLToPath(s.url)));
  expect(bundles, 'coverage of one CLI bundle (dist/cli*.cjs)').toHaveLength(1);
  // the bundle, and the chunks of libraries it loaded (dist/chunks/*.cjs, built the same way)
  const chunks = r.scripts.filter((s) => s.url.startsWith('file:') && /[\\/]dist[\\/]chunks[\\/][a-z-]+\.cjs$/.test(fileURLToPath(s.url)));
  const ran = new Set<string>();
  for (const script of [...bundles, ...chunks]) {
    // esbuild heads each bundled file with a `// node_modules/<package>/…` comment; a function
    // belongs to the last such head before it (a head of our own sources ends a package's part).
    const text = readFileSync(fileURLToPath(script.url), 'latin1');
    const heads = [...text.matchAll(/^\/\/ (?:(?:\.\.\/)*(?:[^/\n]+\/)*node_modules\/((?:@[^/\n]+\/)?[^/\n]+)\/|src\/)/gm)].map((m) => ({ at: m.index + COMMONJS_HEAD.length, pkg: m[1] }));
    const owner = (offset: number) => {
      let pkg: string | undefined;
      for (const h of heads) {
        if (h.at > offset) break;
        pkg = h.pkg;
      }
      return pkg;
    };
    for (const fn of script.functions) {
      const r0 = fn.ranges[0]!;
      if (r0.count > 0 && r0.startOffset > 0) {
        const pkg = owner(r0.startOffset);
        if (pkg) ran.add(pkg);
      }
    }
  }
  return [...ran].sort();
}

const VALUES = join(ROOT, 'fixtures', 'render', 'httproute', 'values.yaml');
/** The CLI's bundles: the whole one and the cut ones (src/cli/bundles.ts). */
const BUNDLE = /[\\/]dist[\\/]cli(-[a-z]+)?\.cjs$/;
/** The bundle a run of `agentplat …args` ran, by its file name. */
function bundleRun(args: readonly string[]): string[] {
  const r = scriptsRun(args, { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-') } });
  expect(r.code).toBe(0);
  return r.urls.filter((u) => u.startsWith('file:') && BUNDLE.test(fileURLToPath(u))).map((u) => basename(fileURLToPath(u)));
}

describe('the offline start-up path runs only its own libraries', () => {
  it.each([
    // chalk only when colors are on: output to a pipe or a file has none (src/plain-style.ts)
    { name: 'render --skip-crds', args: ['render', '--skip-crds'], libraries: ['commander', 'yaml'] },
    { name: 'render', args: ['render'], libraries: ['commander', 'yaml'] },
    { name: 'lint -f values.yaml', args: ['lint', '-f', VALUES], libraries: ['commander', 'yaml'] },
    { name: '--version', args: ['--version'], libraries: ['commander'] },
  ])('$name', ({ args, libraries }) => {
    expect(librariesRun(args)).toEqual(libraries);
  });

  it('colored output loads chalk: lint -f values.yaml under FORCE_COLOR', () => {
    expect(librariesRun(['lint', '-f', VALUES], { FORCE_COLOR: '1' })).toEqual(['chalk', 'commander', 'yaml']);
  });

  it('the language server\'s library (its chunk, dist/chunks/lsp.cjs) loads only in `agentplat lsp`: its help does not load it, a session (shutdown, exit) does', () => {
    const LSP_CHUNK = /\/dist\/chunks\/lsp\.cjs$/;
    const help = scriptsRun(['lsp', '--help'], { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-') } });
    expect(help.code).toBe(0);
    expect(help.urls.some((u) => u.endsWith('/dist/cli-render.cjs') || u.endsWith('/dist/cli.cjs'))).toBe(true);
    expect(help.urls.filter((u) => LSP_CHUNK.test(u))).toEqual([]);
    expect(librariesRun(['lsp', '--help'])).toEqual(['commander']);
    const message = (m: object) => {
      const body = JSON.stringify({ jsonrpc: '2.0', ...m });
      return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
    };
    const stdin = message({ id: 1, method: 'shutdown' }) + message({ method: 'exit' });
    const session = scriptsRun(['lsp', '--stdio'], { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-') }, stdin });
    // The protocol library exits 1 when the input ends before it has handled the shutdown, 0 after.
    expect([0, 1]).toContain(session.code);
    expect(session.urls.filter((u) => LSP_CHUNK.test(u))).toHaveLength(1);
    expect(session.stderr).toBe('');
  });

  it('render, template and lint run the cut bundle of their run code (dist/cli-render.cjs); a command line naming no command runs the one of none (dist/cli-core.cjs); any other command the whole CLI', () => {
    expect(bundleRun(['render', '--skip-crds'])).toEqual(['cli-render.cjs']);
    expect(bundleRun(['--no-color', 'template', 'x', '--skip-crds'])).toEqual(['cli-render.cjs']);
    expect(bundleRun(['lint', '-f', VALUES])).toEqual(['cli-render.cjs']);
    expect(bundleRun(['--version'])).toEqual(['cli-core.cjs']);
    expect(bundleRun(['--help'])).toEqual(['cli-core.cjs']);
    expect(bundleRun(['crds', '-r', 'B'])).toEqual(['cli.cjs']);
    expect(bundleRun(['version'])).toEqual(['cli.cjs']);
  });

  it('the bundle of no command holds no command\'s run code, and the render bundle none of the commands it is not for (nor ajv or the CEL evaluator)', () => {
    const core = readFileSync(join(ROOT, 'dist', 'cli-core.cjs'), 'latin1');
    const render = readFileSync(join(ROOT, 'dist', 'cli-render.cjs'), 'latin1');
    const runFiles = (text: string) => [...text.matchAll(/^\/\/ src\/cli\/commands\/([a-z-]+-run)\.ts$/gm)].map((m) => m[1]).sort();
    expect(runFiles(core)).toEqual([]);
    expect(runFiles(render)).toEqual(['lint-run', 'render-run']);
    for (const text of [core, render]) expect(text).not.toMatch(/^\/\/ (?:[^\n]*\/)?node_modules\/(?:ajv|@marcbachmann\/cel-js)\//m);
  });

  it('ajv\'s compiler and the CEL evaluator (their chunk, dist/chunks/kube-check.cjs) load only where custom resources are checked: validate loads them, render and lint of the chart\'s values do not', () => {
    const CHUNK = /\/dist\/chunks\/kube-check\.cjs$/;
    for (const args of [['render', '--skip-crds'], ['render'], ['lint', '-f', VALUES]]) {
      const r = scriptsRun(args, { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-') } });
      expect(r.code).toBe(0);
      expect(r.urls.filter((u) => CHUNK.test(u))).toEqual([]);
    }
    const v = scriptsRun(['validate', join(ROOT, 'fixtures', 'resources')], { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-') } });
    expect(v.urls.filter((u) => CHUNK.test(u))).toHaveLength(1);
  });

  it('the check sees a library that runs: validate runs ajv\'s runtime and the CEL evaluator', () => {
    const ran = librariesRun(['validate', join(ROOT, 'fixtures', 'resources')]);
    expect(ran).toContain('commander');
    expect(ran.some((p) => p === 'ajv' || p === '@marcbachmann/cel-js')).toBe(true);
  });
});

describe('what a run does not read: data a command does not need stays on disk', () => {
  // A copy of the package without the files a clean lint -f or a render without CRDs must not
  // read; each run must still print what the whole package prints.
  const NOT_READ = ['crds-texts.yaml', 'crds-objects.json', 'defaults-positions.json', 'values-validator-a.cjs', 'values-validator-b.cjs'];
  let trimmed = '';
  beforeAll(() => {
    trimmed = tempDir('agentplat-trimmed-');
    for (const part of ['bin', 'dist', 'templates', 'values', 'schemas', 'package.json']) cpSync(join(ROOT, part), join(trimmed, part), { recursive: true });
    for (const f of NOT_READ) rmSync(join(trimmed, 'dist', 'generated', f));
  });
  const inTrimmed = (args: string[]) => spawnSync(process.execPath, [join(trimmed, 'bin', 'agentplat'), ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: tempDir('agentplat-cache-') } });

  it.each([
    { name: 'lint -f of clean values (no CRD text or object, no key position, no ajv validator)', args: ['lint', '-f', VALUES] },
    { name: 'lint -r A of the defaults', args: ['lint', '-r', 'A'] },
    { name: 'render --skip-crds -f values', args: ['render', '--skip-crds', '-f', VALUES] },
    // explain lints and renders its examples without the CRDs: neither their texts nor ajv's validators
    { name: 'explain of a key (its rules, its example rendered)', args: ['explain', 'authproxy.config.emailDomains', '-r', 'B'] },
    { name: 'explain -f values of a key', args: ['explain', 'ui.httpRoute.hostnames', '-r', 'B', '-f', VALUES] },
  ])('$name', ({ args }) => {
    const whole = runBin(args);
    const r = inTrimmed(args);
    expect([r.status, r.stderr, r.stdout]).toEqual([whole.code, whole.stderr, whole.stdout]);
  });

  it('lint and render do not read what each lint check reads (explain\'s data); explain does', () => {
    rmSync(join(trimmed, 'dist', 'generated', 'rule-reads.json'));
    for (const args of [['lint', '-f', VALUES], ['render', '--skip-crds', '-f', VALUES]]) {
      const whole = runBin(args);
      const r = inTrimmed(args);
      expect([r.status, r.stderr, r.stdout]).toEqual([whole.code, whole.stderr, whole.stdout]);
    }
    const explain = inTrimmed(['explain', 'controller.replicas', '-r', 'B']);
    expect(explain.status).not.toBe(0);
    expect(explain.stderr).toContain('rule-reads.json');
  });

  it('the check sees a read: render prints the CRDs, whose texts the copy lacks', () => {
    const r = inTrimmed(['render']);
    expect(r.status).toBe(3);
    expect(r.stderr).toContain('crds-texts.yaml');
  });
});
