// Issue 7 "templates precompiled" and design.md "Safe templating": templates are compiled at build
// time into line programs (src/render/template-program.ts) whose output is read without text.
// Handlebars in strict mode is the reference: on every golden input, on values generated from
// both schemas and on hostile strings, every template call gives the same text (less blank and
// comment lines) and the same objects as handlebars; small random templates over random data
// agree with handlebars too, failures included; and a template outside the language is refused
// with its file and line.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { RenderError } from '../../src/render/components/common.ts';
import { renderChart } from '../../src/render/render.ts';
import { compileTemplate, compileTemplates, jsonCopy, runTemplate, templateText, TemplateSyntaxError, type TemplateSet } from '../../src/render/template-program.ts';
import { templateSet } from '../../src/render/template-source.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { readTemplateLines } from '../../src/yaml/template-yaml.ts';
import { ValuesArbitraries, valuesSchema } from '../hardening/_values-arb.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { caseApiVersions } from '../subcharts/helpers.ts';
import { breathing } from '../helpers/breathe.ts';
import { HANDLEBARS_OPTIONS, handlebarsEnv, handlebarsText, withoutBlankAndCommentLines } from '../helpers/handlebars-oracle.ts';
// Provider config and tls are checked by validate's code, which a run loads only when needed: loaded here, as the commands load it.
import { checkModelConfig } from '../helpers/load-crd-check.ts';

/** Every template call of every render in this file, checked against handlebars as it happens. */
const oracle = vi.hoisted(() => ({ calls: new Map<string, number>(), mismatches: [] as string[] }));

vi.mock('../../src/render/engine.ts', async (importOriginal) => {
  const engine = await importOriginal<typeof import('../../src/render/engine.ts')>();
  const { handlebarsText: reference, withoutBlankAndCommentLines: strip } = await import('../helpers/handlebars-oracle.ts');
  return {
    ...engine,
    renderDocs(source: string, template: string, data: unknown) {
      const ours = engine.renderDocs(source, template, data);
      oracle.calls.set(template, (oracle.calls.get(template) ?? 0) + 1);
      const text = reference(template, data);
      if (strip(text) !== engine.renderTemplate(template, data)) oracle.mismatches.push(`${template}: text differs\n${strip(text)}\n----\n${engine.renderTemplate(template, data)}`);
      const expected = engine.readDocuments(text, template).filter((o) => o !== null && o !== undefined);
      if (!isDeepStrictEqual(ours.map((d) => d.object), expected)) oracle.mismatches.push(`${template}: objects differ for ${JSON.stringify(data).slice(0, 300)}`);
      return ours;
    },
  };
});

const API_VERSIONS = ['monitoring.coreos.com/v1', 'route.openshift.io/v1', 'gateway.networking.k8s.io/v1'];

interface Release {
  namespace?: string;
  releaseName?: string;
  apiVersions?: string[];
  kubeVersion?: string;
}

/** Lints and renders as `agentplat render` does; false when the values are refused. */
function renderValues(revision: Revision, text: string, release: Release = { apiVersions: API_VERSIONS }): boolean {
  const source = parseValuesText(text, 'values.yaml').source!;
  const namespace = release.namespace ?? 'agentplat';
  const apiVersions = release.apiVersions ?? [];
  const kube = release.kubeVersion ? { kubeVersion: release.kubeVersion } : {};
  const lint = lintValues({ checkModelConfig, revision, layers: [source], releaseNamespace: namespace, apiVersions, ...kube });
  if (lint.problems.some((p) => p.severity === 'error')) return false;
  try {
    renderChart(lint.layered.values, { revision, releaseName: release.releaseName ?? 'agentplat', releaseNamespace: namespace, apiVersions, ...kube });
  } catch (err) {
    // Values the linter lets through but the chart refuses (render/values): nothing rendered.
    if (err instanceof RenderError) return false;
    throw err;
  }
  return true;
}

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');

