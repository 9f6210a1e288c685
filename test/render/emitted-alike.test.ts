// values/no-effect compares the objects of two renders as `render` writes them without writing
// them (yaml/emit.ts, emittedAlike): it must say "alike" exactly when emitYaml writes the
// same text, for every kind of value an object can hold.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { breathing } from '../helpers/breathe.ts';
import { fcParams, seedTitle } from '../hardening/_seed.ts';
import { emittedAlike, emitYaml } from '../../src/yaml/emit.ts';

// Scalars that write alike while they differ (-0 and 0, null and undefined and NaN, 5 and 5n), and
// strings that look like them, multi-line ones and the empty string.
const scalar = fc.constantFrom<unknown>(0, -0, 5, 5n, 1.5, NaN, Infinity, null, undefined, true, false, '', '5', 'null', 'true', 'a', 'a\nb', 'a\nb\n', 'a\n\n', '{}', '[]', ' a');
const value = fc.letrec((tie) => ({
  node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('node'), { maxLength: 3 }),
  map: fc.dictionary(fc.constantFrom('a', 'b', 'c'), tie('node'), { maxKeys: 3 }),
})).node;

describe('emittedAlike', () => {
  it(`says two values are alike exactly when emitYaml writes them alike ${seedTitle(371, 400)}`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.tuple(value, value),
        breathing(([a, b]: [unknown, unknown]) => {
          const wrapped = (v: unknown) => ({ k: v, l: [v] });
          expect(emittedAlike(wrapped(a), wrapped(b))).toBe(emitYaml(wrapped(a)) === emitYaml(wrapped(b)));
          expect(emittedAlike(a, b)).toBe(emitYaml(a) === emitYaml(b));
        }),
      ),
      fcParams(371, 400),
    );
  });

  it('takes keys holding undefined as absent and key order as written', () => {
    expect(emittedAlike({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(emittedAlike({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
    expect(emittedAlike({ x: -0 }, { x: 0 })).toBe(true);
    expect(emittedAlike({ x: '1' }, { x: 1 })).toBe(false);
  });
});
