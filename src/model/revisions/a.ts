// Revision A (chart 0.10.0) as a typed model: no `global.*` keys, rbac.namespaces alone scopes
// the roles, the controller authenticates to the substrate API with a projected token, and the
// tracing/logging telemetry model.

import type { Values } from '../../values/merge.ts';
import { REVISIONS } from '../../chart/revisions.ts';
import type { RevisionModel } from '../revision-model.ts';
import { imagePolicy } from '../images.ts';
import { at, bool, firstOf, list, map, num, present, sortedPairs, str } from '../values-access.ts';
import { agentImageEnv, scope, stringList, SUBSTRATE_API_SERVER } from './shared.ts';

export function revisionA(values: Values): RevisionModel {
  const v = values;
  const chartVersion = REVISIONS.A.chartVersion;
  const images = imagePolicy(v, { registry: '', pullPolicy: '', pullSecrets: [] });
  const agentImages: Record<string, string> = { ...agentImageEnv(v, images, chartVersion, 'controller.agentImage', 'IMAGE_', true) };
  const secret = str(v, 'controller.agentImage.pullSecret');
  if (secret) agentImages.IMAGE_PULL_SECRET = secret;
  Object.assign(
    agentImages,
    agentImageEnv(v, images, chartVersion, 'controller.skillsInitImage', 'SKILLS_INIT_IMAGE_', true),
    agentImageEnv(v, images, chartVersion, 'controller.goAgentImage', 'GO_IMAGE_', true),
  );

  // As written: the schema reports a value of another type.
  const userTokenFile = at(v, 'controller.substrate.substrateApiTokenFile');

  const agentDefaults: Record<string, string> = {};
  // agent-bind-host-a: explicit host, else :: with ipv6, else the image default 0.0.0.0.
  const host = firstOf(str(v, 'controller.agentDeployment.host'), bool(v, 'ipv6') ? '::' : '');
  if (host) agentDefaults.DEFAULT_AGENT_BIND_HOST = host;
  const sa = str(v, 'controller.agentDeployment.serviceAccountName');
  if (sa) agentDefaults.DEFAULT_SERVICE_ACCOUNT_NAME = sa;
  const labels = map(v, 'controller.agentDeployment.podLabels');
  if (present(labels)) agentDefaults.DEFAULT_AGENT_POD_LABELS = sortedPairs(labels);
  const selector = map(v, 'controller.agentDeployment.nodeSelector');
  if (present(selector)) agentDefaults.DEFAULT_AGENT_NODE_SELECTOR = sortedPairs(selector);

  return {
    revision: 'A',
    chartVersion,
    images,
    controller: {
      serviceAccountName: '',
      serviceAccountCreate: true,
      authModes: REVISIONS.A.authModes,
      env: {
        a2a: (serviceUrl) => ({ A2A_BASE_URL: firstOf(str(v, 'controller.a2aBaseUrl'), serviceUrl) }),
        agentImages,
        retention: { SESSION_RETENTION_DAYS: String(num(v, 'database.rdb.sessionRetentionDays', 0)) },
        toolRefresh: { TOOL_REFRESH_INTERVAL: firstOf(str(v, 'controller.toolRefreshInterval'), '60s') },
        agentDefaults,
      },
    },
    telemetry: {
      env: telemetryEnv(v),
      signals: ['logging', 'tracing'].map((s) => ({ enabledPath: `otel.${s}.enabled`, endpointPaths: [`otel.${s}.exporter.otlp.endpoint`] })),
      urlPaths: [],
      capturePaths: [],
    },
    scope: scope(
      v,
      { namespaces: stringList(list(v, 'rbac.namespaces')), from: 'rbac.namespaces' },
      // controller.watchNamespaces wins over rbac.namespaces in A: a mismatch is allowed, so only a warning.
      { globalWatchNamespaces: [], watchOutsideRoles: 'warning', subchartsScoped: false },
    ),
    substrate: {
      apiServer: {
        namespace: firstOf(str(v, 'controller.substrate.substrateApiServer.namespace'), SUBSTRATE_API_SERVER.namespace),
        serviceAccount: firstOf(str(v, 'controller.substrate.substrateApiServer.serviceAccount'), SUBSTRATE_API_SERVER.serviceAccount),
      },
      auth: {
        kind: 'token',
        tokenFile: firstOf(str(v, 'controller.substrate.substrateApiTokenFile'), '/var/run/secrets/substrate/token'),
        audience: firstOf(str(v, 'controller.substrate.substrateApiTokenAudience'), 'substrate-api'),
        expirationSeconds: num(v, 'controller.substrate.substrateApiTokenExpirationSeconds', 3600),
        insecure: bool(v, 'controller.substrate.substrateApiInsecure'),
      },
      ...(typeof userTokenFile === 'string' ? { userTokenFile } : {}),
      // The WorkerPool of the substrate CRD of A's era: `ateomImage` and one `sandboxClass`.
      workerPool: { imageKey: 'ateomImage', spec: (image, sandboxClass) => ({ ateomImage: image, workerImage: null, sandboxClass, sandboxClasses: null }) },
    },
    ui: {
      basePath: '',
      hasBasePath: false,
      servesConfigJson: false,
      proxiesMcp: false,
      stripsIdentityHeaders: false,
      backendInternalUrl: str(v, 'ui.backendInternalUrl'),
      nextjsCacheSize: firstOf(str(v, 'ui.volumes.nextjsCache'), '100Mi'),
    },
    database: { nodeSelector: {}, tolerations: [], affinity: {}, podLabels: {} },
    metrics: { serviceMonitor: false, scraperServiceAccount: '' },
    bundledAgents: REVISIONS.A.bundledAgents,
  };
}

/** The tracing/logging exporter model: one shared endpoint when both are equal. */
function telemetryEnv(v: Values): Record<string, string> {
  const d: Record<string, string> = {
    OTEL_TRACING_ENABLED: String(bool(v, 'otel.tracing.enabled')),
    OTEL_LOGGING_ENABLED: String(bool(v, 'otel.logging.enabled')),
  };
  const t = str(v, 'otel.tracing.exporter.otlp.endpoint');
  const l = str(v, 'otel.logging.exporter.otlp.endpoint');
  const ti = String(bool(v, 'otel.tracing.exporter.otlp.insecure', true));
  const li = String(bool(v, 'otel.logging.exporter.otlp.insecure', true));
  const tt = String(num(v, 'otel.tracing.exporter.otlp.timeout', 15000));
  const lt = String(num(v, 'otel.logging.exporter.otlp.timeout', 15000));
  const tp = firstOf(str(v, 'otel.tracing.exporter.otlp.protocol'), 'grpc');
  if (t && t === l) {
    Object.assign(d, {
      OTEL_EXPORTER_OTLP_ENDPOINT: t,
      OTEL_EXPORTER_OTLP_PROTOCOL: tp,
      OTEL_EXPORTER_OTLP_TRACES_INSECURE: ti,
      OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: tt,
      OTEL_EXPORTER_OTLP_LOGS_INSECURE: li,
      OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: lt,
    });
    return d;
  }
  if (t) Object.assign(d, { OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: t, OTEL_EXPORTER_OTLP_TRACES_INSECURE: ti, OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: tp, OTEL_EXPORTER_OTLP_TRACES_TIMEOUT: tt });
  if (l) Object.assign(d, { OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: l, OTEL_EXPORTER_OTLP_LOGS_INSECURE: li, OTEL_EXPORTER_OTLP_LOGS_TIMEOUT: lt });
  return d;
}
