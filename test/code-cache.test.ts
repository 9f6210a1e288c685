// The CLI and the validators run with V8's code cache in the user's cache folder
// (src/code-cache.ts): a run writes the cache of what it compiled, later runs use it, and nothing
// about the cache can change what a run prints or how it ends.
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { cacheFileName, codeCacheDir, CONTENT_HASH_PREFIX, runCachedScript } from '../src/code-cache.ts';
import { requireGenerated } from '../src/package-root.ts';
import { ensureBuilt, ROOT, runBin } from './cli/binary.ts';
import { tempDir } from './helpers/temp-dir.ts';

beforeAll(() => ensureBuilt());

const bundleHash = (bundle: string) => readFileSync(join(ROOT, 'dist', bundle), 'latin1').split('\n', 1)[0]!.slice(CONTENT_HASH_PREFIX.length);
const cacheFiles = (home: string) => readdirSync(join(home, 'agentplat')).filter((f) => f.endsWith('.v8')).sort();
const withCache = (home: string) => ({ env: { XDG_CACHE_HOME: home } });
const VALUES = join(ROOT, 'fixtures', 'render', 'httproute', 'values.yaml');

describe('the code cache', () => {
  it('the first run writes its command\'s cache, named by the bundle\'s content hash, size and time, the Node version and the architecture; the next run uses it as it is and prints the same', () => {
    const home = tempDir('agentplat-cache-');
    const first = runBin(['render', '--skip-crds'], withCache(home));
    expect(first.code).toBe(0);
    const [file, ...rest] = cacheFiles(home);
    expect(rest).toEqual([]);
    // render runs the cut bundle of its run code (src/cli/bundles.ts)
    const st = statSync(join(ROOT, 'dist', 'cli-render.cjs'));
    expect(file).toBe(`cli-render--${bundleHash('cli-render.cjs')}-${st.size}-${Math.trunc(st.mtimeMs)}-${process.version}-${process.arch}.v8`);
    const before = statSync(join(home, 'agentplat', file!));
    const second = runBin(['render', '--skip-crds'], withCache(home));
    expect(second).toEqual(first);
    // Not written again: V8 took it (a refused cache is replaced, see below).
    const after = statSync(join(home, 'agentplat', file!));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
  });

  it('each command keeps its own cache, and lint -f caches the values validator when it runs it (values the schema walker cannot call valid)', () => {
    const home = tempDir('agentplat-cache-');
    expect(runBin(['lint', '-f', VALUES], withCache(home)).code).toBe(0);
    expect(runBin(['--version'], withCache(home)).code).toBe(0);
    expect(cacheFiles(home).map((f) => f.slice(0, f.indexOf('--')))).toEqual(['cli-lint', 'cli-other']);
    expect(runBin(['lint', '-f', join(ROOT, 'fixtures', 'lint', 'unknown-key.yaml')], withCache(home)).code).toBe(1);
    expect(cacheFiles(home).map((f) => f.slice(0, f.indexOf('--')))).toEqual(['cli-lint', 'cli-other', 'values-validator-b.cjs']);
  });

  it('a cache V8 refuses (not V8\'s data, under the right name) changes nothing the run prints, and is replaced by a good one', () => {
    const home = tempDir('agentplat-cache-');
    const clean = runBin(['lint', '-f', VALUES, '--format', 'json'], withCache(home));
    for (const f of cacheFiles(home)) writeFileSync(join(home, 'agentplat', f), 'not a code cache');
    expect(runBin(['lint', '-f', VALUES, '--format', 'json'], withCache(home))).toEqual(clean);
    for (const f of cacheFiles(home)) expect(readFileSync(join(home, 'agentplat', f), 'latin1'), f).not.toBe('not a code cache');
  });

  it('a cache folder that cannot be written costs only speed: same output, nothing on stderr, same exit code', () => {
    const home = tempDir('agentplat-cache-');
    const reference = runBin(['render', '--skip-crds', '-r', 'A'], withCache(home));
    // XDG_CACHE_HOME names a file: the folder cannot be made.
    const file = join(home, 'a-file');
    writeFileSync(file, '');
    expect(runBin(['render', '--skip-crds', '-r', 'A'], withCache(file))).toEqual(reference);
  });

  it.runIf(process.platform === 'linux')('a cache folder the system refuses to create though its parent exists (under /proc) is given up: the run ends with the same output', () => {
    const home = tempDir('agentplat-cache-');
    const reference = runBin(['render', '--skip-crds', '-r', 'A'], withCache(home));
    // Node's recursive mkdir retries such a folder forever: the run would never exit.
    expect(runBin(['render', '--skip-crds', '-r', 'A'], withCache('/proc/self/agentplat-no-such'))).toEqual(reference);
  });

  it('a run that ends in a usage error writes no cache', () => {
    const home = tempDir('agentplat-cache-');
    expect(runBin(['render', '--no-such-flag'], withCache(home)).code).toBe(2);
    expect(() => cacheFiles(home)).toThrow(/ENOENT/);
  });

  it('a folder keeps the four newest caches of a name (two installed versions used in turn keep theirs), and drops older ones', () => {
    const home = tempDir('agentplat-cache-');
    const dir = join(home, 'agentplat');
    mkdirSync(dir);
    const old = [1, 2, 3, 4, 5].map((i) => `cli-render--${'0'.repeat(31)}${i}-1-1-v0.0.${i}-x64.v8`);
    old.forEach((f, i) => {
      writeFileSync(join(dir, f), 'old');
      utimesSync(join(dir, f), 1_000_000 + i, 1_000_000 + i);
    });
    writeFileSync(join(dir, `cli-lint--${'0'.repeat(32)}-1-1-v0.0.0-x64.v8`), 'other name');
    expect(runBin(['render', '--skip-crds'], withCache(home)).code).toBe(0);
    const left = cacheFiles(home);
    expect(left.filter((f) => old.includes(f))).toEqual(old.slice(2));
    expect(left).toContain(`cli-lint--${'0'.repeat(32)}-1-1-v0.0.0-x64.v8`);
    expect(left.filter((f) => f.startsWith('cli-render--') && !old.includes(f))).toHaveLength(1);
  });
});