describe('compiled templates give what handlebars gives (strict mode, json and present helpers)', () => {
  it('on the defaults and every golden input of the chart and the sub-charts, which reach every template of templates/', () => {
    for (const revision of ['A', 'B'] as const) {
      expect(renderValues(revision, '{}\n', {})).toBe(true);
      expect(renderValues(revision, '{}\n')).toBe(true);
    }
    for (const dir of readdirSync(join(FIXTURES, 'render'))) {
      const { revision, ...release } = JSON.parse(readFileSync(join(FIXTURES, 'render', dir, 'args.json'), 'utf8')) as Release & { revision: Revision };
      expect(renderValues(revision, readFileSync(join(FIXTURES, 'render', dir, 'values.yaml'), 'utf8'), release), dir).toBe(true);
    }
    let subcharts = 0;
    for (const f of readdirSync(join(FIXTURES, 'subcharts')).filter((f) => f.endsWith('.values.yaml'))) {
      const apiVersions = caseApiVersions(join(FIXTURES, 'subcharts'), f.replace(/\.values\.yaml$/, ''));
      for (const revision of ['A', 'B'] as const) if (renderValues(revision, readFileSync(join(FIXTURES, 'subcharts', f), 'utf8'), { apiVersions })) subcharts++;
    }
    expect(subcharts).toBeGreaterThan(5);
    expect(oracle.mismatches).toEqual([]);
    // These inputs reach every template of templates/, so each was compared at least once.
    const names = Object.keys(templateSet()).filter((n) => n.endsWith('.hbs'));
    expect(names.length).toBeGreaterThan(30);
    expect(names.filter((n) => !oracle.calls.has(n))).toEqual([]);
  });

  const RUNS = 150;
  for (const [offset, revision] of [[11, 'A'], [12, 'B']] as const) {
    it(`on values generated from the revision ${revision} schema (${seedTitle(offset, RUNS)})`, async () => {
      const arb = new ValuesArbitraries(valuesSchema(revision), { presence: 0.2 }).values();
      let rendered = 0;
      await fc.assert(
        fc.asyncProperty(arb, breathing((values) => {
          if (renderValues(revision, JSON.stringify(values))) rendered++;
          expect(oracle.mismatches).toEqual([]);
        })),
        fcParams(offset, RUNS),
      );
      expect(rendered).toBeGreaterThan(runs(RUNS) / 10);
    });
  }

  it('on hostile strings in every kind of place (newlines, ---, ": ", quotes, NUL, lone surrogates)', () => {
    for (const s of ['a\nb: c', 'x\n---\nkind: Secret', 'k: v', '"q"', "it's", '- item', '{a: b}', '#c', '\u0000', '\ud800', '\t', '{{json x}}', '', ' ']) {
      const values = { labels: { team: s }, podAnnotations: { note: s }, controller: { env: [{ name: 'X', value: s }] }, proxy: { url: s } };
      for (const revision of ['A', 'B'] as const) renderValues(revision, JSON.stringify(values));
    }
    expect(oracle.mismatches).toEqual([]);
  });

});

// ---- small random templates over random data ------------------------------------------------

const FIELDS = ['a', 'b', 'c'] as const;
const path = fc.constantFrom<string>(...FIELDS, 'a.b', 'b.c', 'c.length');

/** Random template lines at an indentation, built only from what the language allows. */
function linesArb(depth: number): fc.Arbitrary<string[]> {
  const key = fc.constantFrom('k1', 'k2', 'k3', 'k4');
  const leaf = fc.oneof(
    fc.tuple(key, fc.constantFrom('word', '1', 'true', '"quoted"', '[1, 2]')).map(([k, v]) => [`${k}: ${v}`]),
    fc.tuple(key, path).map(([k, p]) => [`${k}: {{json ${p}}}`]),
    path.map((p) => [`k5:`, `  - {{json ${p}}}`]),
    path.map((p) => [`k6:`, `  - name: {{json ${p}}}`]),
  );
  if (depth === 0) return leaf;
  const inner = linesArb(depth - 1);
  return fc.oneof(
    { weight: 3, arbitrary: leaf },
    fc.tuple(fc.constantFrom('if', 'unless'), fc.boolean(), path, fc.array(inner, { maxLength: 3 }), fc.option(fc.array(inner, { maxLength: 2 }))).map(([tag, present, p, body, otherwise]) => [
      present ? `{{#${tag} (present ${p})}}` : `{{#${tag} ${p}}}`,
      ...body.flat(),
      ...(otherwise ? ['{{else}}', ...otherwise.flat()] : []),
      `{{/${tag}}}`,
    ]),
    fc.tuple(fc.constantFrom<string>(...FIELDS), fc.array(inner, { maxLength: 2 })).map(([p, body]) => ['k7:', `{{#each ${p}}}`, '  - item: 1', ...body.flat().map((l) => (l.startsWith('{{') ? l : `    ${l}`)), '{{/each}}']),
    fc.constant<string[]>(['{{> p/_part a}}']),
    // Hash arguments: laid over the named data, or over the current data without one.
    fc.tuple(fc.constantFrom('', ' a', ' c'), fc.subarray(['b', 'c'], { minLength: 1 }), fc.array(fc.oneof(path, fc.constant('null')), { minLength: 2, maxLength: 2 })).map(([context, keys, values]) => [
      `{{> p/_part${context}${keys.map((k, i) => ` ${k}=${values[i]}`).join('')}}}`,
    ]),
  );
}

