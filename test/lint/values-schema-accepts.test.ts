// lint and render check user values with a walk of the values schema (src/spec/schema-accepts.ts,
// from src/lint/schema-validators.ts) before ajv's generated validator: the walk answers "valid"
// only when sure, and anything else goes to ajv, whose verdict and errors stand. It must never call
// valid what ajv rejects, and it must accept the values people write (else ajv's code is loaded
// anyway and it saves nothing). Both are checked here against ajv, on the values files of the
// fixtures merged over the defaults, and on thousands of edited ones.
import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { valuesSchemaAccepts, valuesValidator } from '../../src/lint/schema-validators.ts';
import type { Revision } from '../../src/spec/revisions.ts';
import { bigIntsAsNumbers } from '../../src/values/big-integers.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { layerRelease } from '../../src/values/replace.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { ROOT } from '../cli/binary.ts';
import { fcParams, runs, seedTitle } from '../hardening/_seed.ts';
import { breathing } from '../helpers/breathe.ts';
import { editedOneOf } from '../helpers/json-edits.ts';

/** The merged values of each values file of fixtures/render, with its revision (args.json). */
function fixtureValues(): { name: string; revision: Revision; values: unknown }[] {
  const dir = join(ROOT, 'fixtures', 'render');
  return readdirSync(dir).map((name) => {
    const { revision } = JSON.parse(readFileSync(join(dir, name, 'args.json'), 'utf8')) as { revision: Revision };
    const source = parseValuesText(readFileSync(join(dir, name, 'values.yaml'), 'utf8'), `${name}/values.yaml`).source!;
    return { name, revision, values: layerRelease(defaultsSource(revision), [source]).values };
  });
}

const verdicts = (revision: Revision, values: unknown) => {
  const typed = bigIntsAsNumbers(values);
  return { walker: valuesSchemaAccepts(revision, typed), ajv: valuesValidator(revision)(typed) as boolean };
};

const FIXTURES = fixtureValues();

describe('values schema walker: a quick "valid" that never disagrees with ajv', () => {
  it('accepts the values of every render fixture of both revisions, as ajv does', () => {
    expect(new Set(FIXTURES.map((f) => f.revision))).toEqual(new Set(['A', 'B']));
    for (const f of FIXTURES) expect(verdicts(f.revision, f.values), f.name).toEqual({ walker: true, ajv: true });
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
