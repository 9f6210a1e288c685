// A file with thousands of problems: every one is counted, a bounded number per rule and path is
// listed, and one problem says how many more there are. The schema's alternative-branch errors
// are sorted out per entry (an entry's errors never decide for another entry).
import { describe, expect, it } from 'vitest';
import type { ErrorObject } from 'ajv';
import { capProblems, MAX_PROBLEMS_PER_RULE_AND_PATH } from '../../src/lint/report.ts';
import type { Problem } from '../../src/problems/problem.ts';
import { pruneBranchErrors } from '../../src/lint/schema.ts';
import { cli } from '../hardening/_cli.ts';

interface JsonReport {
  files: { file: string | null; errors: number; problems: { rule: string; path: string; message: string; line?: number }[] }[];
  summary: { errors: number };
}

describe('problems per rule and path are bounded, every problem is counted', () => {
  it('8,000 nulls in imagePullSecrets: 8,000 errors counted, 20 listed, then one "and 7980 more"', async () => {
    const text = `imagePullSecrets:\n${'  - null\n'.repeat(8000)}`;
    const r = await cli(['lint', '--format', 'json', '-f', '-'], text);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report.summary.errors).toBe(8000);
    const stdin = report.files.find((f) => f.file === '<stdin>')!;
    expect(stdin.errors).toBe(8000);
    expect(stdin.problems).toHaveLength(MAX_PROBLEMS_PER_RULE_AND_PATH + 1);
    expect(stdin.problems.slice(0, 20).map((p) => p.path)).toEqual(Array.from({ length: 20 }, (_, i) => `imagePullSecrets[${i}]`));
    expect(stdin.problems[20]).toMatchObject({ rule: 'values/schema', path: 'imagePullSecrets', line: 22 });
    expect(stdin.problems[20]!.message).toMatch(/^and 7980 more values\/schema problems .* under `imagePullSecrets`/);
  });

  it('--set imagePullSecrets[16000].name=x: the 16,000 nulls it fills in are counted and summed up', async () => {
    const r = await cli(['lint', '--format', 'json', '--set', 'imagePullSecrets[16000].name=x']);
    expect(r.code).toBe(1);
    const report = JSON.parse(r.out) as JsonReport;
    expect(report.summary.errors).toBe(16000);
    const flag = report.files.find((f) => f.file === '--set #1')!;
    expect(flag.problems).toHaveLength(MAX_PROBLEMS_PER_RULE_AND_PATH + 1);
    expect(flag.problems[20]!.message).toMatch(/^and 15980 more /);
  });

  it('the text format lists the same and counts every problem in its summary line', async () => {
    const r = await cli(['lint', '-f', '-'], `imagePullSecrets:\n${'  - 5\n'.repeat(100)}`);
    expect(r.out.match(/error {2}`imagePullSecrets\[\d+\]`/g)).toHaveLength(20);
    expect(r.out).toMatch(/and 80 more values\/schema problems/);
    expect(r.out).toMatch(/1 file, 100 errors/);
  });

  it('groups are per file, rule and path shape; a group at the limit gets no summary', () => {
    const p = (file: string, rule: string, path: string, line: number): Problem => ({ severity: 'error', rule, path, message: 'm', file, line });
    const list = [
      ...Array.from({ length: 3 }, (_, i) => p('a.yaml', 'values/schema', `x[${i}].name`, i + 1)),
      ...Array.from({ length: 3 }, (_, i) => p('a.yaml', 'values/unknown-key', `x[${i}].nam`, i + 1)),
      ...Array.from({ length: 3 }, (_, i) => p('b.yaml', 'values/schema', `x[${i}].name`, i + 1)),
      p('a.yaml', 'values/schema', 'y', 9),
    ];
    expect(capProblems(list, 3)).toEqual(list);
    const capped = capProblems(list, 2);
    expect(capped.filter((x) => /more/.test(x.message)).map((x) => [x.file, x.rule, x.path, x.line, x.message])).toEqual([
      ['a.yaml', 'values/schema', 'x', 3, 'and 1 more values/schema problem like the ones above under `x`, not listed'],
      ['a.yaml', 'values/unknown-key', 'x', 3, 'and 1 more values/unknown-key problem like the ones above under `x`, not listed'],
      ['b.yaml', 'values/schema', 'x', 3, 'and 1 more values/schema problem like the ones above under `x`, not listed'],
    ]);
    expect(capped).toHaveLength(list.length);
  });
});

describe('alternative branches (anyOf) are decided per entry', () => {
  const branches = { anyOf: [{ type: 'object' }, { type: 'string' }] };
  const err = (instancePath: string, schemaPath: string, keyword: string, data?: unknown): ErrorObject =>
    ({ instancePath, schemaPath, keyword, params: {}, ...(keyword === 'anyOf' ? { parentSchema: branches, data } : {}) }) as ErrorObject;

  it('an entry whose type picks a branch keeps that branch\'s errors; another entry of another type keeps its own', () => {
    const errors = [
      // entry 0 is a map with a wrong key: branch 0 (object) is chosen
      err('/list/0/bad', '#/properties/list/items/anyOf/0/additionalProperties', 'additionalProperties'),
      err('/list/0', '#/properties/list/items/anyOf/1/type', 'type'),
      err('/list/0', '#/properties/list/items/anyOf', 'anyOf', { bad: 1 }),
      // entry 1 is a number: no branch fits, the summary stays
      err('/list/1', '#/properties/list/items/anyOf/0/type', 'type'),
      err('/list/1', '#/properties/list/items/anyOf/1/type', 'type'),
      err('/list/1', '#/properties/list/items/anyOf', 'anyOf', 5),
      // entry 2 is a string too short: branch 1 (string) is chosen
      err('/list/2', '#/properties/list/items/anyOf/0/type', 'type'),
      err('/list/2', '#/properties/list/items/anyOf/1/minLength', 'minLength'),
      err('/list/2', '#/properties/list/items/anyOf', 'anyOf', ''),
    ];
    const kept = pruneBranchErrors(errors).map((e) => `${e.instancePath} ${e.keyword}`);
    expect(kept).toEqual(['/list/0/bad additionalProperties', '/list/1 anyOf', '/list/2 minLength']);
  });
});
