// The authentication proxy's chart values (authproxy.*, OAuth2 proxy chart 10.7.x): the
// combinations that would render an object an API server refuses, an object that does nothing,
// or a proxy that cannot start. Each reads the plan the renderer follows (model/authproxy-plan.ts).
//   bad:  authproxy.sessionStorage.type: redis with no redis address
//   bad:  authproxy.podDisruptionBudget with both minAvailable and maxUnavailable (replicaCount 2)
//   bad:  authproxy.service.port (removed in the proxy chart; use service.portNumber)

import type { RuleContext, ValuesRule } from './types.ts';
import { at, optStr } from '../../model/values-access.ts';
import { authproxyPlan, configFileEmailDomains, emailAdmission } from '../../model/authproxy-plan.ts';
import { isPlainMap, type Values } from '../../values/merge.ts';
import { kubeOlder } from '../../chart/kube-features.ts';
import { MONITORING_API } from '../../chart/cluster-apis.ts';

const SESSION_RULE = 'values/authproxy-session-storage';
const REMOVED_RULE = 'values/authproxy-removed-key';
const PDB_RULE = 'values/authproxy-pdb-thresholds';
const HPA_RULE = 'values/authproxy-autoscaling-bounds';
const ROUTE_RULE = 'values/authproxy-httproute-gateway';
const ROUTE_API_RULE = 'values/authproxy-httproute-needs-api';
const MONITOR_RULE = 'values/authproxy-service-monitor';
const KUBE_RULE = 'values/authproxy-kube-version';
const NOOP_RULE = 'values/authproxy-no-effect';
const HTPASSWD_RULE = 'values/authproxy-htpasswd';
const NETPOL_RULE = 'values/authproxy-network-policy-empty';
const SERVICE_RULE = 'values/authproxy-service-ports';
const EMAIL_RULE = 'security/authproxy-email-widened';

const GATEWAY_API = 'gateway.networking.k8s.io/v1';
/** The oldest Kubernetes that serves every API version the proxy's objects use (autoscaling/v2 since 1.23). */
const OLDEST_KUBE = '1.23';

const declared = (apis: readonly string[] | undefined, api: string, kind: string) => apis !== undefined && apis.some((a) => a === api || a === `${api}/${kind}`);
const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

function redisRules(ctx: RuleContext, b: Values): void {
  const plan = authproxyPlan(b);
  if (!plan.redis.enabled) return;
  const p = 'authproxy.sessionStorage.redis';
  const need = (key: string, what: string) => {
    if (!empty(at(ctx.values, `${p}.${key}`))) return;
    ctx.report({
      rule: SESSION_RULE,
      severity: 'error',
      path: ctx.userSet(`${p}.${key}`) ? `${p}.${key}` : 'authproxy.sessionStorage.type',
      message: `authproxy.sessionStorage.type is redis with clientType ${plan.redis.clientType}, but ${p}.${key} is empty: the proxy would have no ${what}`,
      hint: `set ${p}.${key} to your redis (agentplat does not ship the proxy chart's bundled redis), or use sessionStorage.type: cookie`,
    });
  };
  if (plan.redis.clientType === 'standalone') need('standalone.connectionUrl', 'redis address (for example redis://redis.cache.svc:6379)');
  if (plan.redis.clientType === 'cluster') need('cluster.connectionUrls', 'cluster node addresses');
  if (plan.redis.clientType === 'sentinel') {
    need('sentinel.masterName', 'sentinel master name');
    need('sentinel.connectionUrls', 'sentinel addresses');
  }
}

