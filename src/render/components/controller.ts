// The controller: ServiceAccount, ConfigMap (the environment contract of the controller image),
// Deployment and Service. Revision differences are data here, never template branches.

import type { Component, RenderContext } from '../../model/context.ts';
import {
  chartLabels,
  controllerAuthority,
  controllerName,
  controllerServiceAccountCreated,
  controllerServiceAccountName,
  databaseName,
  databaseUrlSecretName,
  DEFAULT_MODEL_CONFIG_NAME,
} from '../chart.ts';
import { BUNDLED_DB, databaseSource, databaseUrlSecret, expandedWithoutReferences, metricsSettings, tokenFileParts } from '../../model/derive.ts';
import { at, bool, firstOf, has, list, num, present, scalarText, str, type Json, type JsonMap } from '../../model/values-access.ts';
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
  const model = ctx.model;
  const d: Record<string, string> = { ...model.controller.env.a2a(svcUrl) };
  d.DEFAULT_MODEL_CONFIG_NAME = DEFAULT_MODEL_CONFIG_NAME;
  d.AGENTPLAT_CONTROLLER_NAME = controllerName(ctx);
  const uiUrl = str(v, 'ui.externalUrl');
  if (uiUrl) d.AGENTPLAT_UI_URL = uiUrl;
  d.AUTH_MODE = firstOf(str(v, 'controller.auth.mode'), model.controller.authModes[0]);
  const claim = str(v, 'controller.auth.userIdClaim');
  if (claim) d.AUTH_USER_ID_CLAIM = claim;

  Object.assign(d, model.controller.env.agentImages);
  d.LEADER_ELECT = String(num(v, 'controller.replicas', 1) > 1);
  Object.assign(d, model.telemetry.env);
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
  Object.assign(d, model.controller.env.retention);

  d.WATCH_NAMESPACES = model.scope.watchNamespaces.join(',');
  d.MCP_EGRESS_PLAINTEXT = String(bool(v, 'controller.mcpEgressPlaintext'));
  Object.assign(d, model.controller.env.toolRefresh);
  const a2aTimeout = str(v, 'controller.a2aClientTimeout');
  if (a2aTimeout) d.AGENTPLAT_A2A_CLIENT_TIMEOUT = a2aTimeout;
  d.ZAP_LOG_LEVEL = firstOf(str(v, 'controller.loglevel'), 'info');

  Object.assign(d, model.controller.env.agentDefaults);
  return d;
}

type EnvVar = { name: string; value?: string; valueFrom?: JsonMap };

/**
 * The data of the Secret that carries `database.rdb.url` to the controller, or undefined when the
 * URL does not go through one (urlFile, the bundled database, or a URL the kubelet must expand).
 */
function databaseUrlSecretData(ctx: RenderContext): Record<string, string> | undefined {
  const src = databaseSource(ctx);
  if (src.kind !== 'url' || src.expands) return undefined;
  // The URL as the controller read it from the Deployment's value, which the kubelet expanded.
  return { [databaseUrlSecret(ctx.fullname).key]: Buffer.from(expandedWithoutReferences(src.url)).toString('base64') };
}

function databaseEnv(ctx: RenderContext): EnvVar[] {
  const src = databaseSource(ctx);
  switch (src.kind) {
    case 'urlFile':
      return [{ name: 'POSTGRES_DATABASE_URL_FILE', value: src.urlFile }];
    case 'url':
      // Read from the release's Secret, so whoever may read the Deployment does not read the URL;
      // a URL with $(NAME) references stays a value, the only place the kubelet expands them.
      return src.expands
        ? [{ name: 'POSTGRES_DATABASE_URL', value: src.url }]
        : [{ name: 'POSTGRES_DATABASE_URL', valueFrom: { secretKeyRef: { name: databaseUrlSecretName(ctx), key: databaseUrlSecret(ctx.fullname).key } } }];
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
  const auth = ctx.model.substrate.auth;
  if (auth.kind === 'token') {
    const tokenFile = auth.tokenFile;
    // values/substrate-token-file refuses such a path before rendering; this guards the API.
    const parts = tokenFileParts(tokenFile);
    if (!parts.ok) throw new RenderError(`controller.substrate.substrateApiTokenFile ${parts.problem}`);
    volumes.push({
      name: 'substrate-api-token',
      projected: {
        sources: [
          {
            serviceAccountToken: {
              audience: auth.audience,
              expirationSeconds: auth.expirationSeconds,
              path: parts.file,
            },
          },
        ],
      },
    });
    mounts.push({ name: 'substrate-api-token', mountPath: parts.folder, readOnly: true });
    env.push({ name: 'SUBSTRATE_API_TOKEN_FILE', value: tokenFile });
    if (router) env.push({ name: 'SUBSTRATE_ROUTER_URL', value: router });
    if (auth.insecure) env.push({ name: 'SUBSTRATE_API_INSECURE', value: 'true' });
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
  // [A] key (revision B's values refuse it, so it is never set there); only when non-empty.
  const pauseImage = str(v, 'controller.substrate.pauseImage');
  if (pauseImage) env.push({ name: 'SUBSTRATE_PAUSE_IMAGE', value: pauseImage });
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
    const urlSecret = databaseUrlSecretData(ctx);
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
      ...(urlSecret ? chartDocs('controller-database-secret.yaml', 'secret.yaml.hbs', { meta: meta(ctx, databaseUrlSecretName(ctx), labels), data: urlSecret }) : []),
      ...chartDocs('controller-deployment.yaml', 'controller-deployment.yaml.hbs', {
        ...podSettings(ctx, 'controller', name, {
          labels,
          // A changed URL rolls the controller as a changed ConfigMap does.
          checksums: { 'checksum/configmap': checksum(config), ...(urlSecret ? { 'checksum/database-url': checksum(urlSecret) } : {}) },
          serviceAccountName: controllerServiceAccountName(ctx),
          // The controller's own list (undocumented) replaces the top-level one when non-empty.
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
