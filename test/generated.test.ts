// What a run reads from dist/generated/ (written by scripts/build.mjs; the package ships it) is
// what the sources make: each value is built here from the sources (the templates, the defaults
// files, the CRD model, the JSON schemas compiled by ajv) and compared with the generated one the
// product reads. A build that writes something else, or a dist/ older than the sources, fails here.
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { computeRuleReads } from '../src/explain/rule-reads-compute.ts';
import { ruleReads } from '../src/explain/rule-reads.ts';
import { computeExplainBases, explainBases } from '../src/explain/explain.ts';
import { loadModelConfigCheck } from '../src/lint/crd-check.ts';
import { crdSchemas, crdValidator } from '../src/crds/crd-validators.ts';
import { CRD_AJV_OPTIONS, prepareCrdAjv } from '../src/kube-check/crd-ajv.ts';
import { coreUri } from '../src/crds/ids.ts';
import { chartCrdDocs, mcpopCrdDocs } from '../src/crds/index.ts';
import { modelChartCrdDocs, modelMcpopCrdDocs } from '../src/crds/model-docs.ts';
import { crdValidationData } from '../src/crds/validation-data.ts';
import { ajvSchemasOf, computeValidationData } from '../src/crds/validation-model.ts';
import { AJV_OPTIONS, prepareAjv } from '../src/lint/ajv-setup.ts';
import { valuesValidator } from '../src/lint/schema-validators.ts';
import { docYaml } from '../src/render/manifests.ts';
import { compileTemplates } from '../src/render/template-program.ts';
import { templateFiles } from '../src/render/template-source.ts';
import { readGenerated } from '../src/package-root.ts';
import type { Revision } from '../src/chart/revisions.ts';
import { unsetKeysOf } from '../src/chart/values-model.ts';
import { defaultsSource, defaultsText } from '../src/values/defaults.ts';
import { defaultsData, defaultsUnsetKeys } from '../src/values/defaults-data.ts';
import type { PathSegment } from '../src/values/source.ts';
import { parseValuesText } from '../src/values/source.ts';
import { ensureBuilt, ROOT } from './cli/binary.ts';
import { failingCorpus } from './crds/failing-corpus.ts';

beforeAll(() => ensureBuilt());

const REVISIONS: Revision[] = ['A', 'B'];

/** Every path of `data` that names a map key or a list item. */
function paths(data: unknown, at: PathSegment[] = []): PathSegment[][] {
  if (Array.isArray(data)) return data.flatMap((v, i) => [[...at, i], ...paths(v, [...at, i])]);
  if (data !== null && typeof data === 'object') return Object.entries(data).flatMap(([k, v]) => [[...at, k], ...paths(v, [...at, k])]);
  return [];
}

/** What a validator reports, without what only ajv's own compilation adds (schema references). */
const errorsOf = (v: ValidateFunction, data: unknown): Partial<ErrorObject>[] => {
  v(data);
  return (v.errors ?? []).map(({ instancePath, schemaPath, keyword, params, message }) => ({ instancePath, schemaPath, keyword, params, message }));
};

