// Schema messages are written by us: for every validation keyword the values schemas and the CRD
// schemas use, a value that breaks it is run through `lint` and `validate`, and the message names
// the field, the bound and what was found, in our words; no ajv phrasing reaches the user. Every
// other keyword ajv knows is worded too (checked on the sentence function directly), so a schema
// that starts using one cannot leak the validator's text either.
import { readFileSync } from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { lintValues } from '../../src/lint/lint.ts';
import { schemaSentence } from '../../src/problems/schema-wording.ts';
import { crdKinds } from '../../src/kube-check/validate.ts';
import { crdSchemas } from '../../src/crds/crd-validators.ts';
import { REVISION_IDS } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { validateYaml } from '../crds/helpers.ts';
import { buildLimitDoc, LIMITS } from '../crds/limit-cases.ts';

/** What ajv writes when its messages pass through (ajv 8, English). */
const AJV_PHRASING = /must NOT|must be an map|must match pattern|must match format|must be [<>]=|must have required property|must be equal to|must match exactly one schema|must match a schema in anyOf|must pass ".*" keyword|must have property|must be (array|object|string|number|integer|boolean|null)\b|must contain at (least|most)|must match "(then|else)" schema|property name must be valid/;

/** Keywords ajv validates with (anything else in a schema is structure or annotation). */
const VALIDATION_KEYWORDS = [
  'type', 'enum', 'const', 'minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum', 'multipleOf',
  'minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'contains',
  'minProperties', 'maxProperties', 'required', 'additionalProperties', 'dependencies', 'propertyNames',
  'anyOf', 'oneOf', 'not', 'additionalItems', 'if',
];

/** Validation keywords a schema family uses, by walking every node. */
function keywordsOf(schemas: unknown[]): Set<string> {
  const out = new Set<string>();
  const walk = (n: unknown, parentKey?: string): void => {
    if (Array.isArray(n)) return n.forEach((x) => walk(x));
    if (n === null || typeof n !== 'object') return;
    const names = parentKey === 'properties' || parentKey === 'definitions' || parentKey === 'patternProperties';
    for (const [k, v] of Object.entries(n)) {
      if (!names && VALIDATION_KEYWORDS.includes(k)) out.add(k);
      walk(v, names ? undefined : k);
    }
  };
  schemas.forEach((s) => walk(s));
  return out;
}

const valuesSchemas = REVISION_IDS.map((r) => JSON.parse(readFileSync(`schemas/values-${r.toLowerCase()}.schema.json`, 'utf8')) as unknown);
const crdSchemaList = crdKinds().flatMap(({ kind, version }) => {
  const s = crdSchemas(kind, version);
  return [s.root, ...Object.values(s.defs)];
});

/** A values file breaking one keyword, and what its message must say. */
const VALUES_CASES: Record<string, { yaml: string; message: RegExp }> = {
  type: { yaml: 'controller:\n  replicas: two\n', message: /^`controller\.replicas` must be an integer, found "two"$/ },
  enum: { yaml: 'controller:\n  service:\n    type: Ingress\n', message: /^`controller\.service\.type` must be one of "ClusterIP", "NodePort" or "LoadBalancer", found "Ingress"$/ },
  minimum: { yaml: 'controller:\n  replicas: -1\n', message: /^`controller\.replicas` must be at least 0, found -1$/ },
  maximum: { yaml: 'controller:\n  service:\n    ports:\n      port: 70000\n', message: /^`controller\.service\.ports\.port` must be at most 65535, found 70000$/ },
  minLength: { yaml: 'imagePullSecrets: [""]\n', message: /^`imagePullSecrets\[0\]` must be at least 1 character long, found an empty string$/ },
  pattern: { yaml: 'controller:\n  metrics:\n    bindAddress: metrics\n', message: /^`controller\.metrics\.bindAddress` does not have the expected form \(regular expression .+\), found "metrics"$/ },
  required: { yaml: 'controller:\n  env:\n    - value: x\n', message: /^`controller\.env\[0\]\.name` is required here$/ },
  additionalProperties: { yaml: 'controller:\n  replica: 2\n', message: /^unknown key `controller\.replica` in revision [AB]$/ },
  anyOf: { yaml: 'controller:\n  resources:\n    limits:\n      cpu: true\n', message: /^`controller\.resources\.limits\.cpu` must be an? (integer|number) or a string, found true$/ },
};

