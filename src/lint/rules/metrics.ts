// The controller's metrics endpoint and its ServiceMonitor.
//   bad (B): controller.metrics.serviceMonitor.enabled: true with controller.metrics.enabled: false
//   note:    controller.metrics.enabled: true with bindAddress "0" renders no metrics at all

import type { ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { at, optBool } from '../../model/values-access.ts';
import { MONITORING_API } from '../../chart/cluster-apis.ts';

/** The port a bind address listens on ("" when none): the trailing digits, as the chart derives it. */
export function metricsPort(bindAddress: unknown): string {
  if (typeof bindAddress !== 'string' && typeof bindAddress !== 'number') return '';
  return /(\d+)$/.exec(String(bindAddress))?.[1] ?? '';
}

/** Metrics render only when enabled AND the bind address names a port other than 0. */
export function metricsEnabled(values: unknown): boolean {
  if (optBool(values, 'controller.metrics.enabled') !== true) return false;
  const port = metricsPort(at(values, 'controller.metrics.bindAddress'));
  return port !== '' && Number(port) !== 0;
}


export const metricsRules: ValuesRule = {
  ids: [
    { id: 'values/metrics-disabled-by-bind-address', description: 'A metrics bindAddress of "0" or "" disables metrics even when enabled is true.' },
    { id: 'values/service-monitor-requires-metrics', description: 'controller.metrics.serviceMonitor needs controller.metrics.enabled (revision B).' },
    { id: 'values/service-monitor-needs-api', description: 'The ServiceMonitor renders only when the monitoring.coreos.com/v1 API is declared (revision B).' },
  ],
  check(ctx) {
    const enabled = optBool(ctx.values, 'controller.metrics.enabled') === true;
    const bind = at(ctx.values, 'controller.metrics.bindAddress');
    if (enabled && !metricsEnabled(ctx.values)) {
      ctx.report({
        rule: 'values/metrics-disabled-by-bind-address',
        severity: 'warning',
        path: 'controller.metrics.bindAddress',
        message: `\`controller.metrics.enabled\` is true but \`controller.metrics.bindAddress\` ${JSON.stringify(bind ?? '')} disables metrics: no metrics Service, port or roles are rendered`,
        hint: 'set a bind address with a port such as ":8443", or set controller.metrics.enabled: false',
      });
    }
    if (!revisionModel(ctx.revision, ctx.values).metrics.serviceMonitor) return;
    if (optBool(ctx.values, 'controller.metrics.serviceMonitor.enabled') !== true) return;
    if (!metricsEnabled(ctx.values)) {
      ctx.report({
        rule: 'values/service-monitor-requires-metrics',
        severity: 'error',
        path: 'controller.metrics.serviceMonitor.enabled',
        message: '`controller.metrics.serviceMonitor.enabled` needs the metrics endpoint, which is disabled',
        hint: 'set controller.metrics.enabled: true (with a bindAddress such as ":8443")',
      });
      return;
    }
    // Without the monitoring API the chart renders no ServiceMonitor (a no-op, not a failure);
    // say so when the command knows the declared APIs.
    const apis = ctx.apiVersions;
    if (apis && !apis.some((a) => a === MONITORING_API || a === `${MONITORING_API}/ServiceMonitor`)) {
      ctx.report({
        rule: 'values/service-monitor-needs-api',
        severity: 'warning',
        path: 'controller.metrics.serviceMonitor.enabled',
        message: `no ServiceMonitor is rendered: the cluster API ${MONITORING_API} was not declared`,
        hint: `pass --api-versions ${MONITORING_API} when the cluster runs the monitoring operator`,
      });
    }
  },
};
