// The controller: ServiceAccount, ConfigMap (the environment contract of the controller image),
// Deployment and Service. Revision differences are data here, never template branches.

import type { Component, RenderContext } from '../../model/context.ts';
import {
  chartLabels,
  composeImage,
  controllerAuthority,
  controllerName,
  controllerServiceAccountCreated,
  controllerServiceAccountName,
  databaseName,
  DEFAULT_MODEL_CONFIG_NAME,
  globalRegistry,
  imageRegistry,
  pullPolicy,
} from '../chart.ts';
import { BUNDLED_DB, databaseSource, metricsSettings, tokenFileParts, watchNamespaces } from '../../model/derive.ts';
import { at, bool, firstOf, has, list, map, num, present, scalarText, sortedPairs, str, type Json, type JsonMap } from '../../model/values-access.ts';
import { checksum } from '../../model/checksum.ts';
import { chartDocs, meta, RenderError } from './common.ts';
import { podSettings, serviceAccountDocs, serviceDocs } from './workload.ts';

const PROBE_DEFAULTS = {
  startup: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 15, initialDelaySeconds: 15 },
  readiness: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 30 },
};

/** Settings the controller image reads from its ConfigMap, in a stable order. */
export function controllerConfig(ctx: RenderContext): Record<string, string> {
  const v = ctx.values;
  const port = scalarText(at(v, 'controller.service.ports.port') ?? 8083);
  const svcUrl = `http://${controllerName(ctx)}.${ctx.namespace}.svc:${port}`;
  const d: Record<string, string> = {};
  if (ctx.revision === 'A') d.A2A_BASE_URL = firstOf(str(v, 'controller.a2aBaseUrl'), svcUrl);
  else {
    d.A2A_BASE_URL = svcUrl;
    // gRPC, gRPC-Web, MCP and health share the service port (grpc-shares-service-port-b).
    d.A2A_GATEWAY_URL = firstOf(str(v, 'controller.a2aGatewayUrl'), svcUrl);
    d.GRPC_REFLECTION = String(bool(v, 'controller.grpc.reflection'));
  }
  d.DEFAULT_MODEL_CONFIG_NAME = DEFAULT_MODEL_CONFIG_NAME;
  d.AGENTPLAT_CONTROLLER_NAME = controllerName(ctx);
  const uiUrl = str(v, 'ui.externalUrl');
  if (uiUrl) d.AGENTPLAT_UI_URL = uiUrl;
  d.AUTH_MODE = firstOf(str(v, 'controller.auth.mode'), ctx.revision === 'A' ? 'unsecure' : 'insecure');
  const claim = str(v, 'controller.auth.userIdClaim');
  if (claim) d.AUTH_USER_ID_CLAIM = claim;

  // Agent images the controller puts on agent pods: the component tag wins here.
  const agentImage = (path: string, prefix: string, withPolicy: boolean) => {
    if (withPolicy) d[`${prefix}PULL_POLICY`] = pullPolicy(ctx, path);
    d[`${prefix}REGISTRY`] = imageRegistry(ctx, path);
    d[`${prefix}REPOSITORY`] = str(v, `${path}.repository`);
    d[`${prefix}TAG`] = firstOf(str(v, `${path}.tag`), str(v, 'tag'), ctx.chart.version);
  };
  if (ctx.revision === 'A') {
    agentImage('controller.agentImage', 'IMAGE_', true);
    const secret = str(v, 'controller.agentImage.pullSecret');
    if (secret) d.IMAGE_PULL_SECRET = secret;
    agentImage('controller.skillsInitImage', 'SKILLS_INIT_IMAGE_', true);
    agentImage('controller.goAgentImage', 'GO_IMAGE_', true);
  } else {
    agentImage('controller.agentImage', 'IMAGE_', false);
    d.IMAGE_PULL_POLICY = pullPolicy(ctx);
  }
  d.LEADER_ELECT = String(num(v, 'controller.replicas', 1) > 1);
  Object.assign(d, ctx.revision === 'A' ? telemetryA(ctx) : telemetryB(ctx));
  const proxy = str(v, 'proxy.url');
  if (proxy) d.PROXY_URL = proxy;

  d.DATABASE_VECTOR_ENABLED = String(bool(v, 'database.rdb.vectorEnabled'));
  d.SKIP_MIGRATIONS = String(bool(v, 'database.rdb.skipMigrations'));
  // Pool: null keeps the library defaults; an explicit 0 is a value (db-pool-library-defaults).
  for (const [key, path] of [
    ['DB_MAX_CONNS', 'database.rdb.pool.maxConns'],
    ['DB_MIN_CONNS', 'database.rdb.pool.minConns'],
    ['DB_MAX_CONN_IDLE_TIME', 'database.rdb.pool.maxConnIdleTime'],
    ['DB_MAX_CONN_LIFETIME', 'database.rdb.pool.maxConnLifetime'],
  ] as const) {
    const value = at(v, path);
    if (value !== undefined && value !== null && scalarText(value) !== '') d[key] = scalarText(value);
  }
  if (ctx.revision === 'A') d.SESSION_RETENTION_DAYS = String(num(v, 'database.rdb.sessionRetentionDays', 0));

  d.WATCH_NAMESPACES = watchNamespaces(ctx).join(',');
  d.MCP_EGRESS_PLAINTEXT = String(bool(v, 'controller.mcpEgressPlaintext'));
  if (ctx.revision === 'A') d.TOOL_REFRESH_INTERVAL = firstOf(str(v, 'controller.toolRefreshInterval'), '60s');
  const a2aTimeout = str(v, 'controller.a2aClientTimeout');
  if (a2aTimeout) d.AGENTPLAT_A2A_CLIENT_TIMEOUT = a2aTimeout;
  d.ZAP_LOG_LEVEL = firstOf(str(v, 'controller.loglevel'), 'info');

  if (ctx.revision === 'A') {
    // agent-bind-host-a: explicit host, else :: with ipv6, else the image default 0.0.0.0.
    const host = firstOf(str(v, 'controller.agentDeployment.host'), bool(v, 'ipv6') ? '::' : '');
    if (host) d.DEFAULT_AGENT_BIND_HOST = host;
    const sa = str(v, 'controller.agentDeployment.serviceAccountName');
    if (sa) d.DEFAULT_SERVICE_ACCOUNT_NAME = sa;
    const labels = map(v, 'controller.agentDeployment.podLabels');
    if (present(labels)) d.DEFAULT_AGENT_POD_LABELS = sortedPairs(labels);
    const selector = map(v, 'controller.agentDeployment.nodeSelector');
    if (present(selector)) d.DEFAULT_AGENT_NODE_SELECTOR = sortedPairs(selector);
  } else {
    if (bool(v, 'ipv6')) d.DEFAULT_AGENT_BIND_HOST = '::';
    d.SANDBOX_CPU = firstOf(str(v, 'controller.sandbox.cpu'), '1');
    d.SANDBOX_MEMORY = firstOf(str(v, 'controller.sandbox.memory'), '1Gi');
    d.SANDBOX_DEFAULT_TTL = firstOf(str(v, 'controller.sandbox.defaultTTL'), '1h');
    d.SANDBOX_MAX_TTL = firstOf(str(v, 'controller.sandbox.maxTTL'), '24h');
    d.SANDBOX_GUEST_IMAGE = sandboxGuestImage(ctx);
    d.SESSION_IDLE_TTL = firstOf(str(v, 'controller.sessionIdleTTL'), '168h');
    d.SESSION_SHARE_MAX_TTL = firstOf(str(v, 'controller.sessionShareMaxTTL'), '0');
  }
  return d;
}