const limitFor = (keyword: string) => {
  const hit = LIMITS.find(([, l]) => l.keyword === keyword);
  if (!hit) throw new Error(`no section 8 limit uses ${keyword}`);
  return buildLimitDoc(hit[1], true).yaml;
};
const agent = (spec: Record<string, unknown>) => stringify({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name: 'a' }, spec: { type: 'Declarative', declarative: {}, ...spec } });

/** A custom resource breaking one keyword, and what its message must say. */
const CRD_CASES: Record<string, { yaml: () => string; message: RegExp }> = {
  type: { yaml: () => agent({ description: ['x'] }), message: /^Agent a: spec\.description must be a string, found a list of 1 entry$/ },
  enum: { yaml: () => agent({ type: 'Declarativ' }), message: /^Agent a: spec\.type must be one of "Declarative" or "BYO", found "Declarativ"$/ },
  format: { yaml: () => agent({ iconUrl: 'icon.png' }), message: /^Agent a: spec\.iconUrl must be an absolute URI with a scheme, such as .+, found "icon\.png"$/ },
  pattern: { yaml: () => agent({ skills: { objectStoreRefs: [{ uri: 'gs://b/skill' }] } }), message: /spec\.skills\.objectStoreRefs\[0\]\.uri does not have the expected form \(regular expression \^s3:\/\/\.\+\), found "gs:\/\/b\/skill"$/ },
  required: { yaml: () => agent({ provider: { url: 'https://example.com' } }), message: /^Agent a: spec\.provider\.organization is required$/ },
  additionalProperties: { yaml: () => agent({ descripton: 'x' }), message: /^Agent a: unknown field spec\.descripton$/ },
  anyOf: { yaml: () => agent({ declarative: { deployment: { resources: { limits: { cpu: true } } } } }), message: /^Agent a: spec\.declarative\.deployment\.resources\.limits\.cpu must be an integer or a string, found true$/ },
  minimum: { yaml: () => limitFor('minimum'), message: /must be at least -?\d+, found -?\d+$/ },
  exclusiveMaximum: {
    yaml: () => stringify({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'ModelConfig', metadata: { name: 'm' }, spec: { provider: 'ProviderB', model: 'x', providerB: { seed: 2 ** 64 } } }),
    message: /^ModelConfig m: spec\.providerB\.seed must be an integer from -2\^63 to 2\^63-1, found \d+$/,
  },
  maximum: {
    yaml: () => stringify({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name: 'a' }, spec: { type: 'BYO', byo: { deployment: { image: 'ghcr.io/x/y:1', replicas: 2147483648 } } } }),
    message: /^Agent a: spec\.byo\.deployment\.replicas must be at most 2147483647 \(the range of a 32-bit integer, which the Kubernetes field it lands in holds\), found 2147483648$/,
  },
  minItems: { yaml: () => limitFor('minItems'), message: /must have at least \d+ entr(y|ies), found (an empty list|\d+ entr(y|ies))$/ },
  maxItems: { yaml: () => limitFor('maxItems'), message: /must have at most \d+ entr(y|ies), found \d+ entries$/ },
  minLength: { yaml: () => limitFor('minLength'), message: /must be at least \d+ characters? long, found (an empty string|\d+ characters?)$/ },
  maxLength: { yaml: () => limitFor('maxLength'), message: /must be at most \d+ characters long, found \d+ characters$/ },
};