const leafValue = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -2, max: 2 }), fc.boolean(), fc.constant(null), fc.constant(undefined), fc.constantFrom(NaN, -0, Infinity, 1.5));
const value: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  v: fc.oneof({ depthSize: 'small' }, leafValue, fc.array(tie('v'), { maxLength: 3 }), fc.dictionary(fc.constantFrom('a', 'b', 'c', 'item'), tie('v'), { maxKeys: 3 })),
})).v;
const data = fc.record({ a: value, b: value, c: value }, { requiredKeys: [] });

const PARTIAL = 'name: {{json b}}\n{{#if c}}\nlabels: {{json c}}\n{{/if}}\n';

type Outcome = { text: string } | { error: true };

function handlebarsOutcome(template: string, d: unknown): Outcome {
  try {
    return { text: withoutBlankAndCommentLines(handlebarsEnv({ 'p/_part': PARTIAL }).compile(template, HANDLEBARS_OPTIONS)(d)) };
  } catch {
    return { error: true };
  }
}

function programOutcome(set: TemplateSet, d: unknown): Outcome {
  try {
    return { text: templateText(set, 't.hbs', d) };
  } catch {
    return { error: true };
  }
}

describe('line programs run as handlebars does', () => {
  it(`random templates (if, unless, present, else, each, partials, holes) over random data: same text, or both fail (${seedTitle(13, 2000)})`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(linesArb(2), { minLength: 1, maxLength: 5 }), data, breathing((lines, d) => {
        const template = `${lines.flat().join('\n')}\n`;
        const set = compileTemplates({ 't.hbs': template, 'p/_part.hbs': PARTIAL });
        expect(programOutcome(set, d), template).toEqual(handlebarsOutcome(template, d));
      })),
      fcParams(13, 2000),
    );
  });

  it('a printed value is data: the lines read to the same objects as the printed text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), breathing((v) => {
        const set = compileTemplates({ 't.hbs': 'kind: X\nvalue: {{json v}}\nlist:\n  - {{json v}}\n  - key: {{json v}}\n' });
        const run = runTemplate(set, 't.hbs', { v });
        const expected = { kind: 'X', value: JSON.parse(JSON.stringify(v)), list: [JSON.parse(JSON.stringify(v)), { key: JSON.parse(JSON.stringify(v)) }] };
        expect(readTemplateLines(run.docs, run.values)).toEqual([expected]);
      })),
      fcParams(14, 500),
    );
  });

  const viaJson = (f: () => unknown): unknown => {
    try {
      const v = f();
      return v === undefined || typeof v === 'symbol' ? 'left out' : v;
    } catch {
      return 'refused';
    }
  };
  it(`a printed value is copied as JSON carries it: jsonCopy(v) is JSON.parse(JSON.stringify(v)), a BigInt kept (${seedTitle(15, 3000)})`, async () => {
    // A BigInt (an int64 past 2^53 from --set) is kept as it is; JSON.stringify would refuse it.
    const BIG = '\u0000bigint-in-test';
    const same = (v: unknown) => {
      const expected = viaJson(() => {
        const text = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? { [BIG]: String(x) } : x));
        return text === undefined ? undefined : JSON.parse(text, (_k, x: unknown) => (x !== null && typeof x === 'object' && BIG in x ? BigInt((x as Record<string, string>)[BIG]!) : x));
      });
      expect(isDeepStrictEqual(viaJson(() => jsonCopy(v)), expected), fc.stringify(v)).toBe(true);
    };
    const anything = fc.anything({ withNullPrototype: true, withBoxedValues: true, withSparseArray: true, withDate: true, withObjectString: true, withMap: true, withSet: true, withTypedArray: true, withBigInt: true });
    await fc.assert(fc.asyncProperty(anything, breathing(same)), fcParams(15, 3000));
    for (const v of [{ a: undefined, b: [undefined, () => 1, Symbol('s'), NaN, -0, Infinity] }, JSON.parse('{"__proto__": {"x": 1}}'), [new Date(0)], { toJSON: () => 'x' }, () => 1, Symbol('s'), -0, 10n]) same(v);
  });

  it('a printed object is a copy: changing the rendered object leaves the data alone', () => {
    const labels = { a: 'b' };
    const run = runTemplate(compileTemplates({ 't.hbs': 'labels: {{json labels}}\n' }), 't.hbs', { labels });
    const [doc] = readTemplateLines(run.docs, run.values) as [{ labels: Record<string, string> }];
    doc.labels.a = 'changed';
    expect(labels).toEqual({ a: 'b' });
  });

  it('printing undefined and reading through a missing object are errors (strict mode)', () => {
    const set = compileTemplates({ 't.hbs': 'a: {{json x}}\n', 'u.hbs': 'a: {{json x.y}}\n' });
    expect(() => runTemplate(set, 't.hbs', {})).toThrow(/printed an undefined value \(x\)/);
    expect(() => runTemplate(set, 'u.hbs', {})).toThrow(/cannot read "y" of undefined \(x\.y\)/);
  });

  it('only own properties are read (no prototype access)', () => {
    const set = compileTemplates({ 't.hbs': '{{#if constructor}}\na: 1\n{{/if}}\n' });
    expect(templateText(set, 't.hbs', {})).toBe('');
  });
});

