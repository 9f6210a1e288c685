// Issue 7, validate: the schema walker (src/crds/schema-accepts.ts) answers "valid" quickly for the
// usual document and leaves everything else to ajv. It must never call valid what ajv rejects, and
// it must accept the documents people write (else it saves nothing). Both are checked here against
// ajv itself, on the example resources and on tens of thousands of edited ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crdSchemas, crdValidator } from '../../src/crds/crd-validators.ts';
import { schemaAccepts } from '../../src/crds/schema-accepts.ts';
import { applyDefaults } from '../../src/crds/validate.ts';
import { crdValidationData } from '../../src/crds/validation-data.ts';
import { GROUP } from '../../src/crds/ids.ts';
import { OBJECTS } from '../hardening/_resource-arb.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';

type Json = unknown;

/** Both verdicts for a document of a served kind, after defaults as validate applies them; undefined otherwise. */
function verdicts(doc: Json): { walker: boolean; ajv: boolean } | undefined {
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) return undefined;
  const { apiVersion, kind } = doc as { apiVersion?: unknown; kind?: unknown };
  if (typeof apiVersion !== 'string' || typeof kind !== 'string' || !apiVersion.startsWith(`${GROUP}/`)) return undefined;
  const version = apiVersion.slice(GROUP.length + 1);
  const crd = Object.hasOwn(crdValidationData(), kind) ? crdValidationData()[kind] : undefined;
  if (!crd || !crd.versions.includes(version)) return undefined;
  applyDefaults(crd.walk[version]!, doc);
  const { root, defs } = crdSchemas(kind, version);
  return { walker: schemaAccepts(root, defs, doc), ajv: crdValidator(kind, version)(doc) as boolean };
}

/** Values that probe every keyword: non-finite and fractional numbers, lengths, code points, dates, URIs. */
const probe: fc.Arbitrary<Json> = fc.oneof(
  fc.jsonValue({ maxDepth: 2 }),
  fc.constantFrom(NaN, Infinity, -Infinity, -0, 0.5, -1, 2 ** 31, 2 ** 53 + 2, 1e308),
  fc.constantFrom('', 'x', 'a'.repeat(64), 'a'.repeat(254), 'a'.repeat(256), '😀'.repeat(63), '😀'.repeat(64), '\ud800', 'é'.repeat(300)),
  fc.constantFrom('2024-01-01T00:00:00Z', '2024-02-30T00:00:00Z', '2024-01-01', 'not a date', 'http://example.com/x', 'https://a.b/c?d#e', 'ftp:x', 'no scheme', 's3://bucket/key', 'urn:x'),
  fc.constantFrom('Declarative', 'BYO', 'ProviderB', 'ServiceAccountExchange', 'IfNotPresent', 'TCP', 'Exists'),
  fc.array(fc.string(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.string(), { maxKeys: 2 }),
);

/** Every [container, key] of a tree, in a stable order. */
function slots(root: Json): [Record<string, Json> | Json[], string | number][] {
  const out: [Record<string, Json> | Json[], string | number][] = [];
  const walk = (v: Json): void => {
    if (Array.isArray(v)) v.forEach((x, i) => (out.push([v, i]), walk(x)));
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) (out.push([v as Record<string, Json>, k]), walk(x));
  };
  walk(root);
  return out;
}

const edit = fc.record({
  op: fc.constantFrom('replace', 'delete', 'add', 'duplicate'),
  where: fc.nat(),
  value: probe,
  key: fc.constantFrom('unknownField', 'name', 'type', 'value', 'image', 'x'),
  // Copies a duplicated list item gets: past the schemas' maxItems too.
  copies: fc.constantFrom(1, 2, 30),
});

/** An example resource with up to five edits anywhere in it. */
const edited = fc.tuple(fc.constantFrom(...OBJECTS), fc.array(edit, { minLength: 1, maxLength: 5 })).map(([o, edits]) => {
  const doc = structuredClone(o);
  for (const e of edits) {
    const all = slots(doc);
    if (all.length === 0) break;
    const [container, key] = all[e.where % all.length]!;
    const c = container as Record<string | number, Json>;
    if (e.op === 'replace') c[key] = e.value;
    else if (e.op === 'delete') {
      if (Array.isArray(container)) container.splice(key as number, 1);
      else delete c[key];
    } else if (e.op === 'add') {
      const target = c[key];
      if (target !== null && typeof target === 'object' && !Array.isArray(target)) (target as Record<string, Json>)[e.key] = e.value;
    } else if (Array.isArray(c[key])) for (let i = 0; i < e.copies; i++) (c[key] as Json[]).push(structuredClone((c[key] as Json[])[0] ?? e.value));
  }
  return doc;
});

describe('schema walker: a quick "valid" that never disagrees with ajv', () => {
  it('accepts every example resource, as ajv does (fixtures/resources)', () => {
    const checked = OBJECTS.map((o) => verdicts(structuredClone(o))).filter((v) => v !== undefined);
    expect(checked.length).toBeGreaterThan(5);
    for (const v of checked) expect(v).toEqual({ walker: true, ajv: true });
  });

  const RUNS = 20_000;
  it(`never accepts an edited resource that ajv rejects, and agrees with ajv on nearly all (${seedTitle(31, RUNS)})`, async () => {
    let both = 0;
    let asked = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(edited, breathing((doc) => {
        const v = verdicts(doc);
        if (!v) return;
        if (v.walker) expect(v.ajv, `the walker accepted what ajv rejects: ${JSON.stringify(doc)}`).toBe(true);
        if (v.walker && v.ajv) both++;
        else if (v.ajv) asked++;
        else rejected++;
      })),
      fcParams(31, RUNS),
    );
    // Both kinds of edits are common, and the walker hands ajv almost no valid document.
    expect(both).toBeGreaterThan(runs(RUNS) / 10);
    expect(rejected).toBeGreaterThan(RUNS / 10);
    expect(asked).toBeLessThan(both / 100);
  });

  it('a keyword it does not know, a reference it cannot follow or a format it does not have: "ask ajv"', () => {
    expect(schemaAccepts({ type: 'string', multipleOf: 2 } as never, {}, 'x')).toBe(false);
    expect(schemaAccepts({ $ref: 'https://agentplat.dev/schemas/k8s/Missing.json' } as never, {}, {})).toBe(false);
    expect(schemaAccepts({ type: 'string', format: 'email' } as never, {}, 'a@b.c')).toBe(false);
    expect(schemaAccepts({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false } as never, {}, { a: 1 })).toBe(true);
    expect(schemaAccepts({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false } as never, {}, { a: 1, b: 2 })).toBe(false);
  });
});
