// Telemetry export: endpoints must be URLs, an enabled signal needs somewhere to go.
//   bad (B): otel.traces.enabled: true with no otel.exporter.otlp.endpoint and no otel.traces.endpoint

import type { ValuesRule } from './types.ts';
import { bool, str } from './read.ts';

export const telemetryRules: ValuesRule = {
  ids: [
    { id: 'values/otel-endpoint-url', description: 'OTLP endpoints are http or https URLs (revision B).' },
    { id: 'values/otel-signal-without-endpoint', description: 'An enabled telemetry signal needs an endpoint.' },
    { id: 'values/otel-sensitive-capture', description: 'Capturing message content or raw API bodies may expose sensitive data (revision B).' },
  ],
  check(ctx) {
    if (ctx.revision === 'A') {
      for (const signal of ['logging', 'tracing']) {
        if (bool(ctx.values, `otel.${signal}.enabled`) === true && !str(ctx.values, `otel.${signal}.exporter.otlp.endpoint`)) {
          ctx.report({
            rule: 'values/otel-signal-without-endpoint',
            severity: 'warning',
            path: `otel.${signal}.enabled`,
            message: `\`otel.${signal}.enabled\` is true but \`otel.${signal}.exporter.otlp.endpoint\` is empty`,
            hint: `set otel.${signal}.exporter.otlp.endpoint, e.g. http://collector.observability:4317`,
          });
        }
      }
      return;
    }
    const shared = str(ctx.values, 'otel.exporter.otlp.endpoint') ?? '';
    for (const path of ['otel.exporter.otlp.endpoint', 'otel.logs.endpoint', 'otel.metrics.endpoint', 'otel.traces.endpoint']) {
      const v = str(ctx.values, path);
      if (v && !/^https?:\/\/[^\s/]+/.test(v)) {
        ctx.report({ rule: 'values/otel-endpoint-url', severity: 'error', path, message: `\`${path}\` must be an http or https URL, found ${JSON.stringify(v)}`, hint: 'e.g. http://collector.observability:4317' });
      }
    }
    for (const signal of ['logs', 'metrics', 'traces']) {
      if (bool(ctx.values, `otel.${signal}.enabled`) === true && !shared && !str(ctx.values, `otel.${signal}.endpoint`)) {
        ctx.report({
          rule: 'values/otel-signal-without-endpoint',
          severity: 'warning',
          path: `otel.${signal}.enabled`,
          message: `\`otel.${signal}.enabled\` is true but neither \`otel.exporter.otlp.endpoint\` nor \`otel.${signal}.endpoint\` is set`,
          hint: 'set otel.exporter.otlp.endpoint for every signal, or the signal’s own endpoint',
        });
      }
    }
    for (const path of ['otel.capture.messageContent', 'otel.capture.rawApiBodies']) {
      if (bool(ctx.values, path) === true) {
        ctx.report({ rule: 'values/otel-sensitive-capture', severity: 'info', path, message: `\`${path}\` records prompts and responses in telemetry; they may contain sensitive data` });
      }
    }
  },
};
