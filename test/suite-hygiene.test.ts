// The suite's own rule: tests assert behaviour, never time. A wall-clock bound passes on an idle
// machine and fails on a busy one (a CI runner doing other work), so none may exist: no deadline
// in the vitest configurations (here); no per-test timeout, no clock read in a test file and no
// long synchronous property are ESLint rules (eslint/plugin.mjs, run by `npm run lint`).
import { describe, expect, it } from 'vitest';
import config from '../vitest.config.ts';
import slowConfig from '../vitest.slow.config.ts';
import { breathe, breathing } from './helpers/breathe.ts';

describe('suite hygiene: tests assert behaviour, never time', () => {
  it('no wall-clock deadline: testTimeout and hookTimeout are 0 (off) in the fast and the slow tier', () => {
    for (const c of [config, slowConfig]) {
      expect(c.test?.testTimeout).toBe(0);
      expect(c.test?.hookTimeout).toBe(0);
    }
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
});
