// Telemetry export: endpoints must be URLs, an enabled signal needs somewhere to go.
//   bad (B): otel.traces.enabled: true with no otel.exporter.otlp.endpoint and no otel.traces.endpoint

import type { ValuesRule } from './types.ts';
import { optBool, optStr } from '../../model/values-access.ts';
import { revisionModel } from '../../model/revisions/index.ts';

export const telemetryRules: ValuesRule = {
  ids: [
    { id: 'values/otel-endpoint-url', description: 'OTLP endpoints are http or https URLs (revision B).' },
    { id: 'values/otel-signal-without-endpoint', description: 'An enabled telemetry signal needs an endpoint.' },
    { id: 'values/otel-sensitive-capture', description: 'Capturing message content or raw API bodies may expose sensitive data (revision B).' },
  ],
  check(ctx) {
    const telemetry = revisionModel(ctx.revision, ctx.values).telemetry;
    for (const path of telemetry.urlPaths) {
      const v = optStr(ctx.values, path);
      if (v && !/^https?:\/\/[^\s/]+/.test(v)) {
        ctx.report({ rule: 'values/otel-endpoint-url', severity: 'error', path, message: `\`${path}\` must be an http or https URL, found ${JSON.stringify(v)}`, hint: 'e.g. http://collector.observability:4317' });
      }
    }
    for (const { enabledPath, endpointPaths } of telemetry.signals) {
      if (optBool(ctx.values, enabledPath) !== true || endpointPaths.some((p) => optStr(ctx.values, p))) continue;
      const [first, own] = endpointPaths;
      ctx.report({
        rule: 'values/otel-signal-without-endpoint',
        severity: 'warning',
        path: enabledPath,
        ...(own === undefined
          ? { message: `\`${enabledPath}\` is true but \`${first}\` is empty`, hint: `set ${first}, e.g. http://collector.observability:4317` }
          : {
              message: `\`${enabledPath}\` is true but neither \`${first}\` nor \`${own}\` is set`,
              hint: `set ${first} for every signal, or the signal’s own endpoint`,
            }),
      });
    }
    for (const path of telemetry.capturePaths) {
      if (optBool(ctx.values, path) === true) {
        ctx.report({ rule: 'values/otel-sensitive-capture', severity: 'info', path, message: `\`${path}\` records prompts and responses in telemetry; they may contain sensitive data` });
      }
    }
  },
};
