// design.md "Safe templating": a value holding a newline, `---`, `: ` or quotes can never add a
// key or a document; output is deterministic. That every value enters a template through
// {{json …}} is the template compiler's to refuse (test/render/template-program.test.ts).
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { toYaml } from '../../src/render/manifests.ts';
import { render } from './_render.ts';
import { fcParams, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';
import { compileTemplates, type TemplateNode } from '../../src/render/template-program.ts';
import { templateFiles } from '../../src/render/template-source.ts';

const TEMPLATES = join(import.meta.dirname, '..', '..', 'templates');

function* walk(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else if (e.name.endsWith('.hbs')) yield full;
  }
}

describe('deterministic output', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`rendering twice gives byte-identical output (revision ${revision})`, () => {
      const values = { labels: { team: 'x' }, controller: { metrics: { enabled: true } }, extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'x' } }] };
      expect(toYaml(render(revision, values))).toBe(toYaml(render(revision, values)));
    });
  }
});

/** Strings that would break naive text templating. */
const HOSTILE = ['a\nb: c', 'x\n---\nkind: Secret', 'k: v', '"quoted"', "it's", '- item', '{a: b}', '#comment', '&anchor', '*alias', '| block', '\t tab', '{{ .Values.x }}', ''];

describe('injection: hostile values stay values', () => {
  const baseline = (revision: 'A' | 'B') => render(revision, {}, { skipCrds: true }).map((d) => `${d.object.kind}/${d.object.metadata.name}`);

  it(`a value containing a newline, ---, ": " or quotes cannot add a key or a document ${seedTitle(455, 25)}`, async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...HOSTILE), fc.string(), fc.constantFrom('A' as const, 'B' as const), breathing((hostile: string, random: string, revision: 'A' | 'B') => {
        const s = `${hostile}${random}`;
        const docs = render(revision, {
          labels: { team: s },
          annotations: { note: s },
          podAnnotations: { note: s },
          controller: { env: [{ name: 'X', value: s }], service: { annotations: { a: s } }, loglevel: s, a2aClientTimeout: s },
          ui: { publicBackendUrl: s, externalUrl: s },
          proxy: { url: s },
          providers: { providerB: { model: s } },
        }, { skipCrds: true });
        expect(docs.map((d) => `${d.object.kind}/${d.object.metadata.name}`)).toEqual(baseline(revision));
        const controller = docs.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-controller')!.object as any;
        expect(controller.metadata.annotations).toEqual({ note: s });
        const env = controller.spec.template.spec.containers[0].env;
        // An empty value is left out, as the API server stores an env var (`value` is omitempty).
        expect(env.at(-1)).toEqual(s === '' ? { name: 'X' } : { name: 'X', value: s });
        const cm = docs.find((d) => d.object.kind === 'ConfigMap' && d.object.metadata.name === 'agentplat-controller')!.object as any;
        expect(cm.data.PROXY_URL ?? '').toBe(s);
        // And the printed YAML parses back to exactly the same objects.
        const text = toYaml(docs);
        const reparsed = parseAllDocuments(text).map((d) => d.toJS());
        expect(reparsed).toEqual(docs.map((d) => d.object));
      })),
      fcParams(455, 25),
    );
  });

  it('a hostile value in a label key or an extraObjects string stays inside its object', () => {
    const docs = render('B', { labels: { 'x\n---\nkind: Secret': 'v' }, extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'e' }, data: { k: 'a\n---\nkind: Secret\nmetadata: {name: evil}' } }] });
    expect(docs.filter((d) => d.object.kind === 'Secret').map((d) => d.object.metadata.name)).toEqual(baseline('B').filter((k) => k.startsWith('Secret/')).map((k) => k.slice(7)));
    const extra = docs.find((d) => d.object.metadata.name === 'e')!.object as any;
    expect(extra.data.k).toBe('a\n---\nkind: Secret\nmetadata: {name: evil}');
  });
});

describe('templates decide how an object looks, components decide whether it exists', () => {
  const set = compileTemplates(templateFiles(TEMPLATES));
  const templates = Object.keys(set).filter((name) => name.endsWith('.yaml.hbs'));
  it('there are templates to check', () => expect(templates.length).toBeGreaterThan(10));
  for (const name of templates) {
    it(`${name}: every document it makes starts with apiVersion and kind outside any block`, () => {
      // Top-level nodes split into documents at `---`; a template printing a whole object
      // (`{{json object}}`) is one unconditional document too.
      const docs: TemplateNode[][] = [[]];
      for (const n of set[name]!) {
        if (n.k === 'doc') docs.push([]);
        else docs[docs.length - 1]!.push(n);
      }
      for (const doc of docs) {
        const first = doc[0];
        const wholeObject = doc.length === 1 && first?.k === 'hole' && first.text === '' && first.indent === 0;
        // The keys written at column 0 outside any block, by a static line or a printed value.
        const keys = doc.flatMap((n) => (n.k === 'line' && n.line.indent === 0 ? [n.line.text] : n.k === 'hole' && n.indent === 0 ? [n.text] : [])).map((t) => t.split(':')[0]);
        expect(wholeObject || (keys.includes('apiVersion') && keys.includes('kind'))).toBe(true);
      }
    });
  }
});

describe('templates: one metadata partial', () => {
  it('no template but chart/_meta writes an object\'s metadata itself', () => {
    const inline = [...walk(TEMPLATES)].filter((f) => !f.endsWith('_meta.hbs') && /^metadata:/m.test(readFileSync(f, 'utf8')));
    expect(inline.map((f) => relative(TEMPLATES, f))).toEqual([]);
  });
});
