// A key that looks right but holds a character the reader cannot see (a zero-width space pasted
// from a web page, a no-break space, a bidi control) or a letter of another script drawn like a
// Latin one: "did you mean `replicas`?" alone points at a word that looks the same. The message
// names the character (code point and Unicode name) and its place in the key, the problem's
// line:col point at it in the file or flag, and the hint says what to do and what the key then is.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { oddCharacter } from '../../src/problems/invisible.ts';
import { parseValuesText } from '../../src/values/source.ts';
import type { Problem } from '../../src/problems/problem.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { runInProcess } from '../cli/in-process.ts';

/** `agentplat lint -f values.yaml …flags --format json` on `values`: its problems, each with its file. */
async function lint(values: string, flags: string[] = []): Promise<Problem[]> {
  const cwd = tempDir('agentplat-invisible-');
  writeFileSync(join(cwd, 'values.yaml'), values);
  const r = await runInProcess(['lint', '-f', 'values.yaml', ...flags, '--format', 'json'], { cwd });
  const report = JSON.parse(r.stdout) as { files: { file: string | null; problems: Problem[] }[] };
  return report.files.flatMap((g) => g.problems.map((p) => ({ ...p, ...(g.file !== null ? { file: g.file } : {}) })));
}

/** 1-based column of the first `ch` on line `line` (1-based) of `text`. */
const columnOf = (text: string, line: number, ch: string) => text.split('\n')[line - 1]!.indexOf(ch) + 1;

describe('an unknown key that holds an invisible character', () => {
  it('names the zero-width space and its place in the key, points at it, and offers the key without it', async () => {
    const values = 'controller:\n  re\u200bplicas: 3\n';
    const problems = await lint(values);
    expect(problems).toEqual([
      expect.objectContaining({
        rule: 'values/unknown-key',
        path: 'controller.re\u200bplicas',
        message: 'unknown key `controller.re\\u200Bplicas` in revision B: it holds an invisible character, U+200B ZERO WIDTH SPACE, at character 3 of the key',
        hint: 'delete the character: did you mean `replicas`?',
        file: 'values.yaml',
        line: 2,
        column: 5,
      }),
    ]);
    expect(columnOf(values, 2, '\u200b')).toBe(5);
  });

  it('in a double-quoted key written as an escape, the column is that of the escape', async () => {
    const values = 'controller:\n  "re\\u200Bplicas": 3\n';
    const [p] = await lint(values);
    expect(p).toMatchObject({ line: 2, column: columnOf(values, 2, '\\'), hint: 'delete the character: did you mean `replicas`?' });
    expect(p!.message).toContain('U+200B ZERO WIDTH SPACE, at character 3 of the key');
  });

  it('in a single-quoted key, the quote and escaped quotes before it are counted', async () => {
    const values = "podLabels:\n  ok: x\ncontroller:\n  'it''s\u00a0me': 3\n";
    const [p] = await lint(values);
    expect(p).toMatchObject({ path: "controller.it's\u00a0me", line: 4, column: columnOf(values, 4, '\u00a0') });
    expect(p!.message).toContain('U+00A0 NO-BREAK SPACE, at character 5 of the key');
  });

  it('in a flow map after a masked secret, the column is that of the file and the caret that of the excerpt', async () => {
    const values = 'authproxy:\n  config: {clientSecret: a-very-long-secret-value, client\u200bID: x}\n';
    // The machine formats leave the excerpt's caret out: the linter's own problem holds it.
    const [p] = lintValues({ revision: 'B', layers: [parseValuesText(values, 'values.yaml').source!] }).problems;
    expect(p).toMatchObject({ path: 'authproxy.config.client\u200bID', line: 2, column: columnOf(values, 2, '\u200b') });
    expect(p!.excerpt).not.toContain('a-very-long-secret-value');
    expect(p!.excerpt![p!.excerptColumn! - 1]).toBe('\u200b');
    expect(p!.hint).toBe('delete the character: did you mean `clientID`?');
  });

  it('on the command line, the column is that of the character in the flag', async () => {
    const problems = await lint('{}\n', ['--set', 'controller.re\u200dplicas=3']);
    expect(problems).toEqual([
      expect.objectContaining({
        file: '--set #1',
        line: 1,
        column: 'controller.re'.length + 1,
        message: 'unknown key `controller.re\\u200Dplicas` in revision B: it holds an invisible character, U+200D ZERO WIDTH JOINER, at character 3 of the key',
      }),
    ]);
  });

  it('a Cyrillic letter drawn like a Latin one is named, with the Latin letter to type', async () => {
    const values = 'controller:\n  replic\u0430s: 3\n';
    const [p] = await lint(values);
    expect(p).toMatchObject({
      message: 'unknown key `controller.replic\u0430s` in revision B: it holds U+0430 CYRILLIC SMALL LETTER A at character 7 of the key, drawn like the Latin `a`',
      hint: 'type the Latin `a` instead: did you mean `replicas`?',
      column: 9,
    });
  });

  it('a key that is only a misspelling keeps the plain did-you-mean', async () => {
    const [p] = await lint('controller:\n  replcas: 3\n');
    expect(p).toMatchObject({ message: 'unknown key `controller.replcas` in revision B', hint: 'did you mean `replicas`?', column: 3 });
  });
});

describe('which characters count as invisible or as lookalikes', () => {
  it.each([
    ['\u200b', 'U+200B ZERO WIDTH SPACE'],
    ['\u200c', 'U+200C ZERO WIDTH NON-JOINER'],
    ['\u200d', 'U+200D ZERO WIDTH JOINER'],
    ['\u2060', 'U+2060 WORD JOINER'],
    ['\ufeff', 'U+FEFF ZERO WIDTH NO-BREAK SPACE'],
    ['\u00ad', 'U+00AD SOFT HYPHEN'],
    ['\u00a0', 'U+00A0 NO-BREAK SPACE'],
    ['\u202e', 'U+202E RIGHT-TO-LEFT OVERRIDE'],
    ['\u2066', 'U+2066 LEFT-TO-RIGHT ISOLATE'],
    ['\u200f', 'U+200F RIGHT-TO-LEFT MARK'],
    ['\u3000', 'U+3000 IDEOGRAPHIC SPACE'],
    ['\t', 'U+0009 (a control character)'],
    ['\u0007', 'U+0007 (a control character)'],
    ['\u{e0041}', 'U+E0041 (a format character)'],
  ])('%j is %s', (ch, name) => {
    expect(oddCharacter(`ab${ch}cd`)).toEqual({ index: 2, name });
  });

  it('plain ASCII, an ordinary space and a key wholly in another script hold none', () => {
    expect(oddCharacter('replicas')).toBeUndefined();
    expect(oddCharacter('my key')).toBeUndefined();
    expect(oddCharacter('\u0440\u0435\u043f\u043b\u0438\u043a\u0430')).toBeUndefined();
    expect(oddCharacter('caf\u00e9')).toBeUndefined();
  });
});
