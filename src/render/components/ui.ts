// The web UI: ServiceAccount, the edge proxy ConfigMap (nginx-style config, process supervisor
// config and, in revision B, /config.json), Deployment and Service.

import type { Component, RenderContext } from '../../model/context.ts';
import { chartLabels, controllerAuthority, uiName } from '../chart.ts';
import { at, bool, firstOf, list, map, num, scalarText, str, type Json } from '../../model/values-access.ts';
import { checksum } from '../../model/checksum.ts';
import { chartDocs, meta, RenderError } from './common.ts';
import { podSettings, serviceAccountDocs, serviceDocs } from './workload.ts';

const PROBE_DEFAULTS = {
  startup: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 1, initialDelaySeconds: 1 },
  readiness: { httpGet: { path: '/health', port: 'http' }, periodSeconds: 30 },
};

/** Auth-proxy identity headers the edge strips from client requests unless listed (forwarded-headers-b). */
export const IDENTITY_HEADERS = [
  'x-auth-request-user',
  'x-auth-request-email',
  'x-auth-request-groups',
  'x-auth-request-preferred-username',
  'x-auth-request-access-token',
  'x-forwarded-user',
  'x-forwarded-email',
  'x-forwarded-groups',
  'x-forwarded-preferred-username',
];
/** Stripped in trusted-proxy mode even when listed (forwarded-headers-trusted-proxy-b). */
export const TRUSTED_PROXY_STRIPPED = ['x-agent-name', 'x-user-id'];

const EDGE_CONF = 'edge.conf';
const EDGE_CONF_PATH = '/etc/nginx/nginx.conf';
const CONFIG_JSON_PATH = '/etc/agentplat-ui/config.json';

/** A value written into the proxy config must be a single token: no spaces, quotes, braces or `;`. */
function directiveValue(path: string, value: string, pattern: RegExp): string {
  if (!pattern.test(value)) throw new RenderError(`${path}: ${JSON.stringify(value)} is not a valid value for the UI proxy configuration`);
  return value;
}

function forwardedHeaders(ctx: RenderContext): string[] {
  return list(ctx.values, 'ui.additionalForwardedHeaders').map((h, i) =>
    directiveValue(`ui.additionalForwardedHeaders[${i}]`, scalarText(h), /^[A-Za-z0-9-]+$/).toLowerCase(),
  );
}

/** The headers the edge clears on proxied paths (revision B). */
export function strippedHeaders(ctx: RenderContext): string[] {
  if (!ctx.model.ui.stripsIdentityHeaders) return [];
  const listed = new Set(forwardedHeaders(ctx));
  const stripped = IDENTITY_HEADERS.filter((h) => !listed.has(h));
  if (str(ctx.values, 'controller.auth.mode') === 'trusted-proxy') stripped.push(...TRUSTED_PROXY_STRIPPED);
  return stripped;
}

/** The browser's API base: root-relative URLs get the base path prefix (base-path-b). */
export function apiBaseUrl(ctx: RenderContext): string {
  const url = firstOf(str(ctx.values, 'ui.publicBackendUrl'), '/api');
  const base = ctx.model.ui.basePath.replace(/\/+$/, '');
  return base && url.startsWith('/') ? `${base}${url}` : url;
}

