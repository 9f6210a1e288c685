// The suite's own rule: tests assert behaviour, never time. A wall-clock bound passes on an idle
// machine and fails on a busy one (a CI runner doing other work), so none may exist: no deadline
// in the vitest configuration, no per-test timeout, no clock read in a test file.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';
import { breathe, breathing } from './helpers/breathe.ts';

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

describe('suite hygiene: long loops let the worker answer vitest (its RPC waits a fixed 60 s)', () => {
  it('breathing() turns the event loop before every input of a property, and breathe() once per call', async () => {
    let turns = 0;
    const seen: number[] = [];
    const counting = () => void setImmediate(() => turns++);
    const predicate = breathing((n: number) => {
      seen.push(turns);
      counting();
      return n >= 0;
    });
    counting();
    for (const n of [1, 2, 3]) expect(await predicate(n)).toBe(true);
    expect(seen).toEqual([1, 2, 3]);
    // The last input's turn is still pending: breathe() lets it run.
    await breathe();
    expect(turns).toBe(4);
  });

  it('every property sized by fcParams (the randomized tests that run long) is an async property, so it can yield', () => {
    const sync = FILES.filter((f) => !f.endsWith('_seed.ts')).flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return [...text.matchAll(/fc\.assert\(/g)].flatMap((m) => {
        const call = text.slice(m.index, text.indexOf('fcParams(', m.index) + 1 || m.index);
        const sized = call.length > 1 && !/fc\.assert\(/.test(call.slice(1));
        return sized && /fc\.property\(/.test(call) ? [`${relative(ROOT, file)}:${text.slice(0, m.index).split('\n').length}`] : [];
      });
    });
    expect(sync).toEqual([]);
  });
});
