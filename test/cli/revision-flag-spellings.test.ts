// The two revisions of an upgrade, spelled either way in every command that takes them: plan and
// migrate write `--from A --to B`, diff and values `--from-revision A --to-revision B`; a user who
// copies one command's flags into another gets the same run, and messages name the flag as typed.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { STACK_TRACE } from './binary.ts';
import { runInProcess } from './in-process.ts';

const dir = tempDir('agentplat-revision-spellings-');

beforeAll(() => {
  writeFileSync(join(dir, 'a.yaml'), 'controller:\n  replicas: 2\n  auth:\n    mode: unsecure\n');
});

async function agentplat(args: string[]) {
  const r = await runInProcess(args, { cwd: dir, env: { NO_COLOR: '1' } });
  expect(r.stderr).not.toMatch(STACK_TRACE);
  return r;
}

describe('the revisions of an upgrade, spelled as plan or as diff spells them', () => {
  it('plan takes --from-revision/--to-revision as --from/--to, diff and values take --from/--to as --from-revision/--to-revision', async () => {
    const pairs: [string[], string[]][] = [
      [['plan', '--from', 'A', '--to', 'B', '-f', 'a.yaml'], ['plan', '--from-revision', 'A', '--to-revision', 'B', '-f', 'a.yaml']],
      [['diff', '--from-revision', 'A', '--to-revision', 'B', '-f', 'a.yaml', '--skip-crds', '-q'], ['diff', '--from', 'A', '--to', 'B', '-f', 'a.yaml', '--skip-crds', '-q']],
      [['values', '--computed', '--from-revision', 'A', '-f', 'a.yaml'], ['values', '--computed', '--from', 'A', '-f', 'a.yaml']],
    ];
    for (const [as, other] of pairs) {
      const a = await agentplat(as);
      const b = await agentplat(other);
      expect(a.stdout, as.join(' ')).not.toBe('');
      expect([b.code, b.stdout, b.stderr], other.join(' ')).toEqual([a.code, a.stdout, a.stderr]);
    }
  });

  it('both spellings naming two revisions is a usage error; a refused pair names the flags as typed', async () => {
    const both = await agentplat(['plan', '--from', 'A', '--from-revision', 'B', '-f', 'a.yaml']);
    expect([both.code, both.stdout]).toEqual([2, '']);
    expect(both.stderr).toMatch(/^agentplat: --from A and --from-revision B name two revisions\n/);
    const backwards = await agentplat(['diff', '--from', 'B', '--to', 'A', '-f', 'a.yaml']);
    expect([backwards.code, backwards.stdout]).toEqual([2, '']);
    expect(backwards.stderr).toMatch(/cannot migrate values from revision B to A\n {2}hint: .*compare --from A --to B/);
    const against = await agentplat(['diff', '--from', 'A', '-f', 'a.yaml', '--against', 'a.yaml']);
    expect(against.stderr).toMatch(/^agentplat: --from: with --against the old side is the manifest/);
  });
});
