// The memories of answers (src/answer-memos.ts): the single executable forgets them before its
// start-up snapshot is written, so the snapshot holds none of the warm-up render's answers.
import { describe, expect, it } from 'vitest';
import { answersKept, forgetAnswers } from '../src/answer-memos.ts';
import { runInProcess } from './cli/in-process.ts';

describe('answer memories', () => {
  it('a render fills the digest, scalar and quantity memories, and forgetting them leaves none', async () => {
    forgetAnswers();
    const first = await runInProcess(['render', '--skip-crds', '-r', 'B']);
    expect(first.code).toBe(0);
    const kept = answersKept();
    expect(Object.keys(kept).sort()).toEqual(['digests', 'quantities', 'quantities in resource lists', 'yaml scalars']);
    for (const [name, n] of Object.entries(kept)) expect(n, name).toBeGreaterThan(0);
    forgetAnswers();
    expect(Object.values(answersKept()).every((n) => n === 0)).toBe(true);
  });

  it('a render after forgetting prints the same bytes as one made with the memories full', async () => {
    const full = await runInProcess(['render', '-r', 'A', '-f', 'fixtures/render/pdb-min-available/values.yaml']);
    const again = await runInProcess(['render', '-r', 'A', '-f', 'fixtures/render/pdb-min-available/values.yaml']);
    forgetAnswers();
    const fresh = await runInProcess(['render', '-r', 'A', '-f', 'fixtures/render/pdb-min-available/values.yaml']);
    expect(full.code).toBe(0);
    expect(again.stdout).toBe(full.stdout);
    expect(fresh.stdout).toBe(full.stdout);
    expect(fresh.stderr).toBe(full.stderr);
  });
});
