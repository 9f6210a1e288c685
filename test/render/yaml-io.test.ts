// The render output's own YAML writer and the template-output reader: both must agree with a
// full YAML parser on everything they accept, and the writer must stay safe for YAML 1.1 readers
// (Kubernetes decodes manifests with YAML 1.1 rules: `yes`, `on`, `n`, `1_000` are not strings there).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { emitYaml } from '../../src/yaml/emit.ts';
import { isPlainSafe } from '../../src/yaml/plain-safe.ts';
import { readTemplateLines, type TemplateLine } from '../../src/yaml/template-yaml.ts';
import { renderChart } from '../../src/render/render.ts';
import { lintValues } from '../../src/lint/lint.ts';

const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, fc.string(), fc.constantFrom('yes', 'on', 'n', 'Y', '1_000', '0755', '1e3', '2024-01-01', ':8080', '--port', '- x', 'a: b', '#x', 'x #y', '', ' lead', 'trail ', 'two\nlines', 'end\n', 'keep\n\n', '  indented\nblock', '0.11.0', '128Mi', 'null', '~', '.inf'), fc.integer(), fc.boolean(), fc.constant(null), tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(fc.oneof(fc.string({ minLength: 1 }), fc.constantFrom('n', 'y', 'on', 'app.kubernetes.io/name', 'a b')), tie('value'), { maxKeys: 4 }),
}));

describe('YAML writer (render output)', () => {
  it('round-trips any JSON-like data through YAML 1.2 and YAML 1.1 readers', () => {
    fc.assert(
      fc.property(json.map, (data) => {
        const text = emitYaml(data);
        expect(parse(text, { version: '1.2' })).toEqual(data);
        expect(parse(text, { version: '1.1' })).toEqual(data);
      }),
      { numRuns: 2000 },
    );
  });

  it.each(['yes', 'on', 'off', 'n', 'Y', 'true', 'null', '~', '<<', '.', '1_000', '1_', '0755', '0x1f', '1e3', 'E0', '.E0', '1:20', '.5', '1.', '2024-01-01', '-1', '.NaN', ''])('quotes %j, which some YAML reader takes for a non-string', (s) => {
    expect(isPlainSafe(s)).toBe(false);
    expect(emitYaml({ k: s })).toBe(`k: ${JSON.stringify(s)}\n`);
  });

  it.each(['100m', '128Mi', '0.11.0', 'v1', '--port', 'apps/v1', 'http://x:80/y', '$(UPSTREAM_URL)', '^/(health|login)$'])('writes %j plain', (s) => {
    expect(emitYaml({ k: s })).toBe(`k: ${s}\n`);
  });

  it('writes multi-line strings as literal blocks with the right chomping', () => {
    expect(emitYaml({ a: { k: 'x\ny\n' } })).toBe('a:\n  k: |\n    x\n    y\n');
    expect(emitYaml({ k: 'x\ny' })).toBe('k: |-\n  x\n  y\n');
    expect(emitYaml({ k: ['  lead\nx'] })).toBe('k:\n  - |2-\n      lead\n    x\n');
  });

  it('never writes anchors for shared sub-objects', () => {
    const shared = { type: 'string' };
    expect(emitYaml({ a: shared, b: shared })).toBe('a:\n  type: string\nb:\n  type: string\n');
  });
});

/**
 * A text as the lines of a template run with no printed values (src/render/template-program.ts
 * makes them so): documents split at `---`, blank and comment lines dropped, each line without its
 * indentation.
 */
function readTemplateYaml(text: string): unknown[] | undefined {
  const docs: TemplateLine[][] = [[]];
  for (const raw of text.split('\n')) {
    const content = raw.trim();
    if (content === '---') docs.push([]);
    else if (content !== '' && !content.startsWith('#')) docs[docs.length - 1]!.push({ indent: raw.length - raw.trimStart().length, text: content });
  }
  return readTemplateLines(docs, []);
}

describe('template output reader (the lines of a template run)', () => {
  it('reads exactly what the full parser reads, for every template output of both revisions', () => {
    let fast = 0;
    for (const revision of ['A', 'B'] as const) {
      const { layered } = lintValues({ revision, layers: [] });
      const docs = renderChart(layered.values, { revision, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: [], skipCrds: true });
      for (const d of docs) {
        const text = emitYaml(d.object);
        const mine = readTemplateYaml(text);
        if (mine) fast++;
        expect(mine ?? [d.object]).toEqual([JSON.parse(JSON.stringify(d.object))]);
      }
    }
    expect(fast).toBeGreaterThan(0);
  });

  it('reads any document the writer produces exactly as the full parser does, or leaves it to the full parser', () => {
    let fast = 0;
    fc.assert(
      fc.property(json.map, (data) => {
        const text = emitYaml(data);
        const mine = readTemplateYaml(text);
        if (!mine) return;
        fast++;
        expect(mine).toEqual([parse(text, { version: '1.2' })]);
      }),
      { numRuns: 3000, seed: 20261121 },
    );
    expect(fast).toBeGreaterThan(300);
  });

  it('accepts block maps and lists with JSON leaves like the full parser', () => {
    const text = 'apiVersion: v1\nkind: Service\nmetadata:\n  name: "x"\n  labels: {"a":"b"}\nspec:\n  ports:\n    - name: http\n      port: 8080\n    - - 1\n      - 2\n  empty:\n---\nkind: B\n';
    expect(readTemplateYaml(text)).toEqual(parseAllDocuments(text).map((d) => (d as { toJS(): unknown }).toJS()));
  });

  it.each([
    ['a block scalar', 'k: |\n  x\n'],
    ['an anchor', 'k: &a 1\nj: *a\n'],
    ['a single-quoted value', "k: 'x'\n"],
    ['a duplicate key', 'k: 1\nk: 2\n'],
    ['a number spelling of the core schema', 'k: 01\n'],
    ['a tag', 'k: !!str 1\n'],
  ])('leaves %s to the full parser', (_, text) => {
    expect(readTemplateYaml(text)).toBeUndefined();
  });
});
