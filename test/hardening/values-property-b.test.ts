// Issue 8, property tests, revision B: values generated from the revision's schema (every key,
// random legal values, components on and off) either lint with an error or render objects that
// parse back, validate against their Kubernetes schemas, reference only what exists or what the
// values name, and render byte for byte the same twice (the property: _values-property.ts).
import { describe, expect, it } from 'vitest';
import { generatorCoverage, propertyTitle, runValuesProperty } from './_values-property.ts';

describe('revision B: values generated from the schema lint with an error, or render valid, resolvable, deterministic objects', () => {
  it(propertyTitle(101), async () => {
    const stats = await runValuesProperty('B', 101);
    // Not vacuous: both outcomes occur, and a fair share of the cases gets past lint and renders.
    expect(stats.refused).toBeGreaterThan(0);
    expect(stats.rendered).toBeGreaterThan(0.3 * (stats.rendered + stats.refused));
  });

  it('the generator reaches every key of the schema', () => {
    const { leaves, missed } = generatorCoverage('B');
    expect(leaves.length).toBeGreaterThan(300);
    expect(missed).toEqual([]);
  });
});