export const authproxyRules: ValuesRule = {
  ids: [
    { id: SESSION_RULE, description: 'Redis session storage of the authentication proxy needs the address of an external redis for its clientType' },
    { id: REMOVED_RULE, description: 'authproxy.service.port was removed in the proxy chart; use authproxy.service.portNumber (ignored with checkDeprecation: false)' },
    { id: PDB_RULE, description: 'authproxy.podDisruptionBudget takes minAvailable or maxUnavailable, not both' },
    { id: HPA_RULE, description: 'authproxy.autoscaling.minReplicas must not exceed maxReplicas' },
    { id: ROUTE_RULE, description: 'authproxy.gatewayApi.enabled needs gatewayRef.name (the Gateway the route attaches to)' },
    { id: ROUTE_API_RULE, description: 'The authentication proxy HTTPRoute needs the gateway.networking.k8s.io/v1 CRDs (warned when the declared APIs lack them)' },
    { id: MONITOR_RULE, description: 'The authentication proxy ServiceMonitor needs metrics.enabled and the monitoring.coreos.com/v1 API declared' },
    { id: KUBE_RULE, description: 'authproxy.kubeVersion below 1.23 asks for API versions agentplat does not write' },
    { id: NOOP_RULE, description: 'An authentication proxy setting that is switched on but renders nothing (allow-list without addresses, Google settings without credentials)' },
    { id: HTPASSWD_RULE, description: 'authproxy.htpasswdFile.enabled needs entries or an existingSecret' },
    { id: NETPOL_RULE, description: 'An authentication proxy NetworkPolicy without rules denies every connection to the proxy' },
    { id: SERVICE_RULE, description: 'The authentication proxy Service ports must differ, and SingleStack takes one IP family' },
    { id: EMAIL_RULE, description: 'A sign-in restriction the values write (authproxy.config.emailDomains, email_domains of configFile, the authenticatedEmailsFile allow-list) is undone by a domain `*` the proxy also gets (the default --email-domain=* flag wins over the config file)' },
  ],
  check(ctx) {
    const b = at(ctx.values, 'authproxy');
    if (!isPlainMap(b) || b.enabled !== true) return;
    const plan = authproxyPlan(b, ctx.kubeVersion);
    redisRules(ctx, b);

    if (at(ctx.values, 'authproxy.service.port') !== undefined && at(ctx.values, 'authproxy.service.port') !== null) {
      const checked = at(ctx.values, 'authproxy.checkDeprecation') !== false;
      ctx.report({
        rule: REMOVED_RULE,
        severity: checked ? 'error' : 'warning',
        path: 'authproxy.service.port',
        message: checked
          ? 'authproxy.service.port was removed in the proxy chart: the Service port is authproxy.service.portNumber'
          : 'authproxy.service.port is ignored (checkDeprecation is false): the Service port is authproxy.service.portNumber',
        hint: 'move the value to authproxy.service.portNumber and delete authproxy.service.port',
      });
    }

    const portNumber = at(ctx.values, 'authproxy.service.portNumber');
    if (plan.metrics.enabled && typeof portNumber === 'number' && portNumber === plan.metrics.port) {
      ctx.report({
        rule: SERVICE_RULE,
        severity: 'error',
        path: ctx.userSet('authproxy.metrics.port') ? 'authproxy.metrics.port' : 'authproxy.service.portNumber',
        message: `authproxy.service.portNumber and authproxy.metrics.port are both ${portNumber}: the API server refuses a Service with two ports of the same number`,
        hint: 'give the metrics port its own number (default 44180), or set authproxy.metrics.enabled: false',
      });
    }
    const families = at(ctx.values, 'authproxy.service.ipDualStack.ipFamilies');
    if (at(ctx.values, 'authproxy.service.ipDualStack.enabled') === true && at(ctx.values, 'authproxy.service.ipDualStack.ipFamilyPolicy') === 'SingleStack'
      && Array.isArray(families) && families.length > 1) {
      ctx.report({
        rule: SERVICE_RULE,
        severity: 'error',
        path: ctx.userSet('authproxy.service.ipDualStack.ipFamilies') ? 'authproxy.service.ipDualStack.ipFamilies' : 'authproxy.service.ipDualStack.ipFamilyPolicy',
        message: 'authproxy.service.ipDualStack.ipFamilyPolicy is SingleStack but ipFamilies lists two families: the API server refuses the Service',
        hint: 'keep one family, or use ipFamilyPolicy PreferDualStack or RequireDualStack',
      });
    }

    if (plan.pdb.render && plan.pdb.minAvailable && plan.pdb.maxUnavailable) {
      ctx.report({
        rule: PDB_RULE,
        severity: 'error',
        path: ctx.userSet('authproxy.podDisruptionBudget.maxUnavailable') ? 'authproxy.podDisruptionBudget.maxUnavailable' : 'authproxy.podDisruptionBudget.minAvailable',
        message: 'authproxy.podDisruptionBudget sets both minAvailable and maxUnavailable: the API server refuses such a PodDisruptionBudget',
        hint: 'keep one: set the other to null (minAvailable defaults to 1)',
      });
    }

    const minReplicas = at(ctx.values, 'authproxy.autoscaling.minReplicas');
    const maxReplicas = at(ctx.values, 'authproxy.autoscaling.maxReplicas');
    if (plan.autoscaling.enabled && typeof minReplicas === 'number' && typeof maxReplicas === 'number' && minReplicas > maxReplicas) {
      ctx.report({
        rule: HPA_RULE,
        severity: 'error',
        path: ctx.userSet('authproxy.autoscaling.minReplicas') ? 'authproxy.autoscaling.minReplicas' : 'authproxy.autoscaling.maxReplicas',
        message: `authproxy.autoscaling.minReplicas (${minReplicas}) is above maxReplicas (${maxReplicas}): the API server refuses the HorizontalPodAutoscaler`,
        hint: 'raise authproxy.autoscaling.maxReplicas or lower minReplicas',
      });
    }

    if (at(ctx.values, 'authproxy.gatewayApi.enabled') === true) {
      if (!optStr(ctx.values, 'authproxy.gatewayApi.gatewayRef.name')) {
        ctx.report({
          rule: ROUTE_RULE,
          severity: 'error',
          path: 'authproxy.gatewayApi.gatewayRef',
          message: 'authproxy.gatewayApi.enabled is true but authproxy.gatewayApi.gatewayRef has no name: the route\'s parentRefs entry would be refused',
          hint: 'set authproxy.gatewayApi.gatewayRef: {name: my-gateway, namespace: gateways}',
        });
      }
      if (ctx.apiVersions && ctx.apiVersions.length > 0 && !ctx.apiVersions.some((a) => a === GATEWAY_API || a.startsWith(`${GATEWAY_API}/`))) {
        ctx.report({
          rule: ROUTE_API_RULE,
          severity: 'warning',
          path: 'authproxy.gatewayApi.enabled',
          message: `the proxy's HTTPRoute needs the ${GATEWAY_API} CRDs, and the declared cluster APIs do not include them: kubectl would refuse it`,
          hint: `install the Gateway API CRDs and pass --api-versions ${GATEWAY_API}, or set authproxy.gatewayApi.enabled: false`,
        });
      }
    }

    if (at(ctx.values, 'authproxy.metrics.serviceMonitor.enabled') === true) {
      if (!plan.metrics.enabled) {
        ctx.report({
          rule: MONITOR_RULE,
          severity: 'warning',
          path: 'authproxy.metrics.serviceMonitor.enabled',
          message: 'no ServiceMonitor is rendered: authproxy.metrics.enabled is false, so the proxy serves no metrics',
          hint: 'set authproxy.metrics.enabled: true, or authproxy.metrics.serviceMonitor.enabled: false',
        });
      } else if (ctx.apiVersions && !declared(ctx.apiVersions, MONITORING_API, 'ServiceMonitor')) {
        ctx.report({
          rule: MONITOR_RULE,
          severity: 'warning',
          path: 'authproxy.metrics.serviceMonitor.enabled',
          message: `no ServiceMonitor is rendered for the proxy: the cluster API ${MONITORING_API} was not declared`,
          hint: `pass --api-versions ${MONITORING_API} when the cluster runs the monitoring operator`,
        });
      }
    }

    const ownKube = optStr(ctx.values, 'authproxy.kubeVersion');
    if (ownKube && kubeOlder(ownKube, OLDEST_KUBE)) {
      ctx.report({
        rule: KUBE_RULE,
        severity: 'error',
        path: 'authproxy.kubeVersion',
        message: `authproxy.kubeVersion ${JSON.stringify(ownKube)} asks for the proxy's objects in API versions older than networking.k8s.io/v1, policy/v1 and autoscaling/v2, which agentplat does not write`,
        hint: `agentplat supports Kubernetes ${OLDEST_KUBE} and newer for the proxy; remove authproxy.kubeVersion or set ${OLDEST_KUBE} or newer`,
      });
    }

    emailRestrictions(ctx, b, plan.accessList.mount);

    if (at(ctx.values, 'authproxy.authenticatedEmailsFile.enabled') === true && !plan.accessList.mount) {
      ctx.report({
        rule: NOOP_RULE,
        severity: 'warning',
        path: 'authproxy.authenticatedEmailsFile.enabled',
        message: 'authproxy.authenticatedEmailsFile.enabled is true but neither restricted_access nor template is set: no allow-list is mounted and every address of the allowed domains may sign in',
        hint: 'list the addresses in authproxy.authenticatedEmailsFile.restricted_access, or name an existing ConfigMap or Secret in .template',
      });
    }
    if (optStr(ctx.values, 'authproxy.config.google.adminEmail') && !plan.google.enabled) {
      ctx.report({
        rule: NOOP_RULE,
        severity: 'warning',
        path: 'authproxy.config.google.adminEmail',
        message: 'authproxy.config.google.adminEmail is set without credentials: no Google flags are passed',
        hint: 'set authproxy.config.google.serviceAccountJson, .existingSecret or .useApplicationDefaultCredentials: true',
      });
    }

    if (plan.htpasswd.renderSecret && empty(at(ctx.values, 'authproxy.htpasswdFile.entries'))) {
      ctx.report({
        rule: HTPASSWD_RULE,
        severity: 'error',
        path: 'authproxy.htpasswdFile.enabled',
        message: 'authproxy.htpasswdFile.enabled is true but it has no entries and no existingSecret: the proxy would read an empty password file',
        hint: 'add htpasswd lines (user:bcrypt-hash) to authproxy.htpasswdFile.entries, or name a Secret with key users.txt in .existingSecret',
      });
    }

    if (at(ctx.values, 'authproxy.networkPolicy.create') === true && empty(at(ctx.values, 'authproxy.networkPolicy.ingress')) && empty(at(ctx.values, 'authproxy.networkPolicy.egress'))) {
      ctx.report({
        rule: NETPOL_RULE,
        severity: 'warning',
        path: 'authproxy.networkPolicy.create',
        message: 'the proxy NetworkPolicy has no rules: it selects the proxy pods and admits no connection to them (Kubernetes treats a policy without types as an Ingress policy)',
        hint: 'add authproxy.networkPolicy.ingress rules that admit your ingress controller or gateway',
      });
    }
  },
};

