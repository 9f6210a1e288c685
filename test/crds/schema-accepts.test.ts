// Issue 7, validate: the schema walker (src/chart/schema-accepts.ts) answers "valid" quickly for the
// usual document and leaves everything else to ajv. It must never call valid what ajv rejects, and
// it must accept the documents people write (else it saves nothing). Both are checked here against
// ajv itself, on the example resources and on tens of thousands of edited ones.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { crdSchemas, crdValidator } from '../../src/crds/crd-validators.ts';
import { schemaAccepts } from '../../src/chart/schema-accepts.ts';
import { crdFormatOk } from '../../src/kube-check/formats.ts';
import { applyDefaults } from '../../src/kube-check/decode.ts';
import { crdValidationData } from '../../src/crds/validation-data.ts';
import { GROUP } from '../../src/crds/ids.ts';
import { OBJECTS } from '../hardening/_resource-arb.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';
import { editedOneOf } from '../helpers/json-edits.ts';

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
  return { walker: schemaAccepts(root, { defs, format: crdFormatOk }, doc), ajv: crdValidator(kind, version)(doc) as boolean };
}

/** An example resource with up to five edits anywhere in it. */
const edited = editedOneOf(OBJECTS);

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
    expect(schemaAccepts({ type: 'string', multipleOf: 2 } as never, { defs: {}, format: crdFormatOk }, 'x')).toBe(false);
    expect(schemaAccepts({ $ref: 'https://agentplat.dev/schemas/k8s/Missing.json' } as never, { defs: {}, format: crdFormatOk }, {})).toBe(false);
    expect(schemaAccepts({ type: 'string', format: 'email' } as never, { defs: {}, format: crdFormatOk }, 'a@b.c')).toBe(false);
    expect(schemaAccepts({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false } as never, { defs: {}, format: crdFormatOk }, { a: 1 })).toBe(true);
    expect(schemaAccepts({ type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false } as never, { defs: {}, format: crdFormatOk }, { a: 1, b: 2 })).toBe(false);
  });
});
