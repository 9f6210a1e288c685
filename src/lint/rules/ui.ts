// The UI and its edge proxy: timeouts that must agree, routes that need their references,
// the base path the reverse proxy strips.
//   bad: ui.streamTimeoutSeconds: 60 with ui.edge.proxyReadTimeout: 1800s (the browser gives up first)

import type { ValuesRule } from './types.ts';
import { revisionModel } from '../../model/revisions/index.ts';
import { optBool, optList, optNum, optStr, strings } from '../../model/values-access.ts';
import { durationSeconds } from './read.ts';

const ALWAYS_STRIPPED_IN_TRUSTED_PROXY = ['x-agent-name', 'x-user-id'];
const GATEWAY_API = 'gateway.networking.k8s.io/v1';

export const uiRules: ValuesRule = {
  ids: [
    { id: 'values/stream-timeout-below-proxy-read', description: 'ui.streamTimeoutSeconds should be at least ui.edge.proxyReadTimeout.' },
    { id: 'values/httproute-parent-refs', description: 'ui.httpRoute.parentRefs is required when ui.httpRoute.enabled is true.' },
    { id: 'values/httproute-needs-api', description: 'ui.httpRoute needs the gateway.networking.k8s.io/v1 CRDs in the cluster (warned when the declared APIs lack it).' },
    { id: 'values/base-path', description: 'ui.basePath is a path prefix: it starts with / and does not end with / (revision B).' },
    { id: 'values/forwarded-header-stripped', description: 'In trusted-proxy mode X-Agent-Name and X-User-Id are always stripped, even when listed (revision B).' },
  ],
  check(ctx) {
    const stream = optNum(ctx.values, 'ui.streamTimeoutSeconds');
    const readText = optStr(ctx.values, 'ui.edge.proxyReadTimeout');
    const read = readText !== undefined ? durationSeconds(readText) : undefined;
    if (stream !== undefined && read !== undefined && stream > 0 && stream < read) {
      ctx.report({
        rule: 'values/stream-timeout-below-proxy-read',
        severity: 'warning',
        path: ctx.userSet('ui.streamTimeoutSeconds') ? 'ui.streamTimeoutSeconds' : 'ui.edge.proxyReadTimeout',
        message: `\`ui.streamTimeoutSeconds\` (${stream}s) is below \`ui.edge.proxyReadTimeout\` (${readText}): the browser aborts quiet streaming responses the proxy would still carry`,
        hint: `raise ui.streamTimeoutSeconds to at least ${read}`,
      });
    }
    if (optBool(ctx.values, 'ui.httpRoute.enabled') === true && (optList(ctx.values, 'ui.httpRoute.parentRefs') ?? []).length === 0) {
      ctx.report({
        rule: 'values/httproute-parent-refs',
        severity: 'error',
        path: 'ui.httpRoute.enabled',
        message: '`ui.httpRoute.enabled` is true but `ui.httpRoute.parentRefs` is empty: the route would attach to no Gateway',
        hint: 'add the Gateway, e.g. `ui.httpRoute.parentRefs: [{name: my-gateway, namespace: gateways}]`',
      });
    }
    const apis = ctx.apiVersions;
    if (optBool(ctx.values, 'ui.httpRoute.enabled') === true && apis && apis.length > 0 && !apis.some((a) => a === GATEWAY_API || a.startsWith(`${GATEWAY_API}/`))) {
      ctx.report({
        rule: 'values/httproute-needs-api',
        severity: 'warning',
        path: 'ui.httpRoute.enabled',
        message: `the HTTPRoute needs the ${GATEWAY_API} CRDs, and the declared cluster APIs do not include them: kubectl would refuse it`,
        hint: `install the Gateway API CRDs and pass --api-versions ${GATEWAY_API}, or set ui.httpRoute.enabled: false`,
      });
    }
    const ui = revisionModel(ctx.revision, ctx.values).ui;
    const base = ui.hasBasePath ? optStr(ctx.values, 'ui.basePath') : undefined;
    if (base && (!base.startsWith('/') || (base.length > 1 && base.endsWith('/')) || /[\s?#]/.test(base))) {
      ctx.report({
        rule: 'values/base-path',
        severity: 'error',
        path: 'ui.basePath',
        message: `\`ui.basePath\` ${JSON.stringify(base)} must be a path prefix such as "/ui"`,
        hint: 'start it with "/", end it without "/", no query or fragment',
      });
    }
    if (ui.stripsIdentityHeaders && optStr(ctx.values, 'controller.auth.mode') === 'trusted-proxy') {
      strings(ctx.values, 'ui.additionalForwardedHeaders').forEach((h, i) => {
        if (!ALWAYS_STRIPPED_IN_TRUSTED_PROXY.includes(h.toLowerCase())) return;
        ctx.report({
          rule: 'values/forwarded-header-stripped',
          severity: 'warning',
          path: ['ui', 'additionalForwardedHeaders', i],
          message: `"${h}" is always stripped from client requests in trusted-proxy mode, even when listed`,
          hint: 'remove it from ui.additionalForwardedHeaders; the trusted proxy sets identity headers',
        });
      });
    }
  },
};
