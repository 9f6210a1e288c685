// validate reads resource files with the fast reader first (yaml/read.ts: data only, fast) and with the yaml
// library (positions and all) when anything in a file is a problem. That is only correct if the
// fast reader never reads a text differently from the library: whenever it accepts a text, its
// data must be the library's, and whatever the library refuses it must refuse too. And
// validate's results must not depend on which reader ran.
import fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readYaml } from '../../src/yaml/read.ts';
import { validateCustomResources } from '../../src/kube-check/validate.ts';
import { parseValuesText, parseValuesWithPositions } from '../../src/values/source.ts';
import { corpus, mutatedYaml } from '../hardening/_mutate.ts';
import { FILES, structural } from '../hardening/_resource-arb.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';

/** The fast reader as validate calls it: every document as data, or undefined for the library. */
const readPlainYaml = (text: string) => readYaml(text, 'resources');

/** The library's reading, as validate's full path reads a file; undefined when it has errors. */
function library(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { uniqueKeys: true, version: '1.2', prettyErrors: false, logLevel: 'silent' });
  const list = Array.isArray(docs) ? docs : [];
  if (list.some((d) => d.errors.length > 0)) return undefined;
  return list.map((d) => d.toJS({ maxAliasCount: 1000 }) as unknown);
}

/** The fast reader agrees with the library, or leaves the text to it. */
function agrees(text: string): 'fast' | 'library' {
  const fast = readPlainYaml(text);
  if (fast === undefined) return 'library';
  const what = JSON.stringify(text.slice(0, 600));
  const lib = library(text);
  expect(lib, `the library refuses a text the fast reader accepted: ${what}`).toBeDefined();
  // Empty documents are nothing to validate (it skips null documents); the fast reader drops them.
  expect(fast, what).toEqual(lib!.filter((d) => d !== null));
  return 'fast';
}

/** Where each string of a JSON text is ([start, end) with its quotes), and whether it is a key, by a scan of its characters. */
function jsonStringSpans(text: string): { start: number; end: number; key: boolean }[] {
  const spans: { start: number; end: number; key: boolean }[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '"') continue;
    const start = i;
    for (i++; text[i] !== '"'; i++) if (text[i] === '\\') i++;
    let next = i + 1;
    while (/\s/.test(text[next] ?? '')) next++;
    spans.push({ start, end: i + 1, key: text[next] === ':' });
  }
  return spans;
}

const VALUES = corpus('fixtures/lint', 'fixtures/render', 'fixtures/subcharts', 'values');

