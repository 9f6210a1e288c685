// lint and render check user values with a walk of the values schema (src/chart/schema-accepts.ts,
// from src/lint/schema-validators.ts) before ajv's generated validator: the walk answers "valid"
// only when sure, and anything else goes to ajv, whose verdict and errors stand. It must never call
// valid what ajv rejects, and it must accept the values people write (else ajv's code is loaded
// anyway and it saves nothing). Both are checked here against ajv, on the values files of the
// fixtures merged over the defaults, and on thousands of edited ones: edited after the merge (the
// whole tree walked), and edited in the user's file before it (only the paths the file writes
// walked, the rest being the defaults, which must then be valid).
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { touchedBy, valuesSchemaAccepts, valuesValidator } from '../../src/lint/schema-validators.ts';
import { schemaAccepts, type Touched } from '../../src/chart/schema-accepts.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { bigIntsAsNumbers } from '../../src/values/big-integers.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { layerRelease } from '../../src/values/replace.ts';
import { parseValuesText, type ValuesSource } from '../../src/values/source.ts';
import { ROOT } from '../cli/binary.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';
import { editedOneOf } from '../helpers/json-edits.ts';

/** Each values file of fixtures/render, with its revision (args.json), its data and the values merged over the defaults. */
function fixtureValues(): { name: string; revision: Revision; data: Record<string, unknown>; values: unknown }[] {
  const dir = join(ROOT, 'fixtures', 'render');
  return readdirSync(dir).map((name) => {
    const { revision } = JSON.parse(readFileSync(join(dir, name, 'args.json'), 'utf8')) as { revision: Revision };
    const source = parseValuesText(readFileSync(join(dir, name, 'values.yaml'), 'utf8'), `${name}/values.yaml`).source!;
    return { name, revision, data: source.data, values: layerRelease(defaultsSource(revision), [source]).values };
  });
}

const verdicts = (revision: Revision, values: unknown, touched?: Touched) => {
  const typed = bigIntsAsNumbers(values);
  return { walker: valuesSchemaAccepts(revision, typed, touched), ajv: valuesValidator(revision)(typed) as boolean };
};

/** A user's values file holding `data`, merged over the defaults as lint merges it, and the paths it writes. */
const asUserFile = (revision: Revision, data: unknown) => {
  const source: ValuesSource = { name: 'user.yaml', data: data as Record<string, unknown>, locate: () => undefined };
  return { values: layerRelease(defaultsSource(revision), [source]).values, touched: touchedBy([source]) };
};

const FIXTURES = fixtureValues();

describe('values schema walker: a quick "valid" that never disagrees with ajv', () => {
  it('accepts the values of every render fixture of both revisions, as ajv does, walking the whole tree or only what the file writes', () => {
    expect(new Set(FIXTURES.map((f) => f.revision))).toEqual(new Set(['A', 'B']));
    for (const f of FIXTURES) {
      expect(verdicts(f.revision, f.values), f.name).toEqual({ walker: true, ajv: true });
      const user = asUserFile(f.revision, f.data);
      expect(verdicts(f.revision, user.values, user.touched), `${f.name}, its paths`).toEqual({ walker: true, ajv: true });
    }
  });

  it.each(['A', 'B'] as const)('revision %s: the defaults, merged as lint merges them, are valid (the walk of the written paths alone takes them so)', (revision) => {
    expect(verdicts(revision, layerRelease(defaultsSource(revision), []).values)).toEqual({ walker: true, ajv: true });
  });

  it.each(['A', 'B'] as const)(`revision %s: edits in the user's file, only its paths walked: never valid where ajv rejects the merged values (${seedTitle(48, 6_000)})`, async (revision) => {
    const files = FIXTURES.filter((f) => f.revision === revision).map((f) => f.data);
    let both = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(editedOneOf(files), breathing((data) => {
        if (data === null || typeof data !== 'object' || Array.isArray(data)) return;
        const user = asUserFile(revision, data);
        const v = verdicts(revision, user.values, user.touched);
        if (v.walker) expect(v.ajv, `the walker accepted what ajv rejects: ${JSON.stringify(data)}`).toBe(true);
        if (v.walker && v.ajv) both++;
        else if (!v.ajv) rejected++;
      })),
      fcParams(48, 6_000),
    );
    expect(both).toBeGreaterThan(runs(6_000) / 10);
    expect(rejected).toBeGreaterThan(runs(6_000) / 10);
  });

  const RUNS = 6_000;
  it.each(['A', 'B'] as const)(`revision %s: never accepts edited values that ajv rejects, and agrees with ajv on nearly all (${seedTitle(47, RUNS)})`, async (revision) => {
    const docs = FIXTURES.filter((f) => f.revision === revision).map((f) => f.values);
    let both = 0;
    let asked = 0;
    let rejected = 0;
    await fc.assert(
      fc.asyncProperty(editedOneOf(docs), breathing((values) => {
        const v = verdicts(revision, values);
        if (v.walker) expect(v.ajv, `the walker accepted what ajv rejects: ${JSON.stringify(values)}`).toBe(true);
        if (v.walker && v.ajv) both++;
        else if (v.ajv) asked++;
        else rejected++;
      })),
      fcParams(47, RUNS),
    );
    expect(both).toBeGreaterThan(runs(RUNS) / 10);
    expect(rejected).toBeGreaterThan(runs(RUNS) / 10);
    expect(asked).toBeLessThan(both / 100);
  });
});

describe('the walk of the written paths alone', () => {
  // Known valid: { a: { x: 1 } } (the second branch). The user writes a.k: under the first branch
  // x must be a string; the second takes no k. The merged values are invalid, which a walk that
  // skipped x inside the first branch would miss.
  const schema = {
    type: 'object',
    properties: {
      a: JSON.stringify({
        anyOf: [
          { type: 'object', properties: { x: { type: 'string' }, k: { type: 'string' } }, required: ['k'] },
          { type: 'object', properties: { x: { type: 'integer' } }, additionalProperties: false },
        ],
      }),
    },
  };
  const touched: Touched = new Map([['a', new Map([['k', 'all' as const]])]]);

  it('walks everything below an anyOf, where the schema of a value is not fixed by its path', () => {
    expect(schemaAccepts(schema, { defs: {} }, { a: { x: 1, k: 'v' } }, touched)).toBe(false);
    expect(schemaAccepts(schema, { defs: {} }, { a: { x: 's', k: 'v' } }, touched)).toBe(true);
  });

  it('takes a key the user did not write as valid, and checks every keyword of the objects on the written paths', () => {
    const plain = { type: 'object', properties: { a: { type: 'object', properties: { x: { type: 'integer' }, k: { type: 'string' } }, required: ['x'], additionalProperties: false } } };
    expect(schemaAccepts(plain, { defs: {} }, { a: { x: 'known valid', k: 'v' } }, touched)).toBe(true);
    expect(schemaAccepts(plain, { defs: {} }, { a: { k: 'v' } }, touched)).toBe(false);
    expect(schemaAccepts(plain, { defs: {} }, { a: { x: 1, k: 2 } }, touched)).toBe(false);
  });
});