/** The edge proxy's configuration text. */
export function edgeConfig(ctx: RenderContext): string {
  const v = ctx.values;
  const port = directiveValue('ui.service.ports.targetPort', scalarText(at(v, 'ui.service.ports.targetPort') ?? 8080), /^\d+$/);
  const readTimeout = directiveValue('ui.edge.proxyReadTimeout', firstOf(str(v, 'ui.edge.proxyReadTimeout'), '1800s'), /^\d+(ms|s|m|h|d)?$/);
  const sendTimeout = directiveValue('ui.edge.proxySendTimeout', firstOf(str(v, 'ui.edge.proxySendTimeout'), '1800s'), /^\d+(ms|s|m|h|d)?$/);
  const backend = directiveValue('controller service', controllerAuthority(ctx), /^[a-z0-9.-]+:\d+$/);
  const strip = strippedHeaders(ctx).map((h) => `      proxy_set_header ${h} "";`);
  // Streaming-friendly: HTTP/1.1 upstream, no buffering, long read/send timeouts.
  const streaming = [
    '      proxy_http_version 1.1;',
    '      proxy_buffering off;',
    '      proxy_request_buffering off;',
    '      proxy_cache_bypass $http_upgrade;',
    `      proxy_read_timeout ${readTimeout};`,
    `      proxy_send_timeout ${sendTimeout};`,
  ];
  const forwarded = [
    '      proxy_set_header Upgrade $http_upgrade;',
    '      proxy_set_header Connection $connection_upgrade;',
    '      proxy_set_header Host $host;',
    '      proxy_set_header X-Real-IP $remote_addr;',
    '      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;',
    '      proxy_set_header X-Forwarded-Proto $scheme;',
    '      proxy_set_header X-Forwarded-Host $host;',
  ];
  const backendLocation = (path: string, target: string) => [`    location ${path} {`, `      proxy_pass http://agentplat_backend${target};`, ...streaming, ...forwarded, ...strip, '    }'];
  const lines = [
    'pid /tmp/nginx.pid;',
    'error_log /dev/stderr warn;',
    'events {',
    '  worker_connections 1024;',
    '}',
    'http {',
    '  include /etc/nginx/mime.types;',
    '  access_log /dev/stdout;',
    '  client_body_temp_path /tmp/nginx/client_temp;',
    '  proxy_temp_path /tmp/nginx/proxy_temp;',
    '  fastcgi_temp_path /tmp/nginx/fastcgi_temp;',
    '  uwsgi_temp_path /tmp/nginx/uwsgi_temp;',
    '  scgi_temp_path /tmp/nginx/scgi_temp;',
    '  map $http_upgrade $connection_upgrade {',
    '    default upgrade;',
    "    '' close;",
    '  }',
    '  upstream agentplat_ui {',
    '    server 127.0.0.1:8001;',
    '  }',
    '  upstream agentplat_backend {',
    `    server ${backend};`,
    '  }',
    '  server {',
    `    listen ${port};`,
    ...(bool(v, 'ipv6') ? [`    listen [::]:${port};`] : []),
    '    server_name localhost;',
    '    location = /health {',
    '      access_log off;',
    '      default_type text/plain;',
    "      return 200 'OK';",
    '    }',
    ...(ctx.model.ui.servesConfigJson
      ? ['    location = /config.json {', '      default_type application/json;', '      add_header Cache-Control "no-store";', `      alias ${CONFIG_JSON_PATH};`, '    }']
      : []),
    ...backendLocation('/api/', '/api/'),
    ...backendLocation('/a2a/', '/api/a2a/'),
    ...(ctx.model.ui.proxiesMcp ? backendLocation('/mcp', '/mcp') : []),
    '    location / {',
    '      proxy_pass http://agentplat_ui;',
    ...streaming,
    ...forwarded,
    '    }',
    '  }',
    '}',
  ];
  return `${lines.join('\n')}\n`;
}

function supervisorConfig(ctx: RenderContext): string {
  const host = bool(ctx.values, 'ipv6') ? '::' : '0.0.0.0';
  const program = (name: string, command: string, priority: number, extra: string[] = []) => [
    `[program:${name}]`,
    `command=${command}`,
    ...extra,
    'autostart=true',
    'autorestart=true',
    'startretries=5',
    'numprocs=1',
    'startsecs=0',
    `priority=${priority}`,
    'stdout_logfile=/dev/stdout',
    'stdout_logfile_maxbytes=0',
    'stderr_logfile=/dev/stderr',
    'stderr_logfile_maxbytes=0',
    '',
  ];
  return [
    '[supervisord]',
    'nodaemon=true',
    'logfile=/dev/stdout',
    'logfile_maxbytes=0',
    'pidfile=/tmp/supervisord.pid',
    '',
    ...program('ui-server', 'node /app/ui/server.js', 10, ['directory=/app/ui', `environment=PORT="8001",HOSTNAME="${host}",NODE_ENV="production"`]),
    ...program('edge', `/usr/sbin/nginx -c ${EDGE_CONF_PATH} -g "daemon off;"`, 20),
  ].join('\n');
}

