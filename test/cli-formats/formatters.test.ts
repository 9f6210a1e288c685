import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { Chalk } from 'chalk';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { FORMAT_NAMES, FORMATTERS, formatProblems, parseFormatName, type FormatName } from '../../src/output/formatters/index.ts';
import { escapeGithubData, escapeGithubProperty, escapeXml } from '../../src/output/formatters/shared.ts';
import { MAX_EXCERPT_WIDTH } from '../../src/output/formatters/text.ts';
import { buildReport } from '../../src/lint/report.ts';
import { UsageError } from '../../src/problems/errors.ts';
import { expectGolden, makeProblem, ROOT, sampleProblems } from './helpers.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const RULES = new Map([
  ['values/unknown-key', 'Values keys must exist in the revision'],
  ['values/schema', 'Values must match the revision schema'],
]);
const base = { inputs: ['envs/prod.yaml', 'envs/clean.yaml'], revision: 'B' as const, toolVersion: '1.2.3', rules: RULES };
const render = (format: FormatName, extra: { color?: boolean; strict?: boolean } = {}) => {
  const { color, ...rest } = extra;
  return formatProblems(sampleProblems(), { ...base, format, ...rest, ...(color ? { chalk: new Chalk({ level: 1 }) } : {}) });
};
const ESC = '\u001b[';

describe('format registry', () => {
  it('every format of the public contract (text, json, sarif, github, junit) is accepted by name and writes a report with the problems in it', () => {
    for (const name of ['text', 'json', 'sarif', 'github', 'junit'] as const) {
      expect(parseFormatName(name)).toBe(name);
      expect(render(name), name).toContain('controller.replicas');
      expect(FORMATTERS[name].description.length, name).toBeGreaterThan(10);
    }
  });

  it('rejects an unknown format with a usage error listing the valid names', () => {
    expect(() => parseFormatName('xml')).toThrow(UsageError);
    try {
      parseFormatName('xml');
    } catch (err) {
      expect((err as UsageError).hint).toBe('valid formats: text, json, sarif, github, junit');
    }
  });

  it('never puts color into machine formats, even when color is asked for', () => {
    for (const name of FORMAT_NAMES.filter((n) => n !== 'text')) expect(render(name, { color: true })).not.toContain(ESC);
    expect(render('text', { color: true })).toContain(ESC);
    expect(render('text', { color: false })).not.toContain(ESC);
  });
});

describe('text format', () => {
  it('prints file:line:col, severity, message and rule, a hint line and the excerpt with a caret', () => {
    expectGolden('fixtures/formats/sample.text.txt', render('text'));
  });

  it('puts the caret under the column, keeping tabs so it lines up', () => {
    const out = render('text');
    expect(out).toContain('  4 |   replcas: 2\n    |   ^\n');
    expect(out).toContain('  9 | \t  minAvailable: 1\n    | \t   ^\n');
  });

  it('ends with one summary line counting inputs, errors and warnings', () => {
    const lines = render('text').trimEnd().split('\n');
    expect(lines.at(-1)).toBe('2 files, 3 errors, 1 warning, 1 info');
    expect(formatProblems([], { format: 'text', inputs: ['a.yaml'] })).toBe('1 file, 0 errors, 0 warnings\n');
  });
});

describe('json format', () => {
  it('is the versioned contract: files with their problems, clean inputs included, and a summary', () => {
    const doc = JSON.parse(render('json'));
    expect(Object.keys(doc)).toEqual(['version', 'tool', 'revision', 'files', 'summary']);
    expect(doc.version).toBe(1);
    expect(doc.tool).toEqual({ name: 'agentplat', version: '1.2.3' });
    expect(doc.files.map((f: { file: string | null }) => f.file)).toEqual([null, '--set #1', 'envs/clean.yaml', 'envs/odd, name:1.yaml', 'envs/prod.yaml']);
    const clean = doc.files.find((f: { file: string }) => f.file === 'envs/clean.yaml');
    expect(clean).toEqual({ file: 'envs/clean.yaml', errors: 0, warnings: 0, infos: 0, problems: [] });
    expect(doc.summary).toEqual({ files: 2, errors: 3, warnings: 1, infos: 1 });
    const prod = doc.files.find((f: { file: string }) => f.file === 'envs/prod.yaml');
    expect(prod.problems[0]).toEqual({
      severity: 'error',
      rule: 'values/unknown-key',
      path: 'controller.replcas',
      message: 'unknown key "replcas" in controller',
      hint: 'did you mean "replicas"?',
      line: 4,
      column: 3,
      excerpt: '  replcas: 2',
    });
  });

  it('summary counts equal the problems listed', () => {
    const doc = JSON.parse(render('json'));
    const listed = doc.files.flatMap((f: { problems: { severity: string }[] }) => f.problems);
    expect(listed.filter((p: { severity: string }) => p.severity === 'error').length).toBe(doc.summary.errors);
    expect(listed.filter((p: { severity: string }) => p.severity === 'warning').length).toBe(doc.summary.warnings);
  });
});

