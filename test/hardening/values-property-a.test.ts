// Issue 8, property tests, revision A: see _values-property.ts.
import { describeValuesProperty } from './_values-property.ts';

describeValuesProperty('A', 100);
