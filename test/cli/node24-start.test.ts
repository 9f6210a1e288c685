// The npm package on Node 24, where V8's mid-tier compiler (Maglev) is on by default: the
// launcher turns it off for a command, and TurboFan too for a render (src/cli/v8-tiers.ts),
// before the CLI's code is compiled, so no function of the CLI is compiled by either, and the
// code cache a run writes under that setting is the one the next run takes.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleFor, commandWord } from '../../src/cli/bundles.ts';
import { v8FlagsFor } from '../../src/cli/v8-tiers.ts';
import { node24 } from '../helpers/exe-compare.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { BIN, ensureBuilt, ROOT, runBin } from './binary.ts';

let NODE24 = '';
beforeAll(() => {
  ensureBuilt();
  NODE24 = node24();
});

const VALUES = join(ROOT, 'fixtures', 'render', 'httproute', 'values.yaml');
const run24 = (nodeArgs: readonly string[], args: readonly string[], cache: string) =>
  spawnSync(NODE24, [...nodeArgs, BIN, ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '', XDG_CACHE_HOME: cache } });
/**
 * The functions V8 marked for Maglev (or TurboFan) in a run under --trace-opt (its lines on
 * stdout): marking happens on the main thread as a function gets warm, whether or not the worker
 * thread then compiles it before the process ends.
 */
