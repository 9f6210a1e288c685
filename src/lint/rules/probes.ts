// Probe overrides of the controller and the UI: a value replaces the default probe entirely (it
// is not merged into it), so it must bring its own handler, exactly one, or the API server
// rejects the Deployment.
//   bad:  controller.readinessProbe: {periodSeconds: 10}
//   good: controller.readinessProbe: {httpGet: {path: /health, port: http}, periodSeconds: 10}

import type { ValuesRule } from './types.ts';
import { optMap } from '../../model/values-access.ts';

const PROBES = ['controller.readinessProbe', 'controller.startupProbe', 'ui.readinessProbe', 'ui.startupProbe'];
const HANDLERS = ['httpGet', 'exec', 'tcpSocket', 'grpc'];

export const probeRules: ValuesRule = {
  ids: [{ id: 'values/probe-handler', description: 'A probe override replaces the default entirely, so it needs exactly one handler (httpGet, exec, tcpSocket or grpc)' }],
  check(ctx) {
    for (const path of PROBES) {
      const probe = optMap(ctx.values, path);
      // An empty or absent probe keeps the default (the renderer falls back to it).
      if (!probe || Object.keys(probe).length === 0) continue;
      const handlers = HANDLERS.filter((h) => probe[h] !== undefined && probe[h] !== null);
      if (handlers.length === 1) continue;
      ctx.report({
        rule: 'values/probe-handler',
        severity: 'error',
        path,
        message:
          handlers.length === 0
            ? `\`${path}\` has no handler: a probe you set replaces the default entirely, and the API server rejects a probe without httpGet, exec, tcpSocket or grpc`
            : `\`${path}\` has ${handlers.length} handlers (${handlers.join(', ')}): the API server accepts exactly one`,
        hint: handlers.length === 0 ? 'add the handler next to your settings, e.g. `httpGet: {path: /health, port: http}` as in the default' : `keep one of ${handlers.join(', ')}`,
      });
    }
  },
};
