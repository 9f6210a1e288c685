import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { parseValuesText, rawNestingOverflow, YAML_LIMITS } from '../src/values/source.ts';

const FIXTURES = join(import.meta.dirname, '..', 'fixtures', 'bad-input');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

describe('values files that are valid', () => {
  test('an empty file is valid and holds no values', () => {
    const { source, problems } = parseValuesText(fixture('empty.yaml'), 'empty.yaml');
    expect(problems).toEqual([]);
    expect(source?.data).toEqual({});
  });

  test('a file of only comments is valid and holds no values', () => {
    expect(parseValuesText(fixture('comments-only.yaml'), 'c.yaml').source?.data).toEqual({});
  });

  test('a UTF-8 byte-order mark is ignored and columns do not count it', () => {
    const text = fixture('bom.yaml');
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const { source, problems } = parseValuesText(text, 'bom.yaml');
    expect(problems).toEqual([]);
    expect(source?.data).toEqual({ controller: { replicas: 2 } });
    expect(source?.locate(['controller'])).toMatchObject({ line: 1, column: 1 });
  });

  test('CRLF line endings parse and give the same lines and columns as LF', () => {
    const text = fixture('crlf.yaml');
    expect(text).toContain('\r\n');
    const { source } = parseValuesText(text, 'crlf.yaml');
    expect(source?.data).toEqual({ controller: { replicas: 2 } });
    expect(source?.locate(['controller', 'replicas'])).toEqual({ file: 'crlf.yaml', line: 2, column: 3, excerpt: '  replicas: 2' });
  });

  test('a leading document marker and a trailing empty document are one document', () => {
    expect(parseValuesText('---\na: 1\n', 'x').source?.data).toEqual({ a: 1 });
    expect(parseValuesText('a: 1\n---\n', 'x').source?.data).toEqual({ a: 1 });
  });

  test('locate points at the key the user typed, through lists', () => {
    const { source } = parseValuesText('a:\n  list:\n    - name: x\n    - name: y\n', 'v.yaml');
    expect(source?.locate(['a', 'list', 1, 'name'])).toMatchObject({ line: 4, column: 7 });
    expect(source?.locate(['a', 'missing'])).toBeUndefined();
  });

  test('brackets inside quoted strings do not count as nesting', () => {
    const text = `a: "${'['.repeat(300)}"\nb: '${'{'.repeat(300)}'\n`;
    expect(parseValuesText(text, 'x').problems).toEqual([]);
  });

  test('a __proto__ key stays a plain key', () => {
    const data = parseValuesText('__proto__:\n  polluted: 1\n', 'x').source!.data;
    expect(Object.getPrototypeOf(data)).toBe(Object.prototype);
    expect(Object.keys(data)).toEqual(['__proto__']);
  });
});

