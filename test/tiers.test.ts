// The split of the suite into a fast and a slow tier (test/tiers.ts): an entry that stopped naming
// a file would let a slow test run in `npm test` again, or drop a file from both tiers unnoticed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';
import slowConfig from '../vitest.slow.config.ts';
import { deepFiles, ISOLATED, SLOW_ONLY, testFiles } from './tiers.ts';

/** A glob of SLOW_ONLY (`*` within a folder) as a regular expression. */
const globRe = (pattern: string) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

describe('test tiers', () => {
  it('every slow-only entry names at least one test file, and the fast tier leaves it out', () => {
    const files = testFiles();
    const empty = Object.keys(SLOW_ONLY).filter((pattern) => !files.some((f) => globRe(pattern).test(f)));
    expect(empty).toEqual([]);
    expect(config.test?.exclude).toEqual(expect.arrayContaining(Object.keys(SLOW_ONLY)));
    expect(slowConfig.test?.include).toEqual(expect.arrayContaining(Object.keys(SLOW_ONLY)));
  });

  it('the slow tier runs every randomized suite again at depth: the fuzz and property suites are among them', () => {
    const deep = deepFiles();
    for (const f of ['test/hardening/fuzz-values-files.test.ts', 'test/hardening/fuzz-set-flags.test.ts', 'test/hardening/fuzz-validate.test.ts', 'test/hardening/values-property-a.test.ts', 'test/yaml/read-plain.test.ts']) expect(deep).toContain(f);
    expect(slowConfig.test?.include).toEqual(expect.arrayContaining(deep));
  });

  it('a test file the tiers do not name is in the fast tier: it includes every test file, the cluster suite aside', () => {
    expect(config.test?.include).toContain('test/**/*.test.ts');
    expect((config.test?.exclude ?? []).filter((p) => !(p in SLOW_ONLY))).toEqual(['test/cluster/**', '**/node_modules/**']);
  });

  it('a file that replaces or resets modules runs with a module registry of its own; every other file shares its fork\'s modules', () => {
    // A file of the shared project that mocked a module would get, or leave, the real one: its own
    // mock skipped, or another file's modules mocked.
    const replacing = /\bvi\.(mock|doMock|unmock|doUnmock|resetModules)\(/;
    const fast = testFiles().filter((f) => !Object.keys(SLOW_ONLY).some((p) => globRe(p).test(f)));
    const needs = fast.filter((f) => replacing.test(readFileSync(join(import.meta.dirname, '..', f), 'utf8')));
    expect(needs.length).toBeGreaterThan(0);
    expect(Object.keys(ISOLATED).sort()).toEqual(needs.sort());
    const [shared, isolated] = config.test?.projects as { test: { name: string; include: string[]; exclude: string[]; poolOptions: { forks: { isolate: boolean } } } }[];
    expect([shared!.test.name, shared!.test.poolOptions.forks.isolate]).toEqual(['shared-modules', false]);
    expect(shared!.test.exclude).toEqual(expect.arrayContaining(Object.keys(ISOLATED)));
    expect([isolated!.test.name, isolated!.test.poolOptions.forks.isolate, isolated!.test.include]).toEqual(['isolated', true, Object.keys(ISOLATED)]);
  });
});