describe('sarif format', () => {
  const ajv = addFormats(new Ajv({ allErrors: true, strict: false }));
  const validate = ajv.compile(JSON.parse(readFileSync(join(ROOT, 'fixtures/formats/sarif-2.1.0.schema.json'), 'utf8')));

  it('validates against the SARIF 2.1.0 schema', () => {
    const log = JSON.parse(render('sarif'));
    const ok = validate(log);
    expect(validate.errors ?? []).toEqual([]);
    expect(ok).toBe(true);
  });

  it('the schema check can fail: a result without a ruleId is rejected', () => {
    const log = JSON.parse(render('sarif'));
    delete log.runs[0].results[0].ruleId;
    expect(validate(log)).toBe(false);
  });

  it('publishes a rule table with descriptions and points each result at its rule', () => {
    const run = JSON.parse(render('sarif')).runs[0];
    const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
    expect(ids).toEqual(['values/deprecated', 'values/pdb-min-available', 'values/schema', 'values/unknown-key']);
    expect(run.tool.driver.rules[3].shortDescription.text).toBe('Values keys must exist in the revision');
    expect(run.tool.driver.rules[3].help.text).toContain('Values keys must exist');
    for (const r of run.results) expect(ids[r.ruleIndex]).toBe(r.ruleId);
  });

  it('gives a file problem a physical location with line and column', () => {
    const results = JSON.parse(render('sarif')).runs[0].results;
    const located = results.find((r: { ruleId: string }) => r.ruleId === 'values/unknown-key');
    expect(located.level).toBe('error');
    expect(located.locations).toEqual([
      { physicalLocation: { artifactLocation: { uri: 'envs/prod.yaml' }, region: { startLine: 4, startColumn: 3 } } },
    ]);
    const odd = results.find((r: { message: { text: string } }) => r.message.text.includes('100%'));
    expect(odd.locations[0].physicalLocation.artifactLocation.uri).toBe('envs/odd%2C%20name%3A1.yaml');
  });

  it('gives --set and file-less problems a result without a location', () => {
    const results = JSON.parse(render('sarif')).runs[0].results;
    const flag = results.find((r: { message: { text: string } }) => r.message.text.startsWith('--set #1: '));
    expect(flag).toBeDefined();
    expect(flag.locations).toBeUndefined();
    const noFile = results.find((r: { ruleId: string }) => r.ruleId === 'values/deprecated');
    expect(noFile.level).toBe('note');
    expect(noFile.locations).toBeUndefined();
  });
});

