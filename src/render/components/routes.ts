// Ways in to the UI: the platform Route (route-gating: ui.route.enabled AND the
// route.openshift.io/v1 API declared) and the Gateway API HTTPRoute (ui.httpRoute.enabled).

import type { Component } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { chartLabels, stringMap, uiName } from '../chart.ts';
import { at, bool, list, map, present, type Json, type JsonMap } from '../../model/values-access.ts';
import { chartDocs, meta } from './common.ts';
import { ROUTE_API } from '../../chart/cluster-apis.ts';

export const routesComponent: Component = {
  id: 'routes',
  render(ctx) {
    const v = ctx.values;
    const docs: RenderedDoc[] = [];
    const name = uiName(ctx);
    const port = at(v, 'ui.service.ports.port') ?? 8080;
    if (bool(v, 'ui.route.enabled', true) && ctx.capabilities.has(ROUTE_API, 'Route')) {
      docs.push(
        ...chartDocs('openshift-route.yaml', 'openshift-route.yaml.hbs', {
          meta: meta(ctx, name, chartLabels(ctx, 'ui'), stringMap(map(v, 'ui.altRoute.annotations'))),
          serviceName: name,
          // A Route's numeric targetPort names the port on the pods behind the Service (the
          // router matches endpoints), so it is the UI container port, not the Service port.
          targetPort: at(v, 'ui.service.ports.targetPort') ?? port,
        }),
      );
    }
    if (bool(v, 'ui.httpRoute.enabled')) {
      const rules = list(v, 'ui.httpRoute.rules');
      const defaultBackend = [{ group: '', kind: 'Service', name, port, weight: 1 }];
      // httproute-default-backend: a rule without backendRefs goes to the UI Service; an empty
      // rule list is one rule with the default backend (a route must route somewhere).
      const out = (rules.length > 0 ? rules : [{}]).map((r) => {
        const rule = (r !== null && typeof r === 'object' && !Array.isArray(r) ? r : {}) as JsonMap;
        return {
          backendRefs: present(rule.backendRefs) ? rule.backendRefs : defaultBackend,
          matches: (rule.matches ?? null) as Json,
          filters: (rule.filters ?? null) as Json,
          timeouts: (rule.timeouts ?? null) as Json,
        };
      });
      docs.push(
        ...chartDocs('ui-httproute.yaml', 'ui-httproute.yaml.hbs', {
          meta: meta(ctx, name, chartLabels(ctx, 'ui', map(v, 'ui.httpRoute.labels')), stringMap(map(v, 'ui.httpRoute.annotations'))),
          parentRefs: list(v, 'ui.httpRoute.parentRefs'),
          hostnames: list(v, 'ui.httpRoute.hostnames'),
          rules: out,
        }),
      );
    }
    return docs;
  },
};
