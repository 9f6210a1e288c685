// Revision B (chart 0.11.0) as a typed model: the `global.*` image keys and watch scope, the
// controller's own ServiceAccount keys, one shared OTLP exporter with per-signal switches,
// sandboxes, pod-certificate authentication to the substrate API, the UI base path.

import type { Values } from '../../values/merge.ts';
import { REVISIONS } from '../../chart/revisions.ts';
import type { RevisionModel } from '../revision-model.ts';
import { composeImage, imagePolicy } from '../images.ts';
import { at, bool, firstOf, list, map, present, sortedPairs, str } from '../values-access.ts';
import { agentImageEnv, scope, stringList, SUBSTRATE_API_SERVER } from './shared.ts';

export function revisionB(values: Values): RevisionModel {
  const v = values;
  const chartVersion = REVISIONS.B.chartVersion;
  const images = imagePolicy(v, {
    registry: str(v, 'global.imageRegistry'),
    pullPolicy: str(v, 'global.imagePullPolicy'),
    pullSecrets: list(v, 'global.imagePullSecrets'),
  });

  const agentDefaults: Record<string, string> = {};
  if (bool(v, 'ipv6')) agentDefaults.DEFAULT_AGENT_BIND_HOST = '::';
  agentDefaults.SANDBOX_CPU = firstOf(str(v, 'controller.sandbox.cpu'), '1');
  agentDefaults.SANDBOX_MEMORY = firstOf(str(v, 'controller.sandbox.memory'), '1Gi');
  agentDefaults.SANDBOX_DEFAULT_TTL = firstOf(str(v, 'controller.sandbox.defaultTTL'), '1h');
  agentDefaults.SANDBOX_MAX_TTL = firstOf(str(v, 'controller.sandbox.maxTTL'), '24h');
  // The sandbox guest image: pinned by digest when given, else the chart version tag.
  const digest = str(v, 'controller.sandbox.guestImage.digest');
  agentDefaults.SANDBOX_GUEST_IMAGE = composeImage({
    registry: images.registry(str(v, 'controller.sandbox.guestImage.registry'), str(v, 'registry'), 'ghcr.io'),
    repository: firstOf(str(v, 'controller.sandbox.guestImage.repository'), 'agentplat/sandbox-guest'),
    ...(digest ? { digest } : { tag: firstOf(str(v, 'tag'), chartVersion) }),
  });
  agentDefaults.SESSION_IDLE_TTL = firstOf(str(v, 'controller.sessionIdleTTL'), '168h');
  agentDefaults.SESSION_SHARE_MAX_TTL = firstOf(str(v, 'controller.sessionShareMaxTTL'), '0');

  // rbac.namespaces, when the key is present, overrides global.watchNamespaces; an explicit
  // empty list restores cluster-wide roles.
  const rbac = at(v, 'rbac');
  const rbacList = rbac !== null && typeof rbac === 'object' && !Array.isArray(rbac) && 'namespaces' in rbac;
  const globalWatch = stringList(list(v, 'global.watchNamespaces'));
  const roles = rbacList
    ? { namespaces: stringList(list(v, 'rbac.namespaces')), from: 'rbac.namespaces' as const }
    : { namespaces: globalWatch, from: 'global.watchNamespaces' as const };

  const b = 'database.rdb.bundled';
  return {
    revision: 'B',
    chartVersion,
    images,
    controller: {
      serviceAccountName: str(v, 'controller.serviceAccount.name'),
      serviceAccountCreate: at(v, 'controller.serviceAccount.create') !== false,
      authModes: REVISIONS.B.authModes,
      env: {
        // gRPC, gRPC-Web, MCP and health share the service port (grpc-shares-service-port-b).
        a2a: (serviceUrl) => ({
          A2A_BASE_URL: serviceUrl,
          A2A_GATEWAY_URL: firstOf(str(v, 'controller.a2aGatewayUrl'), serviceUrl),
          GRPC_REFLECTION: String(bool(v, 'controller.grpc.reflection')),
        }),
        agentImages: { ...agentImageEnv(v, images, chartVersion, 'controller.agentImage', 'IMAGE_', false), IMAGE_PULL_POLICY: images.pullPolicy() },
        retention: {},
        toolRefresh: {},
        agentDefaults,
      },
    },
    telemetry: {
      env: telemetryEnv(v),
      signals: ['logs', 'metrics', 'traces'].map((s) => ({ enabledPath: `otel.${s}.enabled`, endpointPaths: ['otel.exporter.otlp.endpoint', `otel.${s}.endpoint`] })),
      urlPaths: ['otel.exporter.otlp.endpoint', 'otel.logs.endpoint', 'otel.metrics.endpoint', 'otel.traces.endpoint'],
      capturePaths: ['otel.capture.messageContent', 'otel.capture.rawApiBodies'],
    },
    scope: scope(v, roles, { globalWatchNamespaces: globalWatch, watchOutsideRoles: 'error', subchartsScoped: true }),
    substrate: {
      apiServer: { ...SUBSTRATE_API_SERVER },
      auth: { kind: 'pod-certificate' },
      // The WorkerPool of the substrate CRD of B's era: `workerImage` and a one-item `sandboxClasses` list.
      workerPool: { imageKey: 'workerImage', spec: (image, sandboxClass) => ({ ateomImage: null, workerImage: image, sandboxClass: null, sandboxClasses: [{ name: sandboxClass }] }) },
      credentialPolicies: list(v, 'substrate.credentialProvider.namespacePolicies'),
    },
    ui: {
      basePath: str(v, 'ui.basePath'),
      hasBasePath: true,
      servesConfigJson: true,
      proxiesMcp: true,
      stripsIdentityHeaders: true,
      backendInternalUrl: '',
    },
    database: {
      nodeSelector: map(v, `${b}.nodeSelector`),
      tolerations: list(v, `${b}.tolerations`),
      affinity: map(v, `${b}.affinity`),
      podLabels: map(v, `${b}.podLabels`),
    },
    metrics: { serviceMonitor: true, scraperServiceAccount: str(v, 'controller.metrics.serviceMonitor.scraperServiceAccount.name') },
    bundledAgents: REVISIONS.B.bundledAgents,
  };
}