describe('the template language: what is refused when a template is compiled', () => {
  const refused: [string, string, RegExp][] = [
    ['a bare value', 'a: {{name}}\n', /t\.hbs:1: \{\{name\}\} must be alone on its line; values are printed only with \{\{json …\}\}/],
    ['a triple-stash', 'a: {{{name}}}\n', /t\.hbs:1:/],
    ['text after a value', 'a: {{json x}} b\n', /t\.hbs:1: a mustache must end its line/],
    ['two mustaches on a line', 'a: {{json x}}{{json y}}\n', /t\.hbs:1: a mustache must end its line|one mustache per line/],
    ['a value inside a scalar', 'a: b-{{json x}}\n', /t\.hbs:1: what comes before \{\{json …\}\} must be/],
    ['a block tag sharing its line', 'a: 1 {{#if x}}\n{{/if}}\n', /t\.hbs:1: \{\{#if x\}\} must be alone on its line/],
    ['an unknown helper', '{{#with x}}\n{{/with}}\n', /t\.hbs:1: \{\{#with x\}\} is not part of the template language/],
    ['a parent path', 'a: {{json ../x}}\n', /t\.hbs:1:/],
    ['an unclosed block', '{{#if x}}\na: 1\n', /t\.hbs:1: \{\{#if\}\} is never closed/],
    ['a mismatched close', '{{#if x}}\n{{/each}}\n', /t\.hbs:2: \{\{\/each\}\} closes the \{\{#if\}\} of line 1/],
    ['a close without an open', '{{/if}}\n', /t\.hbs:1: \{\{\/if\}\} closes nothing/],
    ['else outside a block', '{{else}}\n', /t\.hbs:1: \{\{else\}\} outside a block/],
    ['two elses', '{{#if x}}\n{{else}}\n{{else}}\n{{/if}}\n', /t\.hbs:3: a second \{\{else\}\} in one block/],
    ['an indented partial', '  {{> p/_part a}}\n', /t\.hbs:1: a partial starts in column 1/],
    ['a partial with no data', '{{> p/_part}}\n', /t\.hbs:1: a partial names the data it runs on/],
    ['a tab', 'a:\tb\n', /t\.hbs:1: tabs, carriage returns and NUL are not allowed/],
    ['a document start with content', '--- a\n', /t\.hbs:1: "--- a" is not allowed/],
  ];
  it.each(refused)('%s', (_, text, message) => {
    expect(() => compileTemplate('t.hbs', text)).toThrow(TemplateSyntaxError);
    expect(() => compileTemplate('t.hbs', text)).toThrow(message);
  });

  it('a partial that does not exist', () => {
    expect(() => compileTemplates({ 't.hbs': '{{> p/_nope a}}\n' })).toThrow(/t\.hbs: partial p\/_nope does not exist/);
  });

  it('every template of templates/ is inside the language', () => {
    expect(Object.keys(templateSet()).length).toBeGreaterThan(30);
  });
});
