// extraObjects: each entry after the values template evaluator, as its own document. No labels
// are added, as users expect from the Helm chart; a namespaced kind written without a namespace
// gets the chart namespace (model/extra-objects.ts), as every other namespaced object does.

import type { Component } from '../../model/context.ts';
import { expandExtraObjects } from '../../model/extra-objects.ts';
import { tplScope } from '../../model/tpl-scope.ts';
import { list } from '../../model/values-access.ts';
import { chartDocs, RenderError } from './common.ts';

export const extraObjectsComponent: Component = {
  id: 'extra-objects',
  render(ctx) {
    const entries = list(ctx.values, 'extraObjects');
    if (entries.length === 0) return [];
    const { objects, problems } = expandExtraObjects(entries, tplScope(ctx));
    if (problems.length > 0) throw new RenderError(problems.map((p) => p.message).join('; '));
    return objects.flatMap(({ object }) => chartDocs('extra-objects.yaml', 'extra-object.yaml.hbs', { object }));
  },
};
