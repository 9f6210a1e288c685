// Issue 8, property tests, revision B: see _values-property.ts.
import { describeValuesProperty } from './_values-property.ts';

describeValuesProperty('B', 101);