export const uiComponent: Component = {
  id: 'ui',
  render(ctx) {
    const v = ctx.values;
    const name = uiName(ctx);
    const common = chartLabels(ctx);
    const configName = `${name}-config`;

    const data: Record<string, string> = { [EDGE_CONF]: edgeConfig(ctx), 'supervisord.conf': supervisorConfig(ctx) };
    const model = ctx.model.ui;
    if (model.servesConfigJson) data['config.json'] = `${JSON.stringify({ apiBaseUrl: apiBaseUrl(ctx), basePath: model.basePath }, null, 2)}\n`;

    const env: Json[] = [
      { name: 'NEXT_PUBLIC_BACKEND_URL', value: apiBaseUrl(ctx) },
      { name: 'BACKEND_INTERNAL_URL', value: firstOf(model.backendInternalUrl, `http://${controllerAuthority(ctx)}/api`) },
    ];
    if (model.basePath) env.push({ name: 'AGENTPLAT_UI_BASE_PATH', value: model.basePath });
    const sso = firstOf(str(v, 'ui.auth.ssoRedirectPath'), '/oauth2/start');
    env.push({ name: 'SSO_REDIRECT_PATH', value: sso }, { name: 'NEXT_PUBLIC_SSO_REDIRECT_PATH', value: sso });
    const streamTimeout = num(v, 'ui.streamTimeoutSeconds', 1800);
    if (streamTimeout > 0) env.push({ name: 'AGENTPLAT_STREAM_TIMEOUT_MS', value: String(streamTimeout * 1000) });
    const headers = forwardedHeaders(ctx);
    if (headers.length > 0) env.push({ name: 'AGENTPLAT_ADDITIONAL_FORWARDED_HEADERS', value: headers.join(',') });
    // ui.env: [A] a map (name → value, in key order), [B] a list kept verbatim (valueFrom, $(VAR) expansion).
    const userEnv = at(v, 'ui.env');
    if (Array.isArray(userEnv)) env.push(...(userEnv as Json[]));
    else for (const [k, val] of Object.entries(map(v, 'ui.env'))) env.push({ name: k, value: scalarText(val) });

    const port = at(v, 'ui.service.ports.targetPort') ?? 8080;
    const emptyDirs = [
      ...(model.nextjsCacheSize !== undefined ? [{ name: 'nextjs-cache', sizeLimit: model.nextjsCacheSize, mountPath: '/app/ui/.next/cache' }] : []),
      { name: 'tmp', sizeLimit: firstOf(str(v, 'ui.volumes.tmp'), '50Mi'), mountPath: '/tmp' },
    ];
    const configMounts = [
      { mountPath: EDGE_CONF_PATH, subPath: EDGE_CONF },
      { mountPath: '/etc/supervisor/conf.d/supervisord.conf', subPath: 'supervisord.conf' },
      ...(model.servesConfigJson ? [{ mountPath: CONFIG_JSON_PATH, subPath: 'config.json' }] : []),
    ];
    return [
      ...serviceAccountDocs(ctx, 'ui', name),
      ...chartDocs('ui-edge-configmap.yaml', 'configmap.yaml.hbs', { meta: meta(ctx, configName, common), data }),
      ...chartDocs('ui-deployment.yaml', 'ui-deployment.yaml.hbs', {
        ...podSettings(ctx, 'ui', name, {
          labels: common,
          checksums: { 'checksum/ui-config': checksum(data) },
          serviceAccountName: name,
          pullSecrets: list(v, 'imagePullSecrets'),
          probes: PROBE_DEFAULTS,
        }),
        emptyDirs,
        configMapName: configName,
        env,
        port,
        configMounts,
      }),
      ...serviceDocs(ctx, 'ui', name, 8080, port),
    ];
  },
};
