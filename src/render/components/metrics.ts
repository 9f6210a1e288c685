// The controller's metrics endpoint: a dedicated Service and, in revision B, a ServiceMonitor
// when it is enabled and the monitoring API is declared (never a failure otherwise).
// The metrics RBAC lives with the other roles (rbac.ts).

import type { Component } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { chartLabels, nameOf, selectorLabels, stringMap } from '../chart.ts';
import { metricsSettings } from '../../model/derive.ts';
import { bool, firstOf, list, map, present, str } from '../../model/values-access.ts';
import { chartDocs, meta } from './common.ts';
import { MONITORING_API } from '../../chart/cluster-apis.ts';

export const metricsComponent: Component = {
  id: 'metrics',
  render(ctx) {
    const m = metricsSettings(ctx);
    if (!m.enabled) return [];
    const docs: RenderedDoc[] = [];
    const name = nameOf(ctx, 'controller-metrics');
    docs.push(
      ...chartDocs('controller-metrics-service.yaml', 'service.yaml.hbs', {
        meta: meta(ctx, name, chartLabels(ctx, 'controller')),
        type: m.serviceType,
        ports: [{ name: m.portName, port: m.servicePort, targetPort: m.port }],
        selector: selectorLabels(ctx, 'controller'),
      }),
    );
    const sm = 'controller.metrics.serviceMonitor';
    if (ctx.model.metrics.serviceMonitor && bool(ctx.values, `${sm}.enabled`) && ctx.capabilities.has(MONITORING_API, 'ServiceMonitor')) {
      const tls = map(ctx.values, `${sm}.tlsConfig`);
      docs.push(
        ...chartDocs('controller-servicemonitor.yaml', 'controller-servicemonitor.yaml.hbs', {
          meta: meta(ctx, name, chartLabels(ctx, 'controller', map(ctx.values, `${sm}.labels`)), stringMap(map(ctx.values, `${sm}.annotations`)), firstOf(str(ctx.values, `${sm}.namespace`), ctx.namespace)),
          selector: selectorLabels(ctx, 'controller'),
          // The scrape target stays in the chart namespace wherever the ServiceMonitor lives.
          matchNames: [ctx.namespace],
          endpoint: {
            port: m.portName,
            interval: str(ctx.values, `${sm}.interval`),
            scrapeTimeout: str(ctx.values, `${sm}.scrapeTimeout`),
            honorLabels: bool(ctx.values, `${sm}.honorLabels`),
            secure: m.secure,
            bearerTokenFile: str(ctx.values, `${sm}.bearerTokenFile`, '/var/run/secrets/kubernetes.io/serviceaccount/token'),
            tlsConfig: present(tls) ? tls : { insecureSkipVerify: true },
            relabelings: list(ctx.values, `${sm}.relabelings`),
            metricRelabelings: list(ctx.values, `${sm}.metricRelabelings`),
          },
        }),
      );
    }
    return docs;
  },
};
