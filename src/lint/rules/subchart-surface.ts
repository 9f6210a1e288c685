// Rules of the tools server's and the MCP operator's own keys (docs/values.md, "Sub-chart values"): values
// the schema accepts but that would give a manifest the cluster refuses or a setting that does
// nothing.
//   bad:  agentplat-tools.rbac.namespaces: [team-a]        (the server's own namespace has no role)
//   good: agentplat-tools.rbac.namespaces: [agentplat, team-a]
//   bad:  agentplat-tools.tools.metrics.servicemonitor.enabled: true  without --api-versions monitoring.coreos.com/v1

import type { RuleContext, ValuesRule } from './types.ts';
import { at, optStr, strings } from '../../model/values-access.ts';
import { assumedNamespaceNote, namespaceFix } from './release-namespace.ts';
import { MONITORING_API } from '../../chart/cluster-apis.ts';

const NAMESPACES_RULE = 'values/subchart-rbac-namespace';
const MONITOR_RULE = 'values/tools-service-monitor-needs-api';
const READ_ONLY_RULE = 'values/tools-rbac-read-only-only';
const IMAGE_ALIAS_RULE = 'values/tools-image-alias';
const NO_EFFECT_RULE = 'values/no-effect';

/**
 * Keys the pinned sub-charts' templates read without effect (tools chart 0.2.1, MCP operator
 * chart v0.3.0): accepted so that values written for those charts lint, and warned about where set.
 */
const NO_EFFECT: readonly { path: string; why: string }[] = [
  { path: 'agentplat-tools.tools.prometheus', why: 'the pinned tools chart (0.2.1) passes no Prometheus settings to the server' },
  { path: 'agentplat-tools.tools.grafana', why: 'the pinned tools chart (0.2.1) passes no dashboards settings to the server' },
  { path: 'mcpop.controller.metrics.secureServing', why: 'the operator always serves its metrics over HTTPS with authorized scrapes' },
];

/**
 * The namespace a sub-chart's objects go to: its own namespaceOverride, else the top-level one,
 * else the release namespace (undefined when the command does not know it).
 */
function homeNamespace(ctx: RuleContext, chart: string): { ns: string | undefined; from: string; release?: true } {
  const own = optStr(ctx.values, `${chart}.namespaceOverride`);
  if (own) return { ns: own, from: `${chart}.namespaceOverride` };
  const top = optStr(ctx.values, 'namespaceOverride');
  if (top) return { ns: top, from: 'namespaceOverride' };
  return { ns: ctx.releaseNamespace, from: 'the release namespace', release: true };
}

function checkRoleNamespaces(ctx: RuleContext, chart: string, what: string): void {
  if (at(ctx.values, `${chart}.enabled`) !== true) return;
  const listed = strings(ctx.values, `${chart}.rbac.namespaces`);
  if (listed.length === 0) return;
  const home = homeNamespace(ctx, chart);
  if (!home.ns || listed.includes(home.ns)) return;
  const fix = `add "${home.ns}" to \`${chart}.rbac.namespaces\`, or leave the list empty for cluster-wide roles`;
  ctx.report({
    rule: NAMESPACES_RULE,
    severity: 'error',
    path: `${chart}.rbac.namespaces`,
    message: `\`${chart}.rbac.namespaces\` does not list "${home.ns}" (${home.from}), where the ${what} runs; its chart refuses to render without a role there${home.release ? assumedNamespaceNote(ctx) : ''}`,
    hint: home.release ? namespaceFix(ctx, fix) : fix,
  });
}

export const subchartSurfaceRules: ValuesRule = {
  ids: [
    { id: NAMESPACES_RULE, description: "agentplat-tools.rbac.namespaces and mcpop.rbac.namespaces must list the sub-chart's own namespace" },
    { id: MONITOR_RULE, description: 'The tools server ServiceMonitor renders only when the monitoring.coreos.com/v1 API is declared' },
    { id: READ_ONLY_RULE, description: 'agentplat-tools.rbac.allowSecrets and additionalRules take effect only with rbac.readOnly' },
    { id: IMAGE_ALIAS_RULE, description: 'agentplat-tools.image.* is an alias of agentplat-tools.tools.image.*; setting one part in both with different values keeps the alias' },
    { id: NO_EFFECT_RULE, description: 'A key the values set changes nothing rendered: nothing reads it in this configuration (its switch is off, another block is the default), another setting decides in its place, or a pinned sub-chart reads it without effect (lint, unless --no-effects)' },
  ],
  check(ctx) {
    for (const { path, why } of NO_EFFECT) {
      // A null the user wrote removes the key (values/merge.ts): nothing is set then.
      if (!ctx.userSet(path) || at(ctx.values, path) === undefined) continue;
      ctx.report({ rule: NO_EFFECT_RULE, severity: 'warning', path, message: `\`${path}\` has no effect: ${why}`, hint: 'remove the key; nothing renders from it' });
    }
    checkRoleNamespaces(ctx, 'agentplat-tools', 'tools server');
    checkRoleNamespaces(ctx, 'mcpop', 'MCP operator');
    const tools = (p: string) => at(ctx.values, `agentplat-tools.${p}`);
    if (tools('enabled') !== true) return;
    const apis = ctx.apiVersions;
    if (tools('tools.metrics.servicemonitor.enabled') === true && apis && !apis.some((a) => a === MONITORING_API || a === `${MONITORING_API}/ServiceMonitor`)) {
      ctx.report({
        rule: MONITOR_RULE,
        severity: 'warning',
        path: 'agentplat-tools.tools.metrics.servicemonitor.enabled',
        message: `no tools server ServiceMonitor is rendered: the cluster API ${MONITORING_API} was not declared`,
        hint: `pass --api-versions ${MONITORING_API} when the cluster runs the monitoring operator`,
      });
    }
    if (tools('rbac.readOnly') !== true) {
      for (const key of ['allowSecrets', 'additionalRules'] as const) {
        const v = tools(`rbac.${key}`);
        if (v === true || (Array.isArray(v) && v.length > 0)) {
          ctx.report({
            rule: READ_ONLY_RULE,
            severity: 'warning',
            path: `agentplat-tools.rbac.${key}`,
            message: `\`agentplat-tools.rbac.${key}\` has no effect: the tools server has full access unless rbac.readOnly is true`,
            hint: 'set agentplat-tools.rbac.readOnly: true, or remove the key',
          });
        }
      }
    }
    for (const part of ['registry', 'repository', 'tag', 'pullPolicy']) {
      const alias = optStr(ctx.values, `agentplat-tools.image.${part}`);
      const own = `agentplat-tools.tools.image.${part}`;
      if (alias && ctx.userSet(own) && optStr(ctx.values, own) && optStr(ctx.values, own) !== alias) {
        ctx.report({
          rule: IMAGE_ALIAS_RULE,
          severity: 'warning',
          path: `agentplat-tools.image.${part}`,
          message: `\`agentplat-tools.image.${part}\` and \`${own}\` are both set; the first one is used`,
          hint: 'keep one of the two (agentplat-tools.image.* is an alias of agentplat-tools.tools.image.*)',
        });
      }
    }
  },
};