/**
 * One shared OTLP exporter, per-signal switches and overrides, resource attributes and capture
 * settings. Standard OTEL_* names where the SDKs define them; capture settings are the product's
 * own (AGENTPLAT_OTEL_CAPTURE_*).
 */
function telemetryEnv(v: Values): Record<string, string> {
  const d: Record<string, string> = {};
  const endpoint = str(v, 'otel.exporter.otlp.endpoint');
  if (endpoint) d.OTEL_EXPORTER_OTLP_ENDPOINT = endpoint;
  d.OTEL_EXPORTER_OTLP_PROTOCOL = firstOf(str(v, 'otel.exporter.otlp.protocol'), 'grpc');
  const timeout = str(v, 'otel.exporter.otlp.timeout');
  if (timeout) d.OTEL_EXPORTER_OTLP_TIMEOUT = timeout;
  for (const signal of ['logs', 'metrics', 'traces'] as const) {
    const up = signal.toUpperCase();
    d[`OTEL_${up}_ENABLED`] = String(bool(v, `otel.${signal}.enabled`));
    const e = str(v, `otel.${signal}.endpoint`);
    if (e) d[`OTEL_EXPORTER_OTLP_${up}_ENDPOINT`] = e;
    const p = str(v, `otel.${signal}.protocol`);
    if (p) d[`OTEL_EXPORTER_OTLP_${up}_PROTOCOL`] = p;
  }
  const attrs = map(v, 'otel.resourceAttributes');
  if (present(attrs)) d.OTEL_RESOURCE_ATTRIBUTES = sortedPairs(attrs);
  d.AGENTPLAT_OTEL_CAPTURE_MESSAGE_CONTENT = String(bool(v, 'otel.capture.messageContent'));
  d.AGENTPLAT_OTEL_CAPTURE_RAW_API_BODIES = String(bool(v, 'otel.capture.rawApiBodies'));
  const maxBytes = str(v, 'otel.capture.maxBytes');
  if (maxBytes) d.AGENTPLAT_OTEL_CAPTURE_MAX_BYTES = maxBytes;
  return d;
}
