// The dashboards MCP sub-chart (`dashboards-mcp.*`, on by default): the vendor's MCP server for
// the dashboards server, its URL (ConfigMap) and service-account token (Secret), and the
// RemoteMCPServer that registers it with the platform.
// The token is a secret value: it goes only into the Secret's data, never into an annotation
// in clear or a lint message (the checksum annotation is a hash of the Secret's data).

import type { Component } from '../../model/context.ts';
import { checksum } from '../../model/checksum.ts';
import { subchartNamespace } from './common.ts';
import { asMap, asStr, at } from '../../model/values-access.ts';
import { dashboardsMcpFullname } from './names.ts';
import { evalTplDeep } from './tpl-values.ts';
import { podView, subchartComponent, subchartDocs, subchartLabels } from './workload.ts';

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

export const dashboardsMcpComponent: Component = subchartComponent(CHART, (ctx, b, version) => {
  const fullname = dashboardsMcpFullname(ctx);
  const namespace = subchartNamespace(ctx, b);
  const { selector, labels } = subchartLabels(ctx, { name: asStr(b.nameOverride) || CHART, chart: CHART, chartVersion: version });
  const configData = { [DASHBOARDS_URL_ENV]: asStr(evalTplDeep(ctx, asStr(at(b, 'grafana.url')))) };
  const token = asStr(at(b, 'grafana.serviceAccountToken'));
  const secretData: Record<string, string> = token ? { [DASHBOARDS_TOKEN_ENV]: Buffer.from(token, 'utf8').toString('base64') } : {};
  const view = {
    fullname,
    namespace,
    labels,
    selector,
    port: DASHBOARDS_MCP_PORT,
    configData,
    secretData,
    url: `http://${fullname}.${namespace}:${DASHBOARDS_MCP_PORT}/mcp`,
    resources: asMap(b.resources),
    ...podView(ctx, {
      image: DASHBOARDS_MCP_IMAGE,
      podAnnotations: { 'checksum/configmap': checksum(configData), 'checksum/secret': checksum(secretData) },
      securityBaseline: { runAsUser: 1000, runAsGroup: 999 },
    }),
  };
  const files: [string, string][] = [
    ['serviceaccount.yaml', 'dashboards-mcp/serviceaccount.yaml.hbs'],
    ['secret.yaml', 'dashboards-mcp/secret.yaml.hbs'],
    ['configmap.yaml', 'dashboards-mcp/configmap.yaml.hbs'],
    ['service.yaml', 'dashboards-mcp/service.yaml.hbs'],
    ['deployment.yaml', 'dashboards-mcp/deployment.yaml.hbs'],
    ['remotemcpserver.yaml', 'dashboards-mcp/remotemcpserver.yaml.hbs'],
  ];
  return subchartDocs(CHART, files, view);
});
