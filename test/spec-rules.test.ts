// Every rule of the values specification (test/data/spec/values-rules.json) is pinned by a test that
// names it: some test title under test/**/*.test.ts contains the rule id as a whole word. A rule added to the spec
// without such a test fails here.
//
// Titles are read from the sources: the first string argument of it(…)/test(…) and their
// .each/.for/.skipIf/.runIf/.concurrent forms (full-line comments ignored), and, in files whose tests take their title from a
// case table (`it(c.name, …)`), the `name: '…'` entries of that table.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { VALUES_RULES } from './data/spec.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const self = fileURLToPath(import.meta.url);

const rules = VALUES_RULES;

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return testFiles(path);
    return e.name.endsWith('.test.ts') && path !== self ? [path] : [];
  });
}

/** A string literal: '…', "…" or `…` (template text kept as written). */
const STRING = String.raw`('(?:\\.|[^'\\\n])*'|"(?:\\.|[^"\\\n])*"|` + '`(?:\\\\.|[^`\\\\])*`)';
/** it( / test( with an optional modifier chain such as .each([...]) or .skipIf(cond), then the title. */
const TITLE = new RegExp(String.raw`(?<![\w.$])(?:it|test)(?:\.(?:each|for|skipIf|runIf|concurrent|sequential|fails)(?:\s*\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?)*\s*\(\s*${STRING}`, 'g');
/** Titles taken from a case table: it(c.name, …) and the table's name: '…' entries. */
const TITLE_FROM_TABLE = /(?<![\w.$])(?:it|test)\s*\(\s*[A-Za-z_$][\w$]*\.name\s*,/;
const TABLE_NAME = new RegExp(String.raw`\bname:\s*${STRING}`, 'g');

/** The test titles a test source declares. */
function testTitles(text: string): string[] {
  const literal = (s: string) => s.slice(1, -1);
  const source = text.replace(/^\s*\/\/.*$/gm, '');
  const titles = [...source.matchAll(TITLE)].map((m) => literal(m[1]!));
  if (TITLE_FROM_TABLE.test(source)) titles.push(...[...source.matchAll(TABLE_NAME)].map((m) => literal(m[1]!)));
  return titles;
}

const titles = testFiles(join(root, 'test')).flatMap((file) => testTitles(readFileSync(file, 'utf8')).map((title) => ({ file: relative(root, file), title })));

describe('the title scanner', () => {
  it('reads literal titles of it/test and their modifier forms, and case-table names, but not other strings', () => {
    const source = [
      "it('alpha-rule: one', () => {});",
      'test("beta-rule: two", () => {});',
      "it.each(['A', 'B'] as const)('gamma-rule: revision %s', (rev) => {});",
      'it.skipIf(process.platform === "win32")(`delta-rule: ${x}`, () => {});',
      "describe('epsilon-rule: a group, not a test', () => {});",
      "const note = 'zeta-rule: a plain string';",
      "  // it('eta-rule: commented out') is not a test",
    ].join('\n');
    expect(testTitles(source)).toEqual(['alpha-rule: one', 'beta-rule: two', 'gamma-rule: revision %s', 'delta-rule: ${x}']);
    const table = "const cases = [{ name: 'theta-rule: from a table', x: 1 }];\nfor (const c of cases) it(c.name, () => {});";
    expect(testTitles(table)).toEqual(['theta-rule: from a table']);
    expect(testTitles("const cases = [{ name: 'iota-rule' }];")).toEqual([]);
  });

  it('finds the titles of the suite (a few hundred, from many files)', () => {
    expect(titles.length).toBeGreaterThan(300);
    expect(new Set(titles.map((t) => t.file)).size).toBeGreaterThan(20);
  });
});

describe('values-rules.json: every rule is named by a test', () => {
  it('the specification lists rules with unique ids', () => {
    expect(rules.length).toBeGreaterThan(0);
    const ids = rules.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });

  it.each(rules.map((r) => [r.id, r] as const))('%s is in the title of a test', (id) => {
    // the id as a whole word: public-backend-url is not named by a public-backend-url-config-json-b title
    const word = new RegExp(`(?<![a-z0-9-])${id}(?![a-z0-9-])`);
    const naming = titles.filter((t) => word.test(t.title));
    expect(naming, `no test title under test/ contains "${id}": name the test that pins it, or write one`).not.toEqual([]);
  });
});