/** [B] The sandbox guest image: global registry override, pinned by digest when given, else the chart version tag. */
export function sandboxGuestImage(ctx: RenderContext): string {
  const v = ctx.values;
  const digest = str(v, 'controller.sandbox.guestImage.digest');
  return composeImage({
    registry: firstOf(globalRegistry(ctx), str(v, 'controller.sandbox.guestImage.registry'), str(v, 'registry'), 'ghcr.io'),
    repository: firstOf(str(v, 'controller.sandbox.guestImage.repository'), 'agentplat/sandbox-guest'),
    ...(digest ? { digest } : { tag: firstOf(str(v, 'tag'), ctx.chart.version) }),
  });
}

/** Revision A: the tracing/logging exporter model (shared endpoint when both are equal). */
function telemetryA(ctx: RenderContext): Record<string, string> {
  const v = ctx.values;
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

/**
 * Revision B: one shared OTLP exporter, per-signal switches and overrides, resource attributes
 * and capture settings. Standard OTEL_* names where the SDKs define them; capture settings are
 * the product's own (AGENTPLAT_OTEL_CAPTURE_*).
 */
function telemetryB(ctx: RenderContext): Record<string, string> {
  const v = ctx.values;
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

type EnvVar = { name: string; value?: string; valueFrom?: JsonMap };

function databaseEnv(ctx: RenderContext): EnvVar[] {
  const src = databaseSource(ctx);
  switch (src.kind) {
    case 'urlFile':
      return [{ name: 'POSTGRES_DATABASE_URL_FILE', value: src.urlFile }];
    case 'url':
      return [{ name: 'POSTGRES_DATABASE_URL', value: src.url }];
    case 'bundled':
      return [
        { name: 'POSTGRES_PASSWORD', valueFrom: { secretKeyRef: { name: databaseName(ctx), key: 'POSTGRES_PASSWORD' } } },
        {
          name: 'POSTGRES_DATABASE_URL',
          value: `postgres://${BUNDLED_DB.user}:$(POSTGRES_PASSWORD)@${databaseName(ctx)}.${ctx.namespace}.svc:5432/${BUNDLED_DB.database}?sslmode=disable`,
        },
      ];
    case 'none':
      throw new RenderError('no database connection is configured: set database.rdb.url or database.rdb.urlFile, or enable database.rdb.bundled');
  }
}

/** Substrate wiring of the controller pod (env, volumes, mounts) when controller.substrate.enabled. */
function substrateWiring(ctx: RenderContext): { env: EnvVar[]; volumes: Json[]; mounts: Json[] } {
  const v = ctx.values;
  if (!bool(v, 'controller.substrate.enabled')) return { env: [], volumes: [], mounts: [] };
  const env: EnvVar[] = [{ name: 'SUBSTRATE_API_ENDPOINT', value: str(v, 'controller.substrate.substrateApiEndpoint') }];
  const volumes: Json[] = [];
  const mounts: Json[] = [];
  const router = str(v, 'controller.substrate.substrateRouterURL');
  const poolNs = firstOf(str(v, 'controller.substrate.defaultWorkerPool.namespace'), ctx.namespace);
  const poolName = firstOf(str(v, 'controller.substrate.defaultWorkerPool.name'), bool(v, 'substrateWorkerPool.create') ? firstOf(str(v, 'substrateWorkerPool.name'), 'agentplat-default') : '');
  if (ctx.revision === 'A') {
    const tokenFile = firstOf(str(v, 'controller.substrate.substrateApiTokenFile'), '/var/run/secrets/substrate/token');
    // values/substrate-token-file refuses such a path before rendering; this guards the API.
    const parts = tokenFileParts(tokenFile);
    if (!parts.ok) throw new RenderError(`controller.substrate.substrateApiTokenFile ${parts.problem}`);
    volumes.push({
      name: 'substrate-api-token',
      projected: {
        sources: [
          {
            serviceAccountToken: {
              audience: firstOf(str(v, 'controller.substrate.substrateApiTokenAudience'), 'substrate-api'),
              expirationSeconds: num(v, 'controller.substrate.substrateApiTokenExpirationSeconds', 3600),
              path: parts.file,
            },
          },
        ],
      },
    });
    mounts.push({ name: 'substrate-api-token', mountPath: parts.folder, readOnly: true });
    env.push({ name: 'SUBSTRATE_API_TOKEN_FILE', value: tokenFile });
    if (router) env.push({ name: 'SUBSTRATE_ROUTER_URL', value: router });
    if (bool(v, 'controller.substrate.substrateApiInsecure')) env.push({ name: 'SUBSTRATE_API_INSECURE', value: 'true' });
  } else {
    volumes.push(
      {
        name: 'substrate-servicedns',
        projected: {
          sources: [
            {
              clusterTrustBundle: {
                signerName: 'servicedns.podcert.ate.dev/identity',
                labelSelector: { matchLabels: { 'podcert.ate.dev/canarying': 'live' } },
                path: 'trust-bundle.pem',
              },
            },
          ],
        },
      },
      {
        name: 'substrate-podidentity',
        projected: { sources: [{ podCertificate: { signerName: 'podidentity.podcert.ate.dev/identity', keyType: 'ECDSAP256', credentialBundlePath: 'credential-bundle.pem' } }] },
      },
    );
    mounts.push({ name: 'substrate-servicedns', mountPath: '/run/substrate-servicedns', readOnly: true }, { name: 'substrate-podidentity', mountPath: '/run/substrate-podidentity', readOnly: true });
    env.push({ name: 'SUBSTRATE_API_CA_FILE', value: '/run/substrate-servicedns/trust-bundle.pem' }, { name: 'SUBSTRATE_API_CLIENT_CERT_FILE', value: '/run/substrate-podidentity/credential-bundle.pem' });
    if (router) env.push({ name: 'SUBSTRATE_ROUTER_URL', value: router });
  }
  env.push({ name: 'SUBSTRATE_DEFAULT_WORKERPOOL_NAMESPACE', value: poolNs }, { name: 'SUBSTRATE_DEFAULT_WORKERPOOL_NAME', value: poolName });
  return { env, volumes, mounts };
}

export const controllerComponent: Component = {
  id: 'controller',
  render(ctx) {
    const v = ctx.values;
    const name = controllerName(ctx);
    const labels = chartLabels(ctx, 'controller');
    const config = controllerConfig(ctx);

    const metrics = metricsSettings(ctx);
    const substrate = substrateWiring(ctx);
    const env: Json[] = [
      { name: 'AGENTPLAT_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
      { name: 'K8S_POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
      { name: 'K8S_NODE_NAME', valueFrom: { fieldRef: { fieldPath: 'spec.nodeName' } } },
      ...(databaseEnv(ctx) as Json[]),
      ...(metrics.enabled
        ? [
            { name: 'METRICS_BIND_ADDRESS', value: metrics.bindAddress },
            { name: 'METRICS_SECURE', value: String(metrics.secure) },
          ]
        : []),
      ...(substrate.env as Json[]),
      // User entries last: a duplicate name wins at runtime (the chart never drops a user entry).
      ...list(v, 'controller.env'),
    ];
    const targetPort = at(v, 'controller.service.ports.targetPort') ?? 8083;
    const ports: Json[] = [{ name: 'http', containerPort: targetPort as Json, protocol: 'TCP' }];
    if (metrics.enabled) ports.push({ name: 'metrics', containerPort: metrics.port, protocol: 'TCP' });

    return [
      ...(controllerServiceAccountCreated(ctx) ? serviceAccountDocs(ctx, 'controller', controllerServiceAccountName(ctx)) : []),
      ...chartDocs('controller-configmap.yaml', 'configmap.yaml.hbs', { meta: meta(ctx, name, labels), data: config }),
      ...chartDocs('controller-deployment.yaml', 'controller-deployment.yaml.hbs', {
        ...podSettings(ctx, 'controller', name, {
          labels,
          checksums: { 'checksum/configmap': checksum(config) },
          serviceAccountName: controllerServiceAccountName(ctx),
          pullSecrets: present(list(v, 'controller.imagePullSecrets')) ? list(v, 'controller.imagePullSecrets') : list(v, 'imagePullSecrets'),
          probes: PROBE_DEFAULTS,
        }),
        volumes: [...substrate.volumes, ...list(v, 'controller.volumes')],
        env,
        envFrom: [{ configMapRef: { name } }, ...list(v, 'controller.envFrom')],
        ports,
        volumeMounts: [...substrate.mounts, ...list(v, 'controller.volumeMounts')],
      }),
      // One port in both revisions: in B gRPC, gRPC-Web, MCP and health share it.
      ...serviceDocs(ctx, 'controller', name, 8083, targetPort),
    ];
  },
};

export { has, controllerAuthority };