/**
 * A restriction of who may sign in that the values write must be what the proxy enforces. The
 * proxy takes `--email-domain` flags over `email_domains` of its config file, and a domain `*`
 * admits every address, whatever the allow-list says; the chart's defaults pass
 * `--email-domain=*`. agentplat renders what the chart renders and refuses the contradiction
 * (docs/decisions.md, "E-mail restrictions of the authentication proxy").
 */
function emailRestrictions(ctx: RuleContext, b: Values, allowList: boolean): void {
  const admission = emailAdmission(b);
  const config = isPlainMap(b.config) ? b.config : {};
  const ownFile = typeof config.configFile === 'string' && config.configFile !== '' ? config.configFile : '';
  const listed = (domains: readonly string[]) => (domains.length === 0 ? 'no domain' : domains.join(', '));
  // Each restriction the user wrote, with what it admits.
  const restrictions: { path: string; what: string }[] = [];
  const written = at(ctx.values, 'authproxy.config.emailDomains');
  const writtenDomains = Array.isArray(written) ? written.map((x) => String(x)) : undefined;
  if (ctx.userSet('authproxy.config.emailDomains') && writtenDomains && !writtenDomains.includes('*')) {
    restrictions.push({ path: 'authproxy.config.emailDomains', what: `authproxy.config.emailDomains admits ${listed(writtenDomains)}` });
  }
  const fileDomains = ownFile ? configFileEmailDomains(ownFile) : undefined;
  if (ctx.userSet('authproxy.config.configFile') && fileDomains && !fileDomains.includes('*')) {
    restrictions.push({ path: 'authproxy.config.configFile', what: `email_domains of authproxy.config.configFile admits ${listed(fileDomains)}` });
  }
  if (allowList) {
    restrictions.push({ path: 'authproxy.authenticatedEmailsFile.enabled', what: 'authproxy.authenticatedEmailsFile admits the addresses of its list' });
  }
  if (restrictions.length === 0) return;

  if (admission.everyone) {
    const fixes: string[] = [];
    let cause: string;
    if (admission.flagDomains?.includes('*')) {
      const listForm = Array.isArray(b.extraArgs);
      cause = `the container flag --email-domain=* (authproxy.extraArgs${listForm ? '' : '.email-domain'}, ${ctx.userSet('authproxy.extraArgs') ? 'as your values write it' : 'a default of the chart'}) wins over the config file and admits every address`;
      fixes.push(listForm ? 'remove --email-domain=* from authproxy.extraArgs' : 'remove the flag with authproxy.extraArgs: {email-domain: null} (null removes a default key, as in helm)');
      const domains = writtenDomains && !writtenDomains.includes('*') && writtenDomains.length > 0 ? writtenDomains : fileDomains?.filter((d) => d !== '*');
      if (!listForm && domains && domains.length === 1) fixes.push(`, or pass your domain as the flag: authproxy.extraArgs.email-domain: ${domains[0]}`);
      if (allowList && admission.configDomains?.includes('*')) fixes.push('; then set authproxy.config.emailDomains: [] so that only the listed addresses sign in (the config file admits "*" by default too)');
    } else {
      cause = `email_domains = ["*"] of the proxy's config file (${ownFile ? 'authproxy.config.configFile' : 'authproxy.config.emailDomains, the chart\'s default'}) admits every address`;
      fixes.push(ownFile ? 'remove "*" from email_domains in authproxy.config.configFile' : 'set authproxy.config.emailDomains: [] (only the listed addresses sign in), or to the domains admitted beside the list');
    }
    for (const r of restrictions) {
      ctx.report({
        rule: EMAIL_RULE,
        severity: 'error',
        path: r.path,
        message: `${r.what}, but ${cause}: the restriction has no effect and everyone with an account at the identity provider may sign in`,
        hint: `${fixes.join('')}; docs/security.md explains it`,
      });
    }
    return;
  }
  // Not widened, but the written domains are not what the proxy reads.
  if (restrictions[0]?.path === 'authproxy.config.emailDomains') {
    const why = admission.flagDomains !== undefined
      ? `the container flag --email-domain (authproxy.extraArgs) admits ${listed(admission.flagDomains)} and wins over the config file`
      : !admission.configKnown
        ? (config.existingConfig ? 'the config file is the existing ConfigMap authproxy.config.existingConfig' : 'the legacy config file is not mounted (authproxy.config.forceLegacyConfig is false)')
        : ownFile ? 'authproxy.config.configFile replaces the generated config file' : undefined;
    if (why) {
      ctx.report({
        rule: NOOP_RULE,
        severity: 'warning',
        path: 'authproxy.config.emailDomains',
        message: `authproxy.config.emailDomains is not what the proxy reads: ${why}`,
        hint: 'restrict the domains where the proxy reads them (the --email-domain flag in authproxy.extraArgs, or email_domains in the config file), and remove authproxy.config.emailDomains',
      });
    }
  }
}