describe('the generated files are what the sources make', () => {
  it('the templates: the line programs compiled from templates/**/*.hbs', () => {
    // The file the build wrote, read afresh: the set a render runs keeps what it reads of each line
    // on the line (its memo), so the set in memory differs once any test of this fork has rendered.
    expect(JSON.parse(readGenerated('templates.json'))).toEqual(JSON.parse(JSON.stringify(compileTemplates(templateFiles(join(ROOT, 'templates'))))));
  });

  it.each(REVISIONS)('the defaults of revision %s: the data of values/revision-*.yaml, and every key placed where that file writes it', (rev) => {
    const data = parse(defaultsText(rev), { version: '1.2' }) as Record<string, unknown>;
    expect(defaultsData(rev)).toEqual(data);
    const fromText = parseValuesText(defaultsText(rev), defaultsSource(rev).name).source!;
    const all = paths(data);
    expect(all.length).toBeGreaterThan(100);
    // Line and column (the excerpt is masked where the problem is reported).
    const at = (l: { line?: number; column?: number } | undefined) => (l ? `${l.line}:${l.column}` : 'none');
    const wrong = all.filter((p) => at(defaultsSource(rev).locate(p)) !== at(fromText.locate(p)));
    expect(wrong).toEqual([]);
  });

  it.each(REVISIONS)('the keys the defaults of revision %s leave unset: those of the values model', (rev) => {
    const tree = defaultsUnsetKeys(rev);
    expect(tree).toEqual(unsetKeysOf(rev));
    expect(tree['agentplat-tools']).toHaveProperty('fullnameOverride');
  });

  it('the CRDs: the objects the model builds, printed as the model\'s objects print', () => {
    const model = [...modelChartCrdDocs(), ...modelMcpopCrdDocs()];
    const served = [...chartCrdDocs(), ...mcpopCrdDocs()];
    expect(served.map((d) => d.source)).toEqual(model.map((d) => d.source));
    served.forEach((d, i) => {
      expect(JSON.parse(JSON.stringify(d.object)), d.source).toEqual(JSON.parse(JSON.stringify(model[i]!.object)));
      expect(docYaml(d), d.source).toBe(docYaml(model[i]!));
    });
  });

  it('validate\'s data: the served versions, defaults and CEL rules of the model', () => {
    expect(crdValidationData()).toEqual(JSON.parse(JSON.stringify(computeValidationData())));
  });

  it.each(REVISIONS)('the values validator of revision %s reports what ajv compiling schemas/values-*.schema.json reports, on every lint fixture', (rev) => {
    const schema = JSON.parse(readFileSync(join(ROOT, 'schemas', `values-${rev.toLowerCase()}.schema.json`), 'utf8')) as object;
    const compiled = prepareAjv(new Ajv.default(AJV_OPTIONS)).compile(schema);
    const dir = join(ROOT, 'fixtures', 'lint');
    const inputs = readdirSync(dir)
      .filter((f) => f.endsWith('.yaml'))
      .map((f) => parse(readFileSync(join(dir, f), 'utf8')) as unknown);
    inputs.push(defaultsData(rev));
    let failing = 0;
    for (const data of inputs) {
      const want = errorsOf(compiled, data);
      if (want.length > 0) failing++;
      expect(errorsOf(valuesValidator(rev), data)).toEqual(want);
    }
    expect(failing, 'no fixture fails the schema, so this test compares nothing').toBeGreaterThan(5);
  });

  it('the CRD validators and their schemas: what ajv compiling the model\'s schemas reports, on every failing resource of the CRD tests', () => {
    const ajv = prepareCrdAjv(new Ajv.default(CRD_AJV_OPTIONS));
    const added = new Set<string>();
    const compiled = new Map<string, ValidateFunction>();
    const compile = (kind: string, version: string): ValidateFunction => {
      const key = `${kind}/${version}`;
      if (!compiled.has(key)) {
        const { root, defs } = ajvSchemasOf(kind, version)!;
        for (const [id, def] of Object.entries(defs)) if (!added.has(id) && added.add(id)) ajv.addSchema({ ...def, $id: coreUri(id) });
        compiled.set(key, ajv.compile(root));
      }
      return compiled.get(key)!;
    };
    const data = crdValidationData();
    for (const [kind, k] of Object.entries(data)) for (const version of k.versions) expect(crdSchemas(kind, version), `${kind}/${version}`).toEqual(JSON.parse(JSON.stringify(ajvSchemasOf(kind, version))));
    let failing = 0;
    for (const [name, text] of Object.entries(failingCorpus())) {
      for (const d of parseAllDocuments(text)) {
        let doc: { apiVersion?: unknown; kind?: unknown } | null;
        try {
          doc = d.toJS() as typeof doc;
        } catch {
          continue; // the alias bomb and other YAML errors: validate refuses them before any schema
        }
        if (typeof doc?.apiVersion !== 'string' || typeof doc.kind !== 'string') continue;
        const version = doc.apiVersion.split('/')[1] ?? '';
        if (!data[doc.kind]?.versions.includes(version)) continue;
        const want = errorsOf(compile(doc.kind, version), doc);
        if (want.length > 0) failing++;
        expect(errorsOf(crdValidator(doc.kind, version), doc), name).toEqual(want);
      }
    }
    expect(failing, 'no resource fails its schema, so this test compares nothing').toBeGreaterThan(50);
  });

  it('what each lint check reads and finds on each value set (explain): found by running the checks on the value sets, per revision, with and without the ModelConfig check', async () => {
    const fresh = computeRuleReads(await loadModelConfigCheck());
    expect(Object.keys(fresh).sort()).toEqual(['A', 'A+check', 'B', 'B+check']);
    for (const [id, rows] of Object.entries(fresh)) {
      const [rev, withCheck] = [id[0] as Revision, id.endsWith('+check')];
      const shipped = ruleReads(rev, withCheck ? await loadModelConfigCheck() : undefined).map((r) => ({ ids: [...r.ids], keys: [...r.keys].sort(), sets: [...r.keys].sort().map((k) => r.sets.get(k)), direct: [...r.direct].sort(), base: r.base }));
      expect(shipped, id).toEqual(rows);
    }
    // A check that reads nothing would make this compare nothing; nor would findings no set has.
    expect(fresh.B!.every((r) => r.keys.length > 0)).toBe(true);
    expect(fresh.B!.filter((r) => r.base.some(([none]) => none.length > 0)).length).toBeGreaterThan(3);
  });

  it('whether each render explain compares an example with passes the linter and renders: found by rendering each key\'s switches (and none), per revision', async () => {
    const fresh = computeExplainBases(await loadModelConfigCheck());
    expect(explainBases()).toEqual(fresh);
    // Every switch renders with the companions explain sets with it (the htpasswd file its users, the
    // proxy's Gateway route its Gateway): a base the linter refused would leave the keys under it
    // compared without their switch. Both revisions.
    expect(Object.entries(fresh).filter(([, renders]) => !renders).map(([id]) => id)).toEqual([]);
    expect(Object.values(fresh).filter((renders) => renders).length).toBeGreaterThan(20);
    expect(new Set(Object.keys(fresh).map((id) => id[0]))).toEqual(new Set(['A', 'B']));
  });
});