describe('values files that are refused, each with one clear problem', () => {
  test('malformed YAML gives values/yaml-syntax with line and column', () => {
    const { source, problems } = parseValuesText(fixture('malformed.yaml'), 'malformed.yaml');
    expect(source).toBeUndefined();
    // At the `[` that is never closed (line 3), not at the end of the file.
    expect(problems[0]).toMatchObject({ severity: 'error', rule: 'values/yaml-syntax', file: 'malformed.yaml', line: 3, column: 10 });
    expect(problems[0]!.message).toMatch(/^invalid YAML: /);
  });

  test('CRLF does not shift the position of a syntax error', () => {
    const lf = parseValuesText(fixture('crlf-malformed.yaml').replace(/\r\n/g, '\n'), 'x').problems[0];
    const crlf = parseValuesText(fixture('crlf-malformed.yaml'), 'x').problems[0];
    expect([crlf?.line, crlf?.column]).toEqual([lf?.line, lf?.column]);
  });

  test('a duplicate key gives values/duplicate-key at the second key', () => {
    const { problems } = parseValuesText(fixture('duplicate-key.yaml'), 'dup.yaml');
    expect(problems).toEqual([
      expect.objectContaining({ rule: 'values/duplicate-key', file: 'dup.yaml', line: 4, column: 3, message: 'duplicate key "replicas": it appears twice in the same map', excerpt: '  replicas: 3' }),
    ]);
  });

  test('duplicate keys are found without comparing every pair (80,000 keys)', () => {
    // yaml's own uniqueKeys check is quadratic: 200,000 keys took over a minute.
    let text = '';
    for (let i = 0; i < 80_000; i++) text += `k${i}: 1\n`;
    text += 'k7: 2\n';
    const result = parseValuesText(text, 'big.yaml');
    expect(result.problems).toMatchObject([{ rule: 'values/duplicate-key', line: 80_001, column: 1 }]);
  });

  test.each([
    { file: 'top-level-list.yaml', found: 'a list' },
    { file: 'top-level-scalar.yaml', found: 'a string' },
  ])('a top level that is $found gives values/not-a-map', ({ file, found }) => {
    const { problems } = parseValuesText(fixture(file), file);
    expect(problems).toEqual([
      expect.objectContaining({ rule: 'values/not-a-map', line: 1, column: 1, message: `the top level of a values file must be a map of keys, found ${found}` }),
    ]);
  });

  test('several documents give values/multiple-documents at the second one', () => {
    const { problems } = parseValuesText(fixture('multi-document.yaml'), 'm.yaml');
    expect(problems).toEqual([expect.objectContaining({ rule: 'values/multiple-documents', line: 2, column: 1 })]);
  });

  test('a NUL character in text is a character of a string (binary files are refused when read)', () => {
    const { problems, source } = parseValuesText('a: 1\nb: x\u0000y\n', 'bin.yaml');
    expect(problems).toEqual([]);
    expect(source!.data).toEqual({ a: 1, b: 'x\u0000y' });
  });

  test('a billion-laughs document is refused by its alias expansion count', () => {
    const result = parseValuesText(fixture('billion-laughs.yaml'), 'lol.yaml');
    expect(result.problems).toEqual([expect.objectContaining({ rule: 'values/yaml-aliases' })]);
  });

  test('a few aliases are fine', () => {
    expect(parseValuesText('base: &b {x: 1}\nother: *b\n', 'x').source?.data).toEqual({ base: { x: 1 }, other: { x: 1 } });
  });

  test('text over the size limit is refused without parsing', () => {
    const result = parseValuesText('a'.repeat(YAML_LIMITS.maxTextLength + 1), 'huge.yaml');
    expect(result.problems).toEqual([expect.objectContaining({ rule: 'values/too-large' })]);
  });
});

describe('deep nesting never exhausts the stack', () => {
  const deepCases = [
    { name: '10,000 levels of [', text: '['.repeat(10_000) + ']'.repeat(10_000), line: 1 },
    { name: '10,000 unclosed [', text: '['.repeat(10_000), line: 1 },
    { name: '10,000 levels of {a: ', text: '{a: '.repeat(10_000) + '1' + '}'.repeat(10_000), line: 1 },
    { name: '10,000 levels of - ', text: '- '.repeat(10_000) + 'x\n', line: 1 },
    // 10,000 indented `a:` levels would be 50 MB; 1,400 levels fit under the size limit.
    { name: '1,400 levels of indented a:', text: Array.from({ length: 1400 }, (_, i) => `${' '.repeat(i)}a:\n`).join(''), line: YAML_LIMITS.maxRawNesting + 1 },
  ];
  test.each(deepCases)('$name gives values/too-deep', ({ text, line }) => {
    const result = parseValuesText(text, 'deep.yaml');
    expect(result.problems).toEqual([expect.objectContaining({ rule: 'values/too-deep', line, message: `the document nests deeper than ${YAML_LIMITS.maxDepth} levels` })]);
  });

  test('10,000 levels of indented a: (50 MB) are refused by size', () => {
    // The size check refuses the text before any scan or parse.
    const text = Array.from({ length: 10_000 }, (_, i) => `${' '.repeat(i)}a:`).join('\n');
    expect(parseValuesText(text, 'deep.yaml').problems).toEqual([expect.objectContaining({ rule: 'values/too-large' })]);
  });

  test('nesting just past the exact limit is reported at the first too-deep collection', () => {
    const depth = YAML_LIMITS.maxDepth + 1;
    const { problems } = parseValuesText('{a: '.repeat(depth) + '1' + '}'.repeat(depth), 'x');
    expect(problems).toEqual([expect.objectContaining({ rule: 'values/too-deep', line: 1, column: 4 * YAML_LIMITS.maxDepth + 1 })]);
  });

  test('nesting at the exact limit is accepted', () => {
    const depth = YAML_LIMITS.maxDepth;
    expect(parseValuesText('{a: '.repeat(depth) + '1' + '}'.repeat(depth), 'x').problems).toEqual([]);
  });

  test('the raw scan ignores comments and counts compact sequences', () => {
    expect(rawNestingOverflow(`a: 1 # ${'['.repeat(50)}\n`, 10)).toBe(-1);
    expect(rawNestingOverflow(`${'- '.repeat(11)}x\n`, 10)).toBeGreaterThan(0);
    expect(rawNestingOverflow(`a: [${'[x],'.repeat(500)}]\n`, 10)).toBe(-1);
  });
});
