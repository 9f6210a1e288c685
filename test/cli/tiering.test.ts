// src/cli/tiering.ts: a run from the start-up snapshot asks V8 to wait six times longer before
// optimizing a function, with the flag that V8 version knows; no flag for a version it is not
// known for (an unknown flag makes V8 print an error).
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { tieringFlags } from '../../src/cli/tiering.ts';

/** V8's default of `name` in the running node (`node --v8-options`). */
function v8Default(name: string): number | undefined {
  const out = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
  const m = new RegExp(`default: --${name}=(\\d+)`).exec(out);
  return m ? Number(m[1]) : undefined;
}

describe('tiering: the optimizing compiler waits six times longer in a CLI run', () => {
  it('Node 20 (V8 11.3): the interrupt budget; Node 22 and 24 (V8 12, 13): the invocation count for TurboFan', () => {
    expect(tieringFlags('11.3.244.8-node.33')).toEqual(['--interrupt-budget=405504']);
    expect(tieringFlags('12.4.254.21-node.33')).toEqual(['--invocation-count-for-turbofan=18000']);
    expect(tieringFlags('13.6.233.10-node.28')).toEqual(['--invocation-count-for-turbofan=18000']);
  });

  it('a V8 version the flags are not known for gets none', () => {
    for (const v of ['11.8.172.17-node.15', '10.2.154.26-node.26', '14.1.146.11-node.10', '']) expect(tieringFlags(v)).toEqual([]);
  });

  // On a node whose V8 the table does not know (newer than Node 24) there is nothing to check.
  it.skipIf(tieringFlags(process.versions.v8).length === 0)("the running node's V8 knows the flag, and the value is six times its default", () => {
    for (const flag of tieringFlags(process.versions.v8)) {
      const [, name, value] = /^--([a-z-]+)=(\d+)$/.exec(flag)!;
      expect(Number(value)).toBe(6 * v8Default(name!)!);
      // V8 takes it without a word (an unknown flag prints "Error: unrecognized flag").
      const r = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)})`], { encoding: 'utf8' });
      expect(r.status).toBe(0);
      expect(r.stderr + r.stdout).toBe('');
    }
  });
});
