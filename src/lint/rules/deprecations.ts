// Keys that still parse but have no effect.
//   warn: controller.streaming: true   (removed in 0.10.0)

import type { ValuesRule } from './types.ts';
import { at } from '../../model/values-access.ts';

export const deprecationRules: ValuesRule = {
  ids: [{ id: 'values/streaming-deprecated', description: 'controller.streaming was removed in chart 0.10.0 and has no effect.' }],
  check(ctx) {
    const v = at(ctx.values, 'controller.streaming');
    if (v === null || v === undefined || v === '') return;
    ctx.report({
      rule: 'values/streaming-deprecated',
      severity: 'warning',
      path: 'controller.streaming',
      message: '`controller.streaming` is deprecated (removed in 0.10.0) and has no effect',
      hint: 'remove it; streaming is chosen per agent (spec.declarative.stream)',
    });
  },
};