describe('github format', () => {
  it('prints one workflow command per problem', () => {
    expectGolden('fixtures/formats/sample.github.txt', render('github'));
  });

  it('escapes % CR LF in messages and also : , in properties, as GitHub documents', () => {
    expect(escapeGithubData('100% a\r\nb: c, d')).toBe('100%25 a%0D%0Ab: c, d');
    expect(escapeGithubProperty('a:b,c%\n')).toBe('a%3Ab%2Cc%25%0A');
    const line = render('github').split('\n').find((l) => l.includes('odd'))!;
    expect(line.startsWith('::error file=envs/odd%2C name%3A1.yaml,line=2,col=1,title=values/schema::')).toBe(true);
    expect(line).toContain('100%25 sure%0Ahint: write%0A- name: X');
  });

  it('annotates warnings and infos with their own commands and omits the position of flag problems', () => {
    const out = render('github');
    expect(out).toMatch(/^::warning file=envs\/prod.yaml,line=9,col=5,title=values\/pdb-min-available::/m);
    expect(out).toMatch(/^::notice title=values\/deprecated::controller.streaming/m);
    expect(out).toMatch(/^::error title=values\/schema::--set #1: expected an integer/m);
  });
});

describe('junit format', () => {
  it('writes a suite per file and a case per file and rule', () => {
    expectGolden('fixtures/formats/sample.junit.xml', render('junit'));
  });

  it('is well-formed XML with every special character escaped', () => {
    const xml = render('junit');
    expect(wellFormed(xml)).toBe(true);
    expect(wellFormed('<a><b></a>')).toBe(false);
    expect(xml).toContain('&lt;not a map&gt; &amp; 100% sure');
    expect(escapeXml('a\u0001"\'')).toBe('a&quot;&apos;');
  });

  it('fails a case on errors, and on warnings only under --strict', () => {
    const problems = [makeProblem({ severity: 'warning', rule: 'values/w', file: 'a.yaml', line: 1, column: 1 })];
    const lenient = formatProblems(problems, { format: 'junit', inputs: ['a.yaml'] });
    expect(lenient).toContain('failures="0"');
    expect(lenient).toContain('<system-out>a.yaml:1:1 warning');
    const strict = formatProblems(problems, { format: 'junit', inputs: ['a.yaml'], strict: true });
    expect(strict).toContain('<failure message="expected an integer" type="warning">');
  });

  it('reports a clean input as one passing case', () => {
    const xml = formatProblems([], { format: 'junit', inputs: ['ok.yaml'] });
    expect(xml).toContain('<testsuite name="ok.yaml" tests="1" failures="0" errors="0" skipped="0">');
    expect(xml).toContain('<testcase classname="ok.yaml" name="values"/>');
  });
});

describe('report', () => {
  it('counts and groups once, in a deterministic order independent of input order', () => {
    const a = buildReport({ problems: sampleProblems(), inputs: ['envs/prod.yaml'] });
    const b = buildReport({ problems: sampleProblems().reverse(), inputs: ['envs/prod.yaml'] });
    expect(b).toEqual(a);
    expect(a.counts).toEqual({ errors: 3, warnings: 1, infos: 1 });
  });
});

/** Minimal well-formedness check: balanced tags, quoted attributes, no stray `<` or `&`. */
function wellFormed(xml: string): boolean {
  const body = xml.replace(/^<\?xml[^?]*\?>\s*/, '');
  const stack: string[] = [];
  const token = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  let m: RegExpExecArray | null;
  let pos = 0;
  while ((m = token.exec(body))) {
    pos = token.lastIndex;
    if (m[5] !== undefined) {
      if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(m[5])) return false;
      continue;
    }
    if (/&(?!(amp|lt|gt|quot|apos|#\d+);)/.test(m[3] ?? '')) return false;
    if (m[1]) {
      if (stack.pop() !== m[2]) return false;
    } else if (!m[4]) stack.push(m[2]!);
  }
  return pos === body.length && stack.length === 0;
}

describe('text excerpt of a very long line', () => {
  it('shows a window around the column with … on each cut side, the caret still under the column', () => {
    const line = `${'a'.repeat(1000)}X${'b'.repeat(1000)}`;
    const out = formatProblems([makeProblem({ file: 'x.yaml', line: 1, column: 1001, excerpt: line })], { format: 'text', inputs: ['x.yaml'] });
    const [, shown, caret] = out.split('\n');
    expect(shown!.length).toBeLessThan(MAX_EXCERPT_WIDTH + 20);
    expect(shown).toMatch(/\| …a+Xb+…$/);
    expect(shown![caret!.indexOf('^')]).toBe('X');
  });

  it('a long line whose column is near the start is cut on the right only', () => {
    const out = formatProblems([makeProblem({ file: 'x.yaml', line: 1, column: 3, excerpt: `a:${'['.repeat(5000)}` })], { format: 'text', inputs: ['x.yaml'] });
    const [, shown, caret] = out.split('\n');
    expect(shown).toMatch(/\| a:\[+…$/);
    expect(shown![caret!.indexOf('^')]).toBe('[');
  });
});