const compiledBy = (target: 'MAGLEV' | 'TURBOFAN_JS', stdout: string) => [...stdout.matchAll(new RegExp(`^\\[marking \\S+ <JSFunction (\\S*) \\(sfi = \\S+\\)> for optimization to ${target}\\b`, 'gm'))].map((m) => m[1]!);
const maglevCompiled = (stdout: string) => compiledBy('MAGLEV', stdout);
/** The functions the CLI's bundles declare by name. */
const cliFunctions = () => new Set(['cli.cjs', 'cli-render.cjs', 'cli-core.cjs'].flatMap((f) => [...readFileSync(join(ROOT, 'dist', f), 'latin1').matchAll(/\bfunction\*? ([A-Za-z_$][\w$]*)\s*\(/g)].map((m) => m[1]!)));

describe('the package on Node 24', () => {
  it.each([
    { name: 'render --skip-crds', args: ['render', '--skip-crds'] },
    { name: 'lint -f values.yaml', args: ['lint', '-f', VALUES] },
  ])('$name: no function of the CLI is compiled by Maglev; with the user\'s own --maglev, they are', ({ args }) => {
    const ours = cliFunctions();
    const off = run24(['--trace-opt'], args, tempDir('agentplat-cache-'));
    expect(off.status).toBe(0);
    expect(maglevCompiled(off.stdout).filter((f) => ours.has(f))).toEqual([]);
    const on = run24(['--trace-opt', '--maglev'], args, tempDir('agentplat-cache-'));
    expect(on.status).toBe(0);
    expect(maglevCompiled(on.stdout).filter((f) => ours.has(f)).length).toBeGreaterThan(0);
  });

  it('validate of a rendered chart, a command whose work grows with its input, still gives its hottest functions to Maglev (delayed, not turned off)', () => {
    const dir = tempDir('agentplat-validate-');
    const chart = join(dir, 'chart.yaml');
    writeFileSync(chart, runBin(['render', '-r', 'B']).stdout);
    const run = run24(['--trace-opt'], ['validate', chart], tempDir('agentplat-cache-'));
    expect(run.status).toBe(0);
    expect(maglevCompiled(run.stdout).filter((f) => cliFunctions().has(f)).length).toBeGreaterThan(0);
  });

  it('render compiles nothing with TurboFan, not even the path helpers of Node that a render calls thousands of times; with Maglev off by the user\'s own --no-maglev (the launcher then sets nothing), TurboFan takes them', () => {
    const off = run24(['--trace-opt'], ['render', '-f', VALUES], tempDir('agentplat-cache-'));
    expect(off.status).toBe(0);
    expect(compiledBy('TURBOFAN_JS', off.stdout)).toEqual([]);
    const on = run24(['--trace-opt', '--no-maglev'], ['render', '-f', VALUES], tempDir('agentplat-cache-'));
    expect(on.status).toBe(0);
    expect(compiledBy('TURBOFAN_JS', on.stdout).length).toBeGreaterThan(0);
  });

  it('a render grows V8\'s young generation enough after its first scavenge that it collects fewer times than with V8\'s own growth (the user\'s --semi-space-growth-factor=2), and prints the same', () => {
    const scavenges = (stdout: string) => stdout.split('\n').filter((l) => /\bScavenge\b/.test(l)).length;
    const ours = run24(['--trace-gc'], ['render', '-r', 'A', '-f', VALUES], tempDir('agentplat-cache-'));
    const v8s = run24(['--trace-gc', '--semi-space-growth-factor=2'], ['render', '-r', 'A', '-f', VALUES], tempDir('agentplat-cache-'));
    expect([ours.status, v8s.status]).toEqual([0, 0]);
    expect(scavenges(ours.stdout)).toBeGreaterThan(0);
    expect(scavenges(ours.stdout)).toBeLessThan(scavenges(v8s.stdout));
    const text = (stdout: string) => stdout.split('\n').filter((l) => !/^\[\d+:0x[0-9a-f]+\]/.test(l)).join('\n');
    expect(text(ours.stdout)).toBe(text(v8s.stdout));
  });

  it('the code cache a render writes with Maglev off is the one the next render takes (not written again), and both print what Node 20 or 22 prints', () => {
    const cache = tempDir('agentplat-cache-');
    const first = run24([], ['render', '--skip-crds'], cache);
    expect(first.status).toBe(0);
    const dir = join(cache, 'agentplat');
    const files = readdirSync(dir).filter((f) => f.endsWith('.v8'));
    expect(files).toHaveLength(1);
    const before = statSync(join(dir, files[0]!));
    const second = run24([], ['render', '--skip-crds'], cache);
    expect([second.status, second.stderr, second.stdout]).toEqual([first.status, first.stderr, first.stdout]);
    const after = statSync(join(dir, files[0]!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    const here = runBin(['render', '--skip-crds'], { env: { XDG_CACHE_HOME: tempDir('agentplat-cache-') } });
    expect([second.status, second.stderr, second.stdout]).toEqual([here.code, here.stderr, here.stdout]);
  });
  it('render and lint, which set other V8 flags, each keep their own cache of a script both run (the values validator): taking turns, neither replaces the other\'s', () => {
    const cache = tempDir('agentplat-cache-');
    const dir = join(cache, 'agentplat');
    const unknownKey = join(ROOT, 'fixtures', 'lint', 'unknown-key.yaml');
    const turn = () => {
      for (const args of [['lint', '-f', unknownKey], ['render', '-f', unknownKey]]) expect(run24([], args, cache).status, args.join(' ')).toBe(1);
    };
    const state = () => Object.fromEntries(readdirSync(dir).filter((f) => f.endsWith('.v8')).map((f) => [f, statSync(join(dir, f)).mtimeMs]));
    turn();
    const before = state();
    expect(Object.keys(before).filter((f) => f.startsWith('values-validator-'))).toHaveLength(2);
    turn();
    expect(state()).toEqual(before);
  });
});

describe('which runs turn V8\'s compilers off', () => {
  it('Maglev for a command on Node 24 and later, TurboFan too for render and template; nothing for --version, --help, `version`, `help` or `lsp`, on Node 22 or 20, or when the user chose how V8 compiles', () => {
    const word = (line: string) => commandWord(line.split(' ').filter((w) => w !== ''));
    expect(v8FlagsFor(word('render --skip-crds'), '24.21.0', '')).toBe('--no-maglev --no-turbofan --semi-space-growth-factor=8');
    expect(v8FlagsFor(word('--no-color template x'), '25.0.0', '')).toBe('--no-maglev --no-turbofan --semi-space-growth-factor=8');
    expect(v8FlagsFor(word('lint -f v.yaml'), '24.21.0', '')).toBe('--invocation-count-for-maglev=5000');
    expect(v8FlagsFor(word('validate agents/'), '24.0.0', '--max-old-space-size=200')).toBe('--invocation-count-for-maglev=5000');
    for (const line of ['--version', '-V', '--help', 'version', 'help render', 'lsp --stdio']) expect(v8FlagsFor(word(line), '24.21.0', ''), line).toBe('');
    for (const v of ['22.23.3', '20.19.0']) expect(v8FlagsFor(word('render'), v, '')).toBe('');
    for (const o of ['--maglev', '--no-maglev', '--max-old-space-size=200 --maglev-inlining', '--no-turbofan', '--jitless', '--no-opt', '--always-sparkplug']) expect(v8FlagsFor(word('render'), '24.21.0', o), o).toBe('');
    // V8 reads `_` as `-`, and a cap on the top tier or a filter of what TurboFan compiles is a choice too
    for (const o of ['--no_opt', '--always_opt', '--max-opt=2', '--turbo-filter=~', '--no_maglev', '--invocation-count-for-maglev=9']) expect(v8FlagsFor(word('render'), '24.21.0', o), o).toBe('');
    // options that do not choose a compiler, even where a word of them names one
    for (const o of ['--max-semi-space-size=64', '--optimize-for-size', '--stack-size=2000', '--require /srv/maglev-tools/x.js']) expect(v8FlagsFor(word('render'), '24.21.0', o), o).toBe('--no-maglev --no-turbofan --semi-space-growth-factor=8');
    // a user who chose how the young generation grows keeps it; the compilers are still set
    for (const o of ['--semi-space-growth-factor=2', '--semi_space_growth_factor=3']) expect(v8FlagsFor(word('render'), '24.21.0', o), o).toBe('--no-maglev --no-turbofan');
    expect(v8FlagsFor(word('lint -f v.yaml'), '24.21.0', '')).toBe('--invocation-count-for-maglev=5000');
  });
});

describe('which bundle runs a command line', () => {
  it('render, template and lint the cut render bundle, wherever the program\'s flags put the word; a line naming no command the core; `--` before the word (a usage error) or any other command the whole CLI', () => {
    const bundle = (line: string) => bundleFor(line.split(' ').filter((w) => w !== ''));
    expect(bundle('render --skip-crds')).toBe('cli-render');
    expect(bundle('--no-color template x')).toBe('cli-render');
    expect(bundle('lint -f v.yaml')).toBe('cli-render');
    expect(bundle('--version')).toBe('cli-core');
    expect(bundle('')).toBe('cli-core');
    expect(bundle('--help')).toBe('cli-core');
    expect(bundle('-- render')).toBe('cli');
    expect(bundle('--')).toBe('cli');
    expect(bundle('validate agents/')).toBe('cli');
    expect(bundle('cmp generate')).toBe('cli');
    expect(bundle('version')).toBe('cli');
  });

  it('a command line whose command the cut bundle holds prints what the whole CLI (dist/cli.cjs run by node itself) prints', () => {
    for (const args of [['render', '--skip-crds', '-f', VALUES], ['template', 'x', '-f', VALUES], ['lint', '-f', VALUES, '--format', 'json'], ['lint', '-f', join(ROOT, 'fixtures', 'lint', 'unknown-key.yaml')], ['render', '--help'], ['--version'], ['--help']]) {
      const cut = runBin(args);
      const whole = spawnSync(process.execPath, [join(ROOT, 'dist', 'cli.cjs'), ...args], { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, env: { PATH: process.env.PATH ?? '' } });
      expect([cut.code, cut.stderr, cut.stdout], args.join(' ')).toEqual([whole.status, whole.stderr, whole.stdout]);
    }
  });
});
