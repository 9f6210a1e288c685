// The suite's own rule: tests assert behaviour, never time. A wall-clock bound passes on an idle
// machine and fails on a busy one (a CI runner doing other work), so none may exist: no deadline
// in the vitest configuration, no per-test timeout, no clock read in a test file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';

const ROOT = join(import.meta.dirname, '..');
// Every test file, the real API server suite (test/cluster, run by `npm run test:cluster`) included:
// it waits for its servers until they answer or exit, never until a clock runs out.
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return /\.(ts|mjs|js)$/.test(e.name) ? [path] : [];
  });
}

const FILES = testFiles(join(ROOT, 'test')).filter((f) => !f.endsWith('suite-hygiene.test.ts'));

/** Each clock read or deadline, as `file:line  text`. */
function findings(pattern: RegExp): string[] {
  return FILES.flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${relative(ROOT, file)}:${i + 1}  ${line.trim()}`] : [])),
  );
}

describe('suite hygiene: tests assert behaviour, never time', () => {
  it('no wall-clock deadline: testTimeout and hookTimeout are 0 (off)', () => {
    expect(config.test?.testTimeout).toBe(0);
    expect(config.test?.hookTimeout).toBe(0);
  });

  it('no per-test or per-hook timeout argument', () => {
    // `it(name, fn, 120_000)` / `}, 120_000);` and `{ timeout: N }` options
    expect(findings(/^\s*\}\s*,\s*[\d_]+\s*\)\s*;?\s*$|\b(it|test|describe|beforeAll|beforeEach|afterAll|afterEach)\b.*(\{\s*timeout\s*:|,\s*[\d_]{3,}\s*\)\s*;?\s*$)/)).toEqual([]);
  });

  it('no clock read in a test (performance.now, Date.now, process.hrtime)', () => {
    expect(findings(/performance\.now\(|Date\.now\(|process\.hrtime|console\.time\(/)).toEqual([]);
  });
});