describe('schema messages are written by us, naming the field, the bound and what was found', () => {
  it('every validation keyword of the values schemas has a case, and no case is for an unused keyword', () => {
    expect([...keywordsOf(valuesSchemas)].sort()).toEqual(Object.keys(VALUES_CASES).sort());
  });
  it('every validation keyword of the CRD schemas has a case, and no case is for an unused keyword', () => {
    expect([...keywordsOf(crdSchemaList)].sort()).toEqual(Object.keys(CRD_CASES).sort());
  });

  for (const [keyword, c] of Object.entries(VALUES_CASES)) {
    it(`values lint, ${keyword}`, () => {
      const src = parseValuesText(c.yaml, 'v.yaml').source!;
      const problems = lintValues({ revision: 'B', layers: [src] }).problems.filter((p) => p.rule === 'values/schema' || p.rule === 'values/unknown-key');
      expect(problems.map((p) => p.message)).toEqual([expect.stringMatching(c.message)]);
      for (const p of problems) expect(`${p.message} ${p.hint ?? ''}`).not.toMatch(AJV_PHRASING);
    });
  }

  for (const [keyword, c] of Object.entries(CRD_CASES)) {
    it(`validate, ${keyword}`, async () => {
      const r = await validateYaml(c.yaml());
      const problems = r.problems.filter((p) => p.rule === 'crd/schema' || p.rule === 'crd/unknown-field');
      expect(problems.map((p) => p.message), c.yaml()).toEqual([expect.stringMatching(c.message)]);
      for (const p of problems) expect(`${p.message} ${p.hint ?? ''}`).not.toMatch(AJV_PHRASING);
    });
  }

  describe('every keyword ajv validates with has a sentence of ours', () => {
    const broken: Record<string, [object, unknown]> = {
      type: [{ type: 'object' }, []],
      enum: [{ enum: ['a', 'b'] }, 'c'],
      const: [{ const: 'a' }, 'b'],
      minimum: [{ minimum: 1 }, 0],
      maximum: [{ maximum: 1 }, 2],
      exclusiveMinimum: [{ exclusiveMinimum: 1 }, 1],
      exclusiveMaximum: [{ exclusiveMaximum: 1 }, 1],
      multipleOf: [{ multipleOf: 5 }, 7],
      minLength: [{ minLength: 3 }, 'ab'],
      maxLength: [{ maxLength: 1 }, 'ab'],
      pattern: [{ pattern: '^a' }, 'b'],
      format: [{ format: 'date-time' }, 'yesterday'],
      minItems: [{ minItems: 1 }, []],
      maxItems: [{ maxItems: 1 }, [1, 2]],
      uniqueItems: [{ uniqueItems: true }, [1, 1]],
      contains: [{ contains: { const: 1 } }, [2]],
      minProperties: [{ minProperties: 1 }, {}],
      maxProperties: [{ maxProperties: 1 }, { a: 1, b: 2 }],
      required: [{ required: ['a'] }, {}],
      additionalProperties: [{ additionalProperties: false }, { a: 1 }],
      dependencies: [{ dependencies: { a: ['b'] } }, { a: 1 }],
      propertyNames: [{ propertyNames: { pattern: '^a' } }, { b: 1 }],
      anyOf: [{ anyOf: [{ type: 'string' }, { type: 'integer' }] }, true],
      oneOf: [{ oneOf: [{ type: 'integer' }, { type: 'number' }] }, 1],
      not: [{ not: { type: 'string' } }, 'a'],
      additionalItems: [{ items: [{}], additionalItems: false }, [1, 2]],
      if: [{ if: { const: 1 }, then: { const: 2 } }, 1],
    };
    it('the table covers every validation keyword', () => {
      expect(Object.keys(broken).sort()).toEqual([...VALIDATION_KEYWORDS].sort());
    });
    const ajv = new Ajv.default({ allErrors: true, strict: false });
    (addFormats as unknown as (a: unknown) => void)(ajv);
    for (const [keyword, [schema, value]] of Object.entries(broken)) {
      it(keyword, () => {
        const validate = ajv.compile(schema);
        expect(validate(value)).toBe(false);
        for (const e of validate.errors ?? []) {
          const s = schemaSentence({ keyword: e.keyword, params: e.params as Record<string, unknown>, value });
          expect(s, e.keyword).not.toMatch(AJV_PHRASING);
          expect(s).not.toContain(e.message ?? '\u0000');
        }
      });
    }
  });
});
