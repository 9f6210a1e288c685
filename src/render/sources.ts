// The `# Source:` path of every rendered object and the templates that make it. A source path is
// the reference chart's file for the object: what `helm template` prints, what users pass to
// --show-only, and the file --output-dir writes. Our templates are fewer and generic (one
// ConfigMap template serves four sources, the role and binding templates every RBAC file), so
// file names cannot match; this table is the one place the two meet, and renderDocs refuses a
// source and template pair it does not list (docs/decisions.md, "Source paths and templates").

import { AGENT_AREAS, REVISIONS, type Revision } from '../chart/revisions.ts';

const chart = (file: string): string => `agentplat/templates/${file}`;
const sub = (name: string, file: string): string => `agentplat/charts/${name}/templates/${file}`;

export const SOURCE_TEMPLATES: Readonly<Record<string, readonly string[]>> = {
  [chart('authproxy-templates.yaml')]: ['chart/configmap.yaml.hbs'],
  [chart('builtin-prompts-configmap.yaml')]: ['chart/configmap.yaml.hbs'],
  [chart('controller-configmap.yaml')]: ['chart/configmap.yaml.hbs'],
  [chart('controller-database-secret.yaml')]: ['chart/secret.yaml.hbs'],
  [chart('ui-edge-configmap.yaml')]: ['chart/configmap.yaml.hbs'],
  [chart('controller-deployment.yaml')]: ['chart/controller-deployment.yaml.hbs'],
  [chart('ui-deployment.yaml')]: ['chart/ui-deployment.yaml.hbs'],
  [chart('controller-service.yaml')]: ['chart/service.yaml.hbs'],
  [chart('controller-metrics-service.yaml')]: ['chart/service.yaml.hbs'],
  [chart('ui-service.yaml')]: ['chart/service.yaml.hbs'],
  [chart('controller-serviceaccount.yaml')]: ['chart/serviceaccount.yaml.hbs'],
  [chart('ui-serviceaccount.yaml')]: ['chart/serviceaccount.yaml.hbs'],
  [chart('controller-pdb.yaml')]: ['chart/pdb.yaml.hbs'],
  [chart('ui-pdb.yaml')]: ['chart/pdb.yaml.hbs'],
  [chart('controller-servicemonitor.yaml')]: ['chart/controller-servicemonitor.yaml.hbs'],
  [chart('extra-objects.yaml')]: ['chart/extra-object.yaml.hbs'],
  [chart('modelconfig.yaml')]: ['chart/modelconfig.yaml.hbs'],
  [chart('modelconfig-secret.yaml')]: ['chart/secret.yaml.hbs'],
  [chart('postgresql-secret.yaml')]: ['chart/secret.yaml.hbs'],
  [chart('postgresql.yaml')]: ['chart/postgresql.yaml.hbs'],
  [chart('openshift-route.yaml')]: ['chart/openshift-route.yaml.hbs'],
  [chart('ui-httproute.yaml')]: ['chart/ui-httproute.yaml.hbs'],
  [chart('substrate-workerpool.yaml')]: ['chart/substrate-workerpool.yaml.hbs'],
  [chart('toolserver-agentplat.yaml')]: ['chart/toolserver.yaml.hbs'],
  [chart('substrate-api-rbac.yaml')]: ['chart/rbac/role.yaml.hbs', 'chart/rbac/binding.yaml.hbs'],
  [chart('rbac/getter-role.yaml')]: ['chart/rbac/role.yaml.hbs'],
  [chart('rbac/getter-rolebinding.yaml')]: ['chart/rbac/binding.yaml.hbs'],
  [chart('rbac/writer-role.yaml')]: ['chart/rbac/role.yaml.hbs'],
  [chart('rbac/writer-rolebinding.yaml')]: ['chart/rbac/binding.yaml.hbs'],
  [chart('rbac/leader-election-role.yaml')]: ['chart/rbac/role.yaml.hbs'],
  [chart('rbac/leader-election-rolebinding.yaml')]: ['chart/rbac/binding.yaml.hbs'],
  [chart('rbac/metrics-auth-clusterrole.yaml')]: ['chart/rbac/role.yaml.hbs'],
  [chart('rbac/metrics-auth-clusterrolebinding.yaml')]: ['chart/rbac/binding.yaml.hbs'],
  [chart('rbac/metrics-reader-clusterrole.yaml')]: ['chart/rbac/role.yaml.hbs'],
  [chart('rbac/metrics-reader-clusterrolebinding.yaml')]: ['chart/rbac/binding.yaml.hbs'],

  [sub('agentplat-tools', 'clusterrole.yaml')]: ['agentplat-tools/rbac.yaml.hbs'],
  [sub('agentplat-tools', 'deployment.yaml')]: ['agentplat-tools/deployment.yaml.hbs'],
  [sub('agentplat-tools', 'service.yaml')]: ['agentplat-tools/service.yaml.hbs'],
  [sub('agentplat-tools', 'serviceaccount.yaml')]: ['agentplat-tools/serviceaccount.yaml.hbs'],
  [sub('agentplat-tools', 'servicemonitor.yaml')]: ['agentplat-tools/servicemonitor.yaml.hbs'],
  [sub('authproxy', 'configmap.yaml')]: ['authproxy/configmap.yaml.hbs'],
  [sub('authproxy', 'configmap-authenticated-emails-file.yaml')]: ['authproxy/configmap.yaml.hbs'],
  [sub('authproxy', 'deployment.yaml')]: ['authproxy/deployment.yaml.hbs'],
  [sub('authproxy', 'extra-manifests.yaml')]: ['chart/extra-object.yaml.hbs'],
  [sub('authproxy', 'google-secret.yaml')]: ['authproxy/secret.yaml.hbs'],
  [sub('authproxy', 'hpa.yaml')]: ['authproxy/hpa.yaml.hbs'],
  [sub('authproxy', 'httproute.yaml')]: ['authproxy/httproute.yaml.hbs'],
  [sub('authproxy', 'ingress.yaml')]: ['authproxy/ingress.yaml.hbs'],
  [sub('authproxy', 'networkpolicy.yaml')]: ['authproxy/networkpolicy.yaml.hbs'],
  [sub('authproxy', 'poddisruptionbudget.yaml')]: ['authproxy/pdb.yaml.hbs'],
  [sub('authproxy', 'redis-secret.yaml')]: ['authproxy/secret.yaml.hbs'],
  [sub('authproxy', 'secret.yaml')]: ['authproxy/secret.yaml.hbs'],
  [sub('authproxy', 'secret-alpha.yaml')]: ['authproxy/secret.yaml.hbs'],
  [sub('authproxy', 'secret-authenticated-emails-file.yaml')]: ['authproxy/secret.yaml.hbs'],
  [sub('authproxy', 'secret-htpasswd-file.yaml')]: ['authproxy/secret.yaml.hbs'],
  [sub('authproxy', 'service.yaml')]: ['authproxy/service.yaml.hbs'],
  [sub('authproxy', 'serviceaccount.yaml')]: ['authproxy/serviceaccount.yaml.hbs'],
  [sub('authproxy', 'servicemonitor.yaml')]: ['authproxy/servicemonitor.yaml.hbs'],
  [sub('dashboards-mcp', 'configmap.yaml')]: ['dashboards-mcp/configmap.yaml.hbs'],
  [sub('dashboards-mcp', 'deployment.yaml')]: ['dashboards-mcp/deployment.yaml.hbs'],
  [sub('dashboards-mcp', 'remotemcpserver.yaml')]: ['dashboards-mcp/remotemcpserver.yaml.hbs'],
  [sub('dashboards-mcp', 'secret.yaml')]: ['dashboards-mcp/secret.yaml.hbs'],
  [sub('dashboards-mcp', 'service.yaml')]: ['dashboards-mcp/service.yaml.hbs'],
  [sub('dashboards-mcp', 'serviceaccount.yaml')]: ['dashboards-mcp/serviceaccount.yaml.hbs'],
  [sub('mcpop', 'deployment.yaml')]: ['mcpop/deployment.yaml.hbs'],
  [sub('mcpop', 'rbac.yaml')]: ['mcpop/manager-rbac.yaml.hbs', 'mcpop/metrics-rbac.yaml.hbs', 'mcpop/leader-election-rbac.yaml.hbs'],
  [sub('mcpop', 'service.yaml')]: ['mcpop/service.yaml.hbs'],
  [sub('mcpop', 'serviceaccount.yaml')]: ['mcpop/serviceaccount.yaml.hbs'],
  [sub('substrate', 'api-server/configmap.yaml')]: ['substrate/api-configmap.yaml.hbs'],
  [sub('substrate', 'api-server/deployment.yaml')]: ['substrate/api-deployment.yaml.hbs'],
  [sub('substrate', 'api-server/rbac.yaml')]: ['substrate/api-rbac.yaml.hbs'],
  [sub('substrate', 'api-server/service.yaml')]: ['substrate/api-service.yaml.hbs'],
  [sub('substrate', 'api-server/serviceaccount.yaml')]: ['substrate/api-serviceaccount.yaml.hbs'],
  // Revision A's bundled agents: one chart per area, one template for all.
  ...Object.fromEntries(AGENT_AREAS.map((area) => [sub(`${area}-agent`, 'agent.yaml'), ['agents/agent.yaml.hbs']])),
};

/** Throws unless the table lists `template` as a maker of `source`. */
export function checkSource(source: string, template: string): void {
  if (!SOURCE_TEMPLATES[source]?.includes(template)) {
    throw new Error(`${template} renders the source ${source}, which src/render/sources.ts does not list for it`);
  }
}

const AGENT_SOURCES: ReadonlySet<string> = new Set(AGENT_AREAS.map((area) => sub(`${area}-agent`, 'agent.yaml')));

/**
 * Why `revision` renders nothing from `source` whatever its values (a template it does not ship),
 * or undefined when some values of it render that source.
 */
export function sourceAbsentFrom(revision: Revision, source: string): string | undefined {
  if (AGENT_SOURCES.has(source) && !REVISIONS[revision].bundledAgents) return `revision ${revision} bundles no agents`;
  return undefined;
}