describe('plain YAML reader (validate) reads what the YAML library reads', () => {
  it.each([
    ['core schema integers', 'a: 017\nb: 0o17\nc: 0x1F\nd: -12\ne: +3\nf: 12345678901234567890\ng: 0\n'],
    ['strings that other schemas read as numbers', 'a: 1_000\nb: 0b101\nc: 1:20\nd: 0x_1\ne: 0o8\n'],
    ['floats in every core spelling', 'a: .5\nb: +.5\nc: 1.\nd: 1e3\ne: -.inf\nf: .NaN\ng: 0.1e+2\nh: 1E-2\n'],
    ['booleans, nulls and words like them', 'a: yes\nb: True\nc: NULL\nd: ~\ne:\nf: "true"\ng: off\nh: nulls\n'],
    ['quoted strings', `a: "\\u00e9\\n\\"x\\""\nb: 'it''s'\nc: 'a # b'\nd: "x" # comment\ne: ''\n`],
    ['plain scalars with colons, hashes and commas', 'a: http://x:80/y\nb: a#b\nc: x, y\nd: registry.example.com/agents/billing:2.3.1\ne: --port\nf: -x\n'],
    ['comments everywhere', '# head\na: 1 # one\nb: # a map follows\n  c: d\nlist:\n  - x # item\n  # between\n  - y\n'],
    ['flow collections', 'a: {b: [1, "2", {c: d}], e: [], f: {}}\nargs: ["--port", "8080"]\narch: [amd64, arm64]\nq: {"k": 1}\n'],
    ['keys that are not strings', '1: x\ntrue: y\n0x10: z\n1.50: w\n-1: v\n'],
    ['null keys', 'null: z\n'],
    ['lists in lists and compact maps', 'a:\n- b\n- - c\n  - d\n- e: f\n  g: h\n'],
    ['several documents, empty ones too', '---\na: 1\n---\n---\nb: 2\n'],
    ['CRLF line ends', 'a: 1\r\nb:\r\n  c: d\r\n'],
    ['literal blocks with each chomping', 'a: |\n  one\n  # not a comment\n\n    two\nb: |-\n  x\n\nc: |+\n  y\n\n\nd: 1\n'],
    ['literal blocks in lists and compact maps', 'l:\n  - |\n    in a list\n  - name: x\n    text: |\n      in a map\n    after: 1\n'],
    ['a literal block at the end of the text', 'a:\n  b: |\n    end\n\n'],
    ['JSON, indented', JSON.stringify({ a: { b: [1, 2.5, { c: 'd' }], e: [], f: {} }, g: null, h: true, i: 'x: y # z' }, null, 2)],
    ['JSON on one line, with spaces around colons', '{"a" : 1, "b":[ "c" , {"d" :{}} ]}\n'],
    ['JSON escapes and numbers', '{"a": "\\u00e9\\n\\"\\\\\\/", "b": -0, "c": 1E+2, "d": 1e400, "e": 0.5e-3, "f": 12345678901234567890, "g": "\\ud800"}'],
    ['JSON keys that are equal to values elsewhere', '{"a": "a", "b": ["a", ":"], "c": {"a": ":"}}'],
    ['a JSON list', '[{"a": 1}, [], "x"]\n'],
  ])('%s', (_, text) => {
    expect(agrees(text)).toBe('fast');
  });

  it.each([
    ['an anchor and an alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a directive', '%YAML 1.1\n---\na: yes\n'],
    ['a folded block scalar', 'a: >\n  x\n'],
    ['a literal block with an indentation indicator', 'a: |2\n  x\n'],
    ['a literal block with a header comment', 'a: | # note\n  x\n'],
    ['a literal block with a spaces-only line', 'a: |\n  x\n   \n  y\n'],
    ['a literal block without a final line break', 'a: |\n  x'],
    ['a literal block after an empty line', 'a: |\n\n : |\n\n'],
    ['a tab inside a literal block', 'a: |\n  x\n\t  y\n'],
    ['flow nesting past 64 levels', `a: ${'['.repeat(100)}${']'.repeat(100)}\n`],
    ['block nesting past 64 levels', Array.from({ length: 100 }, (_, i) => `${' '.repeat(i)}k:`).join('\n') + ' 1\n'],
    ['a quoted string over several lines', "a: 'one\n  two'\n"],
    ['a plain scalar over several lines', 'a: one\n  two\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a duplicate key in a flow map', 'a: {b: 1, b: 2}\n'],
    ['a mapping value inside a plain scalar', 'a: b: c\n'],
    ['an unclosed flow sequence', 'a: [1, 2\n'],
    ['a tab', 'a:\t1\n'],
    ['a tilde key', '~: z\n'],
    ['an indented document', ' a:\n  b: 1\n'],
    ['a no-break space JavaScript would trim', 'a: \u00a0\n  b: 1\n'],
    ['a lone carriage return', 'a: 1\rb: 2\n'],
    ['a key with a space before its colon', 'a : 1\n'],
    ['a YAML escape JSON lacks', 'a: "\\x41"\n'],
    ['a comment without space before it', 'a: "x"# c\n'],
    ['a duplicate key in JSON', '{"a": 1, "b": {"c": 1, "c": 2}}'],
    ['a duplicate key in JSON spelled with an escape', '{"a": 1, "\\u0061": 2}'],
    ['a __proto__ key in JSON', '{"a": {"__proto__": {"x": 1}}}'],
    ['a __proto__ key in JSON spelled with an escape', '{"\\u005f_proto__": 1}'],
    ['JSON nesting past 64 levels', `${'['.repeat(100)}${']'.repeat(100)}`],
    ['JSON indented with tabs', '{\n\t"a": 1\n}'],
  ])('leaves %s to the library', (_, text) => {
    expect(readPlainYaml(text)).toBeUndefined();
  });

  it('a JSON string of millions of escapes is read without running out of stack (the key count scans with indexOf)', () => {
    const text = `{"a": "${'\\n'.repeat(4_500_000)}", "b\\\\": 1}`;
    expect(readPlainYaml(text)).toEqual([{ a: '\n'.repeat(4_500_000), 'b\\': 1 }]);
  });

  it('every example resource and values file is read alike, most of them by the fast reader', () => {
    let fast = 0;
    for (const text of FILES) if (agrees(text) === 'fast') fast++;
    for (const text of VALUES) agrees(text);
    expect(fast).toBeGreaterThanOrEqual(FILES.length - 2);
  });

  it(`mutated and edited resources and values files are read alike ${seedTitle(600, 2_000)}`, async () => {
    let fast = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(structural, mutatedYaml(FILES), mutatedYaml(VALUES)), breathing((text) => {
        if (agrees(text) === 'fast') fast++;
      })),
      fcParams(600, 2_000),
    );
    expect(fast).toBeGreaterThan(runs(2_000) / 10);
  });

  it(`texts written in every style the reader accepts (and some it leaves) are read alike ${seedTitle(602, 1_300)}`, async () => {
    // Scalars whose text is tricky for a reader: indicators, colons, hashes, quotes, numbers in
    // every spelling, words of the other YAML schemas, unicode and surrounding spaces.
    const word = fc.oneof(
      fc.constantFrom('a', 'b c', 'http://x:80/y', 'a#b', 'a # b', 'x: y', 'x:', ':x', '-x', '- x', '--port', '---', '?x', 'it\'s', 'say "hi"', '[x]', '{x}', 'x, y', '&a', '*a', '!t', '|', '>', '%x', '@x', '`x', '1', '017', '0o17', '0x1F', '1_000', '.5', '+.5', '1.', '1e3', '.inf', '-.Inf', '.NaN', 'true', 'True', 'yes', 'null', '~', 'Null', '', ' x', 'x ', 'é', '\u00a0', 'a\\b'),
      fc.string({ maxLength: 6 }),
    );
    const scalar = fc.tuple(word, fc.constantFrom('plain', 'single', 'double')).map(([w, style]) =>
      style === 'plain' ? w : style === 'single' ? `'${w.replace(/'/g, "''")}'` : JSON.stringify(w),
    );
    const comment = fc.constantFrom('', '', ' # c', '#c', ' #');
    const flow = fc.letrec<{ node: string; seq: string; map: string }>((tie) => ({
      node: fc.oneof({ depthSize: 'small' }, scalar, tie('seq'), tie('map')),
      seq: fc.array(tie('node'), { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
      map: fc.array(fc.tuple(scalar, tie('node')), { maxLength: 3 }).map((ps) => `{${ps.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
    })).node;
    const block = fc.letrec<{ value: string[]; map: string[]; list: string[] }>((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.tuple(fc.oneof(scalar, flow), comment).map(([v, c]) => [` ${v}${c}`]),
        // literal blocks: lines of text (some empty, some indented further, some like comments or keys), each chomping
        fc
          .tuple(fc.constantFrom('|', '|-', '|+', '>', '|2'), fc.array(fc.oneof(word, fc.constantFrom('', '# x', 'k: v', '  deeper', '- item')), { minLength: 1, maxLength: 4 }), fc.constantFrom(0, 1, 2))
          .map(([h, ls, blank]) => [` ${h}`, ...ls.map((l) => (l === '' ? '' : `  ${l}`)), ...Array<string>(blank).fill('')]),
        tie('map').map((ls) => ['', ...ls.map((l) => `  ${l}`)]),
        tie('list').map((ls) => ['', ...ls.map((l) => `  ${l}`)]),
      ),
      map: fc.array(fc.tuple(word, tie('value')), { minLength: 1, maxLength: 3 }).map((ps) => ps.flatMap(([k, [first, ...rest]]) => [`${k}:${first}`, ...rest])),
      list: fc.array(tie('value'), { minLength: 1, maxLength: 3 }).map((items) => items.flatMap(([first, ...rest]) => [`-${first}`, ...rest])),
    })).map;
    let fast = 0;
    await fc.assert(
      fc.asyncProperty(block, fc.constantFrom('', '# head\n', '---\n'), breathing((lines, head) => {
        if (agrees(`${head}${lines.join('\n')}\n`) === 'fast') fast++;
      })),
      fcParams(602, 1_300),
    );
    expect(fast).toBeGreaterThan(runs(1_300) * 0.03);
  });

  it(`JSON texts are read alike, with a key written twice left to the library ${seedTitle(604, 1_700)}`, async () => {
    // Keys and strings of any characters (lone surrogates too), every character of a string
    // possibly spelled as a \u escape (and / as \/), indented in several ways, LF or CRLF.
    const key = fc.oneof(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4, unit: 'binary' }));
    const value = fc.oneof(fc.jsonValue({ maxDepth: 4 }), fc.jsonValue({ maxDepth: 4, stringUnit: 'binary' }));
    const collection = fc.oneof(fc.dictionary(key, value), fc.array(value));
    const spelling = fc.record({
      indent: fc.constantFrom(undefined, 1, 2, 4, '\t'),
      crlf: fc.boolean(),
      escapes: fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
    });
    let fast = 0;
    let twice = 0;
    await fc.assert(
      fc.asyncProperty(collection, spelling, fc.nat(), breathing((data, { indent, crlf, escapes }, pick) => {
        let k = 0;
        const respell = (str: string) =>
          str.replace(/[^"\\]|\\u[0-9a-f]{4}|\\./g, (c) => (c.length === 1 && escapes[k++ % escapes.length] ? (c === '/' ? '\\/' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : c));
        let text = JSON.stringify(data, null, indent);
        const spans = jsonStringSpans(text);
        for (const { start, end } of [...spans].reverse()) text = `${text.slice(0, start + 1)}${respell(text.slice(start + 1, end - 1))}${text.slice(end - 1)}`;
        if (crlf) text = text.replace(/\n/g, '\r\n');
        if (agrees(text) === 'fast') fast++;
        // The same text with one of its keys written again in the same object: the library
        // refuses it, so the fast reader must leave it (agrees() checks that).
        const keys = jsonStringSpans(text).filter((span) => span.key);
        if (keys.length === 0) return;
        const { start, end } = keys[pick % keys.length]!;
        const again = `${text.slice(0, start)}${text.slice(start, end)}: 0, ${text.slice(start)}`;
        expect(agrees(again)).toBe('library');
        twice++;
      })),
      fcParams(604, 1_700),
    );
    expect(fast).toBeGreaterThan(runs(1_700) * 0.4);
    expect(twice).toBeGreaterThan(runs(1_700) * 0.2);
  });

  it(`values files give the same data, problems and key positions with and without the fast reader ${seedTitle(603, 1_300)}`, async () => {
    let fast = 0;
    await fc.assert(
      fc.asyncProperty(mutatedYaml(VALUES), breathing((text) => {
        if (readYaml(text, 'values')) fast++;
        const quick = parseValuesText(text, 'v.yaml');
        const full = parseValuesWithPositions(text, 'v.yaml');
        expect(quick.problems, JSON.stringify(text.slice(0, 400))).toEqual(full.problems);
        expect(quick.source?.data).toEqual(full.source?.data);
        for (const key of Object.keys(full.source?.data ?? {}).slice(0, 3)) expect(quick.source!.locate([key])).toEqual(full.source!.locate([key]));
      })),
      fcParams(603, 1_300),
    );
    expect(fast).toBeGreaterThan(runs(1_300) / 10);
  });

  it(`validate gives the same problems, checked and skipped counts with and without the fast reader ${seedTitle(601, 270)}`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(structural, mutatedYaml(FILES)), { minLength: 1, maxLength: 3 }), breathing((texts) => {
        const inputs = texts.map((text, i) => ({ file: `r${i}.yaml`, text }));
        const fast = validateCustomResources(inputs);
        const full = validateCustomResources(inputs, { noFastPath: true });
        expect(fast, JSON.stringify(texts).slice(0, 1500)).toEqual(full);
      })),
      fcParams(601, 270),
    );
  });
});
