// Values that pass through the template evaluator at render time must evaluate at lint time:
// extraObjects (maps: every string; strings: the whole text, which must then be Kubernetes
// objects), the authproxy extras and the dashboards URL. A template the evaluator cannot run is
// an error here rather than literal `{{ … }}` text in a manifest.

import type { ValuesRule } from './types.ts';
import { expandExtraObjects } from '../../model/extra-objects.ts';
import { evaluateDeep, type TplProblem } from '../../model/tpl.ts';
import { tplScope } from '../../model/tpl-scope.ts';
import { releaseFacts } from '../../model/context.ts';

const RULE = 'values/templated-values';
const SCOPE_RULE = 'values/extra-object-scope';

/** Values paths (besides extraObjects) whose strings are templates. */
export const TEMPLATED_PATHS: readonly string[] = [
  'authproxy.extraEnv', 'authproxy.extraVolumes', 'authproxy.extraArgs', 'authproxy.networkPolicy.ingress', 'authproxy.networkPolicy.egress', 'authproxy.alphaConfig.configFile',
  'dashboards-mcp.grafana.url',
];

export const templatedValuesRules: ValuesRule = {
  ids: [
    { id: RULE, description: 'Template expressions in extraObjects, authproxy extras and the dashboards URL must evaluate' },
    { id: SCOPE_RULE, description: 'An extraObjects entry without metadata.namespace whose kind agentplat cannot tell namespaced or cluster-scoped renders without a namespace.' },
  ],
  check(ctx) {
    const values = ctx.values;
    // The release name is not known at lint time; any name evaluates the same way.
    const scope = tplScope({ ...releaseFacts(values, ctx.revision, 'agentplat', ctx.releaseNamespace ?? 'default'), values });
    const problems: TplProblem[] = [];
    if (Array.isArray(values.extraObjects)) {
      const expanded = expandExtraObjects(values.extraObjects, scope);
      problems.push(...expanded.problems);
      for (const o of expanded.unknownScope) {
        ctx.report({
          rule: SCOPE_RULE,
          severity: 'warning',
          path: ['extraObjects', o.index],
          message: `extraObjects[${o.index}] (${o.kind} ${o.name}, ${o.apiVersion}) has no metadata.namespace and agentplat cannot know whether ${o.kind} is namespaced: it renders without one, so a namespaced kind lands in kubectl's current namespace`,
          hint: `set metadata.namespace (e.g. "{{ .Release.Namespace }}") if ${o.kind} is namespaced; a cluster-scoped kind needs none`,
        });
      }
    }
    const proxyExtra = (values.authproxy as Record<string, unknown> | undefined)?.extraObjects;
    if (Array.isArray(proxyExtra)) problems.push(...expandExtraObjects(proxyExtra, scope, ['authproxy', 'extraObjects']).problems);
    for (const dotted of TEMPLATED_PATHS) {
      const segs = dotted.split('.');
      let cur: unknown = values;
      for (const s of segs) cur = cur !== null && typeof cur === 'object' && !Array.isArray(cur) ? (cur as Record<string, unknown>)[s] : undefined;
      if (cur === undefined) continue;
      const local: TplProblem[] = [];
      evaluateDeep(cur, scope, segs, local);
      for (const p of local) problems.push({ path: p.path, message: `${formatPath(p.path)}: ${p.message}` });
    }
    for (const p of problems) {
      ctx.report({
        rule: RULE,
        severity: 'error',
        path: p.path,
        message: p.message,
        hint: 'values templates take expressions and pipelines over .Release, .Values and .Chart, include "agentplat.fullname" . (and the other agentplat includes), tpl, and Helm\'s and Sprig\'s common functions (toYaml, nindent, printf, b64enc, default, required, …); no if/range/with, and nothing that reads the clock, randomness or the cluster',
      });
    }
  },
};

function formatPath(path: readonly (string | number)[]): string {
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}
