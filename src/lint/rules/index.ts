// Every cross-field values rule, in the order they run.
import type { ValuesRule } from './types.ts';

export const RULES: readonly ValuesRule[] = [];