describe('in one process', () => {
  it('a generated script runs once, like require: every caller gets the same exports', () => {
    expect(requireGenerated('values-validator-a.cjs')).toBe(requireGenerated('values-validator-a.cjs'));
    expect(requireGenerated('crd-validators-workloads.cjs')).toBe(requireGenerated('crd-validators-workloads.cjs'));
  });

  it('the caches a process will write take one exit listener, however many scripts it runs', () => {
    const home = tempDir('agentplat-cache-');
    const before = process.listenerCount('exit');
    for (const f of ['values-validator-a.cjs', 'values-validator-b.cjs', 'crd-validators-workloads.cjs']) runCachedScript(join(ROOT, 'dist', 'generated', f), f, home);
    expect(process.listenerCount('exit') - before).toBeLessThanOrEqual(1);
  });
});

describe('the cache key', () => {
  const text = `${CONTENT_HASH_PREFIX}0123456789abcdef\n"use strict";`;
  it('changes with the content hash, the size and the modification time', () => {
    const key = cacheFileName('cli-x', text, 10, 5);
    expect(key).toMatch(/^cli-x--0123456789abcdef-10-5-v\d+\.\d+\.\d+-\w+/);
    expect(cacheFileName('cli-x', text.replace('0123', '4567'), 10, 5)).not.toBe(key);
    expect(cacheFileName('cli-x', text, 11, 5)).not.toBe(key);
    expect(cacheFileName('cli-x', text, 10, 6)).not.toBe(key);
  });

  it('a script without the build\'s content hash is not cached', () => {
    expect(cacheFileName('cli-x', '"use strict";', 10, 5)).toBeUndefined();
    expect(cacheFileName('cli-x', `${CONTENT_HASH_PREFIX}not-hex\n`, 10, 5)).toBeUndefined();
  });

  it('the folder is $XDG_CACHE_HOME/agentplat, else the system\'s per-user cache folder', () => {
    expect(codeCacheDir({ XDG_CACHE_HOME: '/x' }, 'linux')).toBe(join('/x', 'agentplat'));
    expect(codeCacheDir({}, 'linux')).toMatch(/[/\\]\.cache[/\\]agentplat$/);
    expect(codeCacheDir({}, 'darwin')).toMatch(/Library[/\\]Caches[/\\]agentplat$/);
    expect(codeCacheDir({ LOCALAPPDATA: 'C:\\L' }, 'win32')).toBe(join('C:\\L', 'agentplat', 'Cache'));
  });
});
