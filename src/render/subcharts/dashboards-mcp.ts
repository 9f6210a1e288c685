// The dashboards MCP sub-chart (`dashboards-mcp.*`, on by default): the vendor's MCP server for
// the dashboards server, its URL (ConfigMap) and service-account token (Secret), and the
// RemoteMCPServer that registers it with the platform.
// The token is a secret value: it goes only into the Secret's data, never into an annotation
// in clear or a lint message (the checksum annotation is a hash of the Secret's data).

import type { Component } from '../../model/context.ts';
import { checksum } from '../../model/checksum.ts';
import { dashboardsMcpSecurityContext } from '../../model/dashboards-mcp-security.ts';
import { subchartNamespace } from './common.ts';
import { asList, asMap, asStr, at, scalarText } from '../../model/values-access.ts';
import type { Values } from '../../values/merge.ts';
import { dashboardsMcpFullname } from './names.ts';
import { evalTplDeep } from './tpl-values.ts';
import { podView, subchartFiles, subchartLabels, type FileRun } from './workload.ts';

const CHART = 'dashboards-mcp';
/** The vendor's published image, pinned to a release tag (never `latest`). */
export const DASHBOARDS_MCP_IMAGE = { registry: 'docker.io', repository: 'grafana/mcp-grafana', tag: '1.3.0' } as const;
export const DASHBOARDS_MCP_PORT = 8000;
/**
 * The tools the pinned server serves that the observability agent uses: dashboards, data sources,
 * the metric and log queries with their label and name listings, alerting, on-call, incidents,
 * investigations, assertions and the slow-request and error-pattern finders. Literal third-party
 * tool names, in the order the agent lists them; an agent without the query tools cannot answer.
 */
export const DASHBOARDS_MCP_TOOLS: readonly string[] = [
  'update_dashboard', 'search_dashboards', 'query_prometheus', 'query_loki_stats', 'query_loki_logs',
  'list_teams', 'list_sift_investigations', 'list_prometheus_metric_names', 'list_prometheus_metric_metadata',
  'list_prometheus_label_values', 'list_prometheus_label_names', 'list_oncall_users', 'list_oncall_teams',
  'list_oncall_schedules', 'list_loki_label_values', 'list_loki_label_names', 'list_incidents', 'list_datasources',
  'list_contact_points', 'list_alert_rules', 'get_sift_investigation', 'get_sift_analysis', 'get_oncall_shift',
  'get_incident', 'get_datasource', 'get_dashboard_panel_queries', 'get_dashboard_by_uid', 'get_current_oncall_users',
  'get_assertions', 'get_alert_rule_by_uid', 'find_slow_requests', 'find_error_pattern_logs', 'create_incident',
  'add_activity_to_incident',
];
/** Env names the vendor image reads (literal third-party identifiers). */
export const DASHBOARDS_URL_ENV = 'GRAFANA_URL';
export const DASHBOARDS_TOKEN_ENV = 'GRAFANA_SERVICE_ACCOUNT_TOKEN';

/** Env name of the older API-key credential the vendor image also reads (literal third-party identifier). */
export const DASHBOARDS_API_KEY_ENV = 'GRAFANA_API_KEY';

/** The server image: `<registry>/<repository>[/<name>]:<tag>`, empty parts skipped (the dashboards chart's rule). */
function dashboardsImage(b: Values): { registry: string; repository: string; tag: string } {
  const image = asMap(b.image);
  const part = (k: 'registry' | 'repository' | 'tag') => (typeof image[k] === 'string' ? asStr(image[k]) : DASHBOARDS_MCP_IMAGE[k]);
  return {
    registry: part('registry'),
    repository: [part('repository'), asStr(image.name)].filter(Boolean).join('/'),
    tag: part('tag'),
  };
}

export const dashboardsMcpComponent: Component = subchartFiles(CHART, (ctx, b, version) => {
  const fullname = dashboardsMcpFullname(ctx);
  const namespace = subchartNamespace(ctx, b);
  const { selector, labels } = subchartLabels(ctx, { name: asStr(b.nameOverride) || CHART, chart: CHART, chartVersion: version });
  const configData: Record<string, string> = { [DASHBOARDS_URL_ENV]: asStr(evalTplDeep(ctx, asStr(at(b, 'grafana.url')))) };
  for (const [k, v] of Object.entries(asMap(b.config))) configData[k] = scalarText(v);
  const token = asStr(at(b, 'grafana.serviceAccountToken'));
  const apiKey = asStr(at(b, 'grafana.apiKey'));
  const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');
  // The token wins; the older API key is written only without one.
  const secretData: Record<string, string> = token ? { [DASHBOARDS_TOKEN_ENV]: base64(token) } : apiKey ? { [DASHBOARDS_API_KEY_ENV]: base64(apiKey) } : {};
  // An existing Secret replaces the chart's (which is then not rendered).
  const secretRef = asStr(at(b, 'grafana.secretRef'));
  const sa = asMap(b.serviceAccount);
  const createAccount = sa.create !== false;
  const port = typeof at(b, 'service.port') === 'number' ? (at(b, 'service.port') as number) : DASHBOARDS_MCP_PORT;
  const view = {
    fullname,
    namespace,
    labels,
    selector,
    port,
    serviceType: asStr(at(b, 'service.type')) || 'ClusterIP',
    replicas: typeof b.replicas === 'number' ? b.replicas : 1,
    serviceAccount: asStr(sa.name) || (createAccount ? fullname : 'default'),
    serviceAccountAnnotations: asMap(sa.annotations),
    secretName: secretRef || fullname,
    configData,
    secretData,
    args: ['--transport', 'streamable-http', ...asList(b.args).map((a) => asStr(a))],
    volumes: asList(b.volumes),
    volumeMounts: asList(b.volumeMounts),
    url: `http://${fullname}.${namespace}:${port}/mcp`,
    resources: asMap(b.resources),
    ...podView(ctx, {
      image: dashboardsImage(b),
      // The Secret checksum is over the chart's Secret; with secretRef there is none to follow.
      podAnnotations: { 'checksum/configmap': checksum(configData), 'checksum/secret': checksum(secretRef ? {} : secretData) },
      // The block's own container context is coalesced over the default, never in place of it.
      own: { podSecurityContext: b.podSecurityContext, securityContext: dashboardsMcpSecurityContext(ctx.values.securityContext, b.securityContext), nodeSelector: b.nodeSelector, tolerations: b.tolerations },
      pull: { policy: asStr(at(b, 'image.pullPolicy')) },
    }),
  };
  const runs: FileRun[] = [
    ...(createAccount ? [['serviceaccount.yaml', 'dashboards-mcp/serviceaccount.yaml.hbs', view] as const] : []),
    ...(secretRef ? [] : [['secret.yaml', 'dashboards-mcp/secret.yaml.hbs', view] as const]),
    ['configmap.yaml', 'dashboards-mcp/configmap.yaml.hbs', view],
    ['service.yaml', 'dashboards-mcp/service.yaml.hbs', view],
    ['deployment.yaml', 'dashboards-mcp/deployment.yaml.hbs', view],
    ['remotemcpserver.yaml', 'dashboards-mcp/remotemcpserver.yaml.hbs', view],
  ];
  return runs;
});
