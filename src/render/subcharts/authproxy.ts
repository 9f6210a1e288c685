// The authentication proxy sub-chart (`authproxy.*`, off by default): the upstream OAuth2
// proxy in front of the UI, with the values surface of the proxy chart it stands for (10.7.x).
// The sign-in templates ConfigMap it mounts belongs to the main chart
// (src/render/components/platform.ts); the checksum include of its default extraEnv is
// in the values templates' table (src/model/tpl.ts). What each key does, and when each optional
// object renders, is decided here once; lint/rules/authproxy.ts refuses the combinations an API
// server or the proxy would refuse.
// Not rendered: the proxy chart's own redis sub-chart (redis-ha.*, initContainers.waitForRedis),
// which is not vendored; those keys stay unknown with a hint (chart/replacements.ts).

import { stringify } from 'yaml';
import type { Component, Piece, RenderContext } from '../../model/context.ts';
import { checksum } from '../../model/checksum.ts';
import { subchartNamespace, subchartSource } from './common.ts';
import { asBool, asList, asMap, asStr, present } from '../../model/values-access.ts';
import { authproxyFullname } from './names.ts';
import { evalTplDeep } from './tpl-values.ts';
import { tplScope } from '../../model/tpl-scope.ts';
import { AUTHPROXY_SECRET_KEYS } from '../../model/authproxy-secret-keys.ts';
import { AUTHPROXY_SECURITY_BASELINE, authproxyPlan, type AuthproxyPlan } from '../../model/authproxy-plan.ts';
import { expandExtraObjects } from '../../model/extra-objects.ts';
import { kubeServes } from '../../chart/kube-features.ts';
import { dnsTrunc } from '../../model/context.ts';
import { renderDocs } from '../engine.ts';
import { RenderError } from '../components/common.ts';
import { podView, subchartLabels, subchartPieces, type LabelSpec } from './workload.ts';
import type { Values } from '../../values/merge.ts';
import { jsonText } from '../../values/big-integers.ts';
import { MONITORING_API } from '../../chart/cluster-apis.ts';

export { AUTHPROXY_SECRET_KEYS };

const CHART = 'authproxy';
/** The upstream proxy the sub-chart (10.7.x) ships: image registry, repository and version. */
export const AUTHPROXY_IMAGE = { registry: 'quay.io', repository: 'oauth2-proxy/oauth2-proxy', version: '7.15.3' } as const;
export const AUTHPROXY_HTTP_PORT = 4180;
export const AUTHPROXY_HTTPS_PORT = 4443;
export const AUTHPROXY_METRICS_PORT = 44180;
/** Where the config files are mounted in the container. */
const CONFIG_DIR = '/etc/oauth2_proxy';

/** One container flag per extraArgs entry, sorted by key: `--key=value` (a list is appended as written). */
export function proxyArgs(extraArgs: unknown): string[] {
  if (Array.isArray(extraArgs)) return extraArgs.map((a) => asStr(a, jsonText(a) as string));
  const m = asMap(extraArgs);
  return Object.keys(m)
    .sort()
    .map((k) => {
      const v = m[k];
      if (v === null || v === undefined) return `--${k}`;
      return `--${k}=${typeof v === 'object' ? jsonText(v) : String(v)}`;
    });
}

/** A non-empty map, else undefined (a template then leaves the field out). */
const nonEmptyMap = (v: unknown): Values | undefined => (present(v) && Object.keys(asMap(v)).length > 0 ? asMap(v) : undefined);
const nonEmptyList = (v: unknown): unknown[] | undefined => (asList(v).length > 0 ? asList(v) : undefined);
const b64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The legacy config file: the two generated lines, or config.configFile as written. */
function legacyConfigText(b: Values, plan: AuthproxyPlan): string {
  const config = asMap(b.config);
  const own = asStr(config.configFile);
  if (own) return own;
  const lines = [`email_domains = ${JSON.stringify(asList(config.emailDomains).map((x) => asStr(x, String(x))))}`];
  if (!plan.alpha.enabled) lines.push(`upstreams = ${JSON.stringify(asList(config.upstreams).map((x) => asStr(x, String(x))))}`);
  return lines.join('\n');
}

/** The alpha configuration YAML: server (bind address first), metricsServer, the top-level data, then configFile. */
function alphaConfigText(ctx: RenderContext, b: Values, plan: AuthproxyPlan): string {
  const alpha = asMap(b.alphaConfig);
  const doc: Values = {
    server: { BindAddress: `0.0.0.0:${plan.httpPort}`, ...asMap(alpha.serverConfigData) },
    ...(plan.metrics.enabled ? { metricsServer: { BindAddress: `0.0.0.0:${plan.metrics.port}`, ...asMap(alpha.metricsConfigData) } } : {}),
    ...asMap(alpha.configData),
  };
  const tail = asStr(evalTplDeep(ctx, asStr(alpha.configFile)));
  return stringify(doc) + (tail ? `${tail.endsWith('\n') ? tail : `${tail}\n`}` : '');
}

// The proxy makes its objects in pieces (Component.pieces): what holds for all of them (the plan,
// names, labels, which objects render) first, then one piece per object, which reads the values
// only that object uses. A piece reads nothing another piece computed: the Deployment computes
// the checksums of the Secrets and ConfigMaps it mounts itself (the helpers below), so a key read
// for one object is recorded under that object alone (render/render.ts).
export const authproxyComponent: Component = subchartPieces(CHART, (ctx, b, version) => {
  const plan = authproxyPlan(b, ctx.capabilities.kubeVersion);
  const config = asMap(b.config);
  const fullname = authproxyFullname(ctx);
  const namespace = subchartNamespace(ctx, b);
  // The chart's name, nameOverride when set, names its container and its labels.
  const name = asStr(b.nameOverride) || CHART;
  const spec: LabelSpec = {
    name,
    chart: CHART,
    chartVersion: version,
    appVersion: AUTHPROXY_IMAGE.version,
    extra: { 'app.kubernetes.io/component': 'authentication-proxy', 'app.kubernetes.io/part-of': 'agentplat' },
  };
  const { labels: chartLabels, selector } = subchartLabels(ctx, spec);
  // customLabels reach every proxy object; the identity labels stay the chart's own.
  const withLabels = (...extra: unknown[]) => {
    const out: Record<string, string> = { ...chartLabels };
    for (const m of [b.customLabels, ...extra]) for (const [k, v] of Object.entries(asMap(m))) if (!(k in out)) out[k] = asStr(v, String(v));
    return out;
  };
  const labels = withLabels();
  const names = {
    secret: plan.credentials.secretName || fullname,
    config: plan.legacyConfig.existing || fullname,
    google: plan.google.existingSecret || dnsTrunc(`${fullname}-google`),
    redis: dnsTrunc(`${fullname}-redis-access`),
    alpha: dnsTrunc(`${fullname}-alpha`),
    accessList: plan.accessList.template || dnsTrunc(`${fullname}-accesslist`),
    htpasswd: plan.htpasswd.existingSecret || dnsTrunc(`${fullname}-htpasswd-file`),
  };
  const meta = (objName: string, objLabels: Record<string, string>, annotations?: unknown, ns: string = namespace) => ({
    name: objName,
    namespace: ns,
    labels: objLabels,
    annotations: nonEmptyMap(annotations) ?? null,
  });
  const pieces: Piece[] = [];
  /** A piece that renders one template of the proxy. */
  const object = (file: string, template: string, data: () => unknown) => {
    const source = subchartSource(CHART, file);
    pieces.push({ name: file, source, make: () => renderDocs(source, template, data()) });
  };

  // The data of the Secrets and ConfigMaps the Deployment carries a checksum of: computed where
  // each object is made and again by the Deployment (no piece reads what another computed).
  // Inline secret values are taken as written and base64-encoded; nothing is generated: a
  // missing value is a lint error (lint/rules/subcharts.ts).
  const secretData = () => {
    const data: Record<string, string> = {};
    for (const s of AUTHPROXY_SECRET_KEYS) data[s.key] = b64(asStr(config[s.value]));
    return data;
  };
  const legacyData = () => ({ 'oauth2_proxy.cfg': legacyConfigText(b, plan) });
  const googleData = () => ({ 'service-account.json': b64(asStr(asMap(config.google).serviceAccountJson)) });
  const redisData = () => {
    const redis = asMap(asMap(b.sessionStorage).redis);
    const sentinel = asMap(redis.sentinel);
    const data: Record<string, string> = {};
    if (plan.redis.password === 'chart') data[asStr(redis.passwordKey) || 'redis-password'] = b64(asStr(redis.password));
    if (plan.redis.sentinelPassword === 'chart') data[asStr(sentinel.passwordKey) || 'redis-sentinel-password'] = b64(asStr(sentinel.password));
    return data;
  };
  const alphaData = () => ({ 'oauth2_proxy.yml': b64(alphaConfigText(ctx, b, plan)) });
  const accessKey = () => asStr(asMap(b.authenticatedEmailsFile).restrictedUserAccessKey) || 'restricted_user_access';
  const portName = plan.https ? 'https' : 'http';
  const service = asMap(b.service);
  /** The Service's first port, which the Ingress and the route send to. */
  const backendPort = () => (typeof service.portNumber === 'number' ? service.portNumber : AUTHPROXY_HTTP_PORT);
  const num = (v: unknown, d: number) => (typeof v === 'number' ? v : d);

  // ---- ServiceAccount ----
  if (plan.serviceAccount.render) {
    object('serviceaccount.yaml', 'authproxy/serviceaccount.yaml.hbs', () => {
      const sa = asMap(b.serviceAccount);
      return { meta: meta(plan.serviceAccount.name || fullname, labels, sa.annotations), automount: plan.serviceAccount.automount, pullSecrets: nonEmptyList(sa.imagePullSecrets) ?? null };
    });
  }

  // ---- credentials Secret ----
  if (plan.credentials.render) object('secret.yaml', 'authproxy/secret.yaml.hbs', () => ({ meta: meta(fullname, labels, config.annotations), data: secretData() }));

  // ---- legacy config ConfigMap ----
  if (plan.legacyConfig.render) object('configmap.yaml', 'authproxy/configmap.yaml.hbs', () => ({ meta: meta(fullname, labels, config.annotations), data: legacyData() }));

  // ---- google service account Secret ----
  if (plan.google.renderSecret) object('google-secret.yaml', 'authproxy/secret.yaml.hbs', () => ({ meta: meta(names.google, labels), data: googleData() }));

  // ---- redis access Secret ----
  if (plan.redis.renderSecret) object('redis-secret.yaml', 'authproxy/secret.yaml.hbs', () => ({ meta: meta(names.redis, labels), data: redisData() }));

  // ---- alpha config Secret ----
  if (plan.alpha.renderSecret) object('secret-alpha.yaml', 'authproxy/secret.yaml.hbs', () => ({ meta: meta(names.alpha, labels, asMap(b.alphaConfig).annotations), data: alphaData() }));

  // ---- access list ConfigMap or Secret ----
  if (plan.accessList.render) {
    const asSecret = plan.accessList.persistence === 'secret';
    object(asSecret ? 'secret-authenticated-emails-file.yaml' : 'configmap-authenticated-emails-file.yaml', asSecret ? 'authproxy/secret.yaml.hbs' : 'authproxy/configmap.yaml.hbs', () => {
      const emails = asMap(b.authenticatedEmailsFile);
      const text = asStr(emails.restricted_access);
      return { meta: meta(names.accessList, labels, emails.annotations), data: { [accessKey()]: asSecret ? b64(text) : text } };
    });
  }

  // ---- htpasswd Secret ----
  if (plan.htpasswd.renderSecret) {
    object('secret-htpasswd-file.yaml', 'authproxy/secret.yaml.hbs', () => ({
      meta: meta(names.htpasswd, labels),
      data: { 'users.txt': b64(asList(asMap(b.htpasswdFile).entries).map((e) => asStr(e, String(e))).join('\n')) },
    }));
  }

  // ---- Deployment ----
  object('deployment.yaml', 'authproxy/deployment.yaml.hbs', () => {
    const podAnn: Record<string, string> = {};
    if (plan.credentials.render) podAnn['checksum/secret'] = checksum(secretData());
    if (plan.legacyConfig.render) podAnn['checksum/config'] = checksum(legacyData());
    if (plan.google.renderSecret) podAnn['checksum/google-secret'] = checksum(googleData());
    if (plan.redis.renderSecret) podAnn['checksum/redis-secret'] = checksum(redisData());
    if (plan.alpha.renderSecret) podAnn['checksum/alpha-config'] = checksum(alphaData());
    const google = asMap(config.google);
    const redis = asMap(asMap(b.sessionStorage).redis);
    const sentinel = asMap(redis.sentinel);
    const alpha = asMap(b.alphaConfig);
    const args: string[] = [];
    if (!plan.alpha.enabled) {
      args.push(`--http-address=0.0.0.0:${plan.httpPort}`);
      if (plan.https) args.push(`--https-address=0.0.0.0:${AUTHPROXY_HTTPS_PORT}`);
      if (plan.metrics.enabled) args.push(`--metrics-address=0.0.0.0:${plan.metrics.port}`);
    }
    args.push(...proxyArgs(evalTplDeep(ctx, b.extraArgs)));
    if (asStr(config.cookieName)) args.push(`--cookie-name=${asStr(config.cookieName)}`);
    const volumes: unknown[] = [];
    const mounts: unknown[] = [];
    if (plan.google.enabled) {
      args.push(`--google-admin-email=${asStr(google.adminEmail)}`);
      if (plan.google.applicationDefault) args.push('--google-use-application-default-credentials=true');
      else {
        args.push('--google-service-account-json=/google/service-account.json');
        volumes.push({ name: 'google-secret', secret: { secretName: names.google } });
        mounts.push({ name: 'google-secret', mountPath: '/google', readOnly: true });
      }
      if (asStr(google.targetPrincipal)) args.push(`--google-target-principal=${asStr(google.targetPrincipal)}`);
      for (const g of asList(google.groups)) args.push(`--google-group=${asStr(g, String(g))}`);
    }
    if (plan.accessList.mount) {
      const file = names.accessList;
      args.push(`--authenticated-emails-file=${CONFIG_DIR}/accesslist/${file}`);
      const items = [{ key: accessKey(), path: file }];
      volumes.push(plan.accessList.persistence === 'secret'
        ? { name: 'configaccesslist', secret: { secretName: names.accessList, items } }
        : { name: 'configaccesslist', configMap: { name: names.accessList, items } });
      mounts.push({ name: 'configaccesslist', mountPath: `${CONFIG_DIR}/accesslist`, readOnly: true });
    }
    if (plan.htpasswd.enabled) {
      args.push(`--htpasswd-file=${CONFIG_DIR}/htpasswd/users.txt`);
      volumes.push({ name: 'configaccesslist-htpasswd', secret: { secretName: names.htpasswd } });
      mounts.push({ name: 'configaccesslist-htpasswd', mountPath: `${CONFIG_DIR}/htpasswd`, readOnly: true });
    }
    if (plan.legacyConfig.mount) {
      args.push(`--config=${CONFIG_DIR}/oauth2_proxy.cfg`);
      volumes.unshift({ name: 'configmain', configMap: { name: names.config, defaultMode: 420 } });
      mounts.unshift({ name: 'configmain', mountPath: `${CONFIG_DIR}/oauth2_proxy.cfg`, subPath: 'oauth2_proxy.cfg' });
    }
    if (plan.alpha.enabled) {
      args.push(`--alpha-config=${CONFIG_DIR}/oauth2_proxy.yml`);
      const existingConfig = asStr(alpha.existingConfig);
      const existingSecret = asStr(alpha.existingSecret);
      volumes.push(existingConfig
        ? { name: 'configalpha', configMap: { name: existingConfig } }
        : { name: 'configalpha', secret: { secretName: existingSecret || names.alpha } });
      mounts.push({ name: 'configalpha', mountPath: `${CONFIG_DIR}/oauth2_proxy.yml`, subPath: 'oauth2_proxy.yml' });
    }

    const env: unknown[] = plan.credentials.envKeys.map((s) => ({
      name: s.env,
      valueFrom: { secretKeyRef: { name: names.secret, key: s.key } },
    }));
    env.push({ name: 'OAUTH2_PROXY_SESSION_STORE_TYPE', value: plan.redis.enabled ? 'redis' : 'cookie' });
    if (plan.redis.enabled) {
      const join = (v: unknown) => asList(v).map((x) => asStr(x, String(x))).join(',');
      if (plan.redis.clientType === 'cluster') {
        env.push({ name: 'OAUTH2_PROXY_REDIS_USE_CLUSTER', value: 'true' }, { name: 'OAUTH2_PROXY_REDIS_CLUSTER_CONNECTION_URLS', value: join(asMap(redis.cluster).connectionUrls) });
      } else if (plan.redis.clientType === 'sentinel') {
        env.push(
          { name: 'OAUTH2_PROXY_REDIS_USE_SENTINEL', value: 'true' },
          { name: 'OAUTH2_PROXY_REDIS_SENTINEL_MASTER_NAME', value: asStr(sentinel.masterName) },
          { name: 'OAUTH2_PROXY_REDIS_SENTINEL_CONNECTION_URLS', value: join(sentinel.connectionUrls) },
        );
      } else {
        env.push({ name: 'OAUTH2_PROXY_REDIS_CONNECTION_URL', value: asStr(asMap(redis.standalone).connectionUrl) });
      }
      if (plan.redis.password) {
        env.push({ name: 'OAUTH2_PROXY_REDIS_PASSWORD', valueFrom: { secretKeyRef: { name: asStr(redis.existingSecret) || names.redis, key: asStr(redis.passwordKey) || 'redis-password' } } });
      }
      if (plan.redis.sentinelPassword) {
        env.push({
          name: 'OAUTH2_PROXY_REDIS_SENTINEL_PASSWORD',
          valueFrom: { secretKeyRef: { name: asStr(sentinel.existingSecret) || names.redis, key: asStr(sentinel.passwordKey) || 'redis-sentinel-password' } },
        });
      }
    }
    for (const e of asList(evalTplDeep(ctx, asList(b.extraEnv)))) env.push(e);

    const ports: unknown[] = [{ name: portName, containerPort: plan.https ? AUTHPROXY_HTTPS_PORT : plan.httpPort, protocol: 'TCP' }];
    if (plan.metrics.enabled) ports.push({ name: 'metrics', containerPort: plan.metrics.port, protocol: 'TCP' });
    const scheme = plan.https ? 'HTTPS' : 'HTTP';
    const live = asMap(b.livenessProbe);
    const ready = asMap(b.readinessProbe);
    const image = asMap(b.image);
    const pod = podView(ctx, {
      image: {
        registry: asStr(image.registry) || AUTHPROXY_IMAGE.registry,
        repository: asStr(image.repository) || AUTHPROXY_IMAGE.repository,
        tag: asStr(image.tag) || `v${AUTHPROXY_IMAGE.version}`,
      },
      own: { podSecurityContext: b.podSecurityContext, nodeSelector: b.nodeSelector, tolerations: b.tolerations },
    });
    // The block's own pod annotations and pull policy take the place of the chart-wide ones.
    const podAnnotations = ctx.model.images.podAnnotations(podAnn, nonEmptyMap(b.podAnnotations) as never);
    const pullPolicy = ctx.model.images.pullPolicy(asStr(image.pullPolicy) || undefined);
    const sc = asMap(b.securityContext);
    const ownSc = Object.fromEntries(Object.entries(sc).filter(([k, v]) => k !== 'enabled' && v !== null && v !== undefined));
    // The proxy's baseline, the top-level securityContext over it, the block's own fields over both.
    const securityContext = plan.securityContext ? { ...AUTHPROXY_SECURITY_BASELINE, ...asMap(ctx.values.securityContext), ...ownSc } : null;
    // The block's own pull secrets first, then the chart-wide ones (each name once).
    const pullSecrets = ctx.model.images.pullSecrets([...asList(b.imagePullSecrets), ...asList(ctx.values.imagePullSecrets)] as never[]);
    const podLabels = { ...labels };
    for (const [k, v] of Object.entries(asMap(b.podLabels))) if (!(k in podLabels)) podLabels[k] = asStr(v, String(v));
    const deploymentAnnotations = { ...asMap(pod.deploymentAnnotations), ...asMap(b.deploymentAnnotations) };
    const container = {
      name,
      image: pod.image,
      imagePullPolicy: pullPolicy,
      command: nonEmptyList(image.command) ?? null,
      args,
      env,
      envFrom: nonEmptyList(b.envFrom) ?? null,
      ports,
      livenessProbe: plan.probes.liveness
        ? { httpGet: { path: '/ping', port: portName, scheme }, initialDelaySeconds: num(live.initialDelaySeconds, 0), timeoutSeconds: num(live.timeoutSeconds, 1) }
        : null,
      readinessProbe: plan.probes.readiness
        ? {
            httpGet: { path: '/ready', port: portName, scheme },
            initialDelaySeconds: num(ready.initialDelaySeconds, 0),
            timeoutSeconds: num(ready.timeoutSeconds, 5),
            periodSeconds: num(ready.periodSeconds, 10),
            successThreshold: num(ready.successThreshold, 1),
          }
        : null,
      resources: nonEmptyMap(b.resources) ?? null,
      resizePolicy: nonEmptyList(b.resizePolicy) ?? null,
      lifecycle: nonEmptyMap(b.lifecycle) ?? null,
      securityContext,
      volumeMounts: [...mounts, ...asList(b.extraVolumeMounts)],
    };
    // Fields left unset are not written (the container is printed whole).
    const main = Object.fromEntries(Object.entries(container).filter(([, v]) => v !== null));
    return {
      meta: meta(fullname, withLabels(b.deploymentLabels), deploymentAnnotations),
      replicasSet: !plan.autoscaling.enabled,
      replicas: plan.replicas,
      revisionHistoryLimit: num(b.revisionHistoryLimit, 10),
      strategy: nonEmptyMap(b.strategy) ?? null,
      selector,
      podLabels,
      podAnnotations: nonEmptyMap(podAnnotations) ?? null,
      serviceAccountName: plan.serviceAccount.podName || fullname,
      automountServiceAccountToken: plan.serviceAccount.automount,
      enableServiceLinks: asBool(b.enableServiceLinks, true),
      priorityClassName: asStr(b.priorityClassName) || null,
      hostAliases: nonEmptyList(b.hostAliases) ?? null,
      terminationGraceSet: typeof b.terminationGracePeriodSeconds === 'number',
      terminationGracePeriodSeconds: b.terminationGracePeriodSeconds ?? null,
      pullSecrets: pullSecrets.length > 0 ? pullSecrets : null,
      podSecurityContext: nonEmptyMap(pod.podSecurityContext) ?? null,
      nodeSelector: nonEmptyMap(pod.nodeSelector) ?? null,
      tolerations: nonEmptyList(pod.tolerations) ?? null,
      affinity: nonEmptyMap(b.affinity) ?? null,
      topologySpreadConstraints: nonEmptyList(b.topologySpreadConstraints) ?? null,
      initContainers: nonEmptyList(b.extraInitContainers) ?? null,
      containers: [main, ...asList(b.extraContainers)],
      volumes: [...volumes, ...asList(evalTplDeep(ctx, asList(b.extraVolumes)))],
    };
  });

  // ---- Service ----
  object('service.yaml', 'authproxy/service.yaml.hbs', () => {
    const serviceType = asStr(service.type) || 'ClusterIP';
    const metricsCfg = asMap(b.metrics);
    const servicePorts: Values[] = [{
      name: portName,
      port: backendPort(),
      targetPort: present(service.targetPort) && service.targetPort !== '' ? service.targetPort : portName,
      protocol: 'TCP',
      appProtocol: asStr(service.appProtocol) || 'http',
      ...(serviceType === 'NodePort' && typeof service.nodePort === 'number' ? { nodePort: service.nodePort } : {}),
    }];
    if (plan.metrics.enabled) {
      servicePorts.push({
        name: 'metrics',
        port: plan.metrics.port,
        targetPort: 'metrics',
        protocol: 'TCP',
        appProtocol: asStr(asMap(metricsCfg.service).appProtocol) || 'http',
        ...(serviceType === 'NodePort' && typeof metricsCfg.nodePort === 'number' ? { nodePort: metricsCfg.nodePort } : {}),
      });
    }
    const dual = asMap(service.ipDualStack);
    return {
      meta: meta(fullname, labels, service.annotations),
      type: serviceType,
      clusterIP: serviceType === 'ClusterIP' && asStr(service.clusterIP) ? asStr(service.clusterIP) : null,
      loadBalancerIP: serviceType === 'LoadBalancer' && asStr(service.loadBalancerIP) ? asStr(service.loadBalancerIP) : null,
      loadBalancerSourceRanges: serviceType === 'LoadBalancer' ? nonEmptyList(service.loadBalancerSourceRanges) ?? null : null,
      externalTrafficPolicy: asStr(service.externalTrafficPolicy) || null,
      internalTrafficPolicy: asStr(service.internalTrafficPolicy) || null,
      trafficDistribution: asStr(service.trafficDistribution) || null,
      ipFamilies: asBool(dual.enabled) ? asList(dual.ipFamilies) : null,
      ipFamilyPolicy: asBool(dual.enabled) ? asStr(dual.ipFamilyPolicy) || 'PreferDualStack' : null,
      ports: servicePorts,
      selector,
    };
  });

  // ---- Ingress ----
  const ingress = asMap(b.ingress);
  if (asBool(ingress.enabled)) {
    object('ingress.yaml', 'authproxy/ingress.yaml.hbs', () => {
      const path = asStr(ingress.path) || '/';
      const pathType = asStr(ingress.pathType) || 'ImplementationSpecific';
      const paths = [...asList(ingress.extraPaths), { path, pathType, backend: { service: { name: fullname, port: { number: backendPort() } } } }];
      const hosts = asList(ingress.hosts);
      return {
        meta: meta(fullname, withLabels(ingress.labels), ingress.annotations),
        className: asStr(ingress.className) || null,
        rules: (hosts.length > 0 ? hosts : [null]).map((h) => ({ ...(h ? { host: asStr(h, String(h)) } : {}), http: { paths } })),
        tls: nonEmptyList(ingress.tls) ?? null,
      };
    });
  }

  // ---- HTTPRoute ----
  const gw = asMap(b.gatewayApi);
  if (asBool(gw.enabled)) {
    object('httproute.yaml', 'authproxy/httproute.yaml.hbs', () => {
      const backendRefs = [{ name: fullname, port: backendPort() }];
      const rules = asList(gw.rules).map((r) => {
        const rule = asMap(r);
        return { ...rule, matches: nonEmptyList(rule.matches) ?? [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: nonEmptyList(rule.backendRefs) ?? backendRefs };
      });
      return {
        meta: meta(fullname, withLabels(gw.labels), gw.annotations),
        parentRefs: nonEmptyMap(gw.gatewayRef) ? [asMap(gw.gatewayRef)] : null,
        hostnames: nonEmptyList(gw.hostnames) ?? null,
        rules: rules.length > 0 ? rules : [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs }],
      };
    });
  }

  // ---- NetworkPolicy ----
  const np = asMap(b.networkPolicy);
  if (asBool(np.create)) {
    object('networkpolicy.yaml', 'authproxy/networkpolicy.yaml.hbs', () => {
      const ingressRules = asList(evalTplDeep(ctx, asList(np.ingress)));
      const egressRules = asList(evalTplDeep(ctx, asList(np.egress)));
      return {
        meta: meta(fullname, withLabels(b.commonLabels), b.commonAnnotations),
        selector,
        policyTypes: [...(ingressRules.length > 0 ? ['Ingress'] : []), ...(egressRules.length > 0 ? ['Egress'] : [])],
        ingress: ingressRules.length > 0 ? ingressRules : null,
        egress: egressRules.length > 0 ? egressRules : null,
      };
    });
  }

  // ---- PodDisruptionBudget ----
  if (plan.pdb.render) {
    object('poddisruptionbudget.yaml', 'authproxy/pdb.yaml.hbs', () => {
      const pdb = asMap(b.podDisruptionBudget);
      return {
        meta: meta(fullname, labels),
        minAvailableSet: plan.pdb.minAvailable,
        minAvailable: pdb.minAvailable ?? null,
        maxUnavailableSet: plan.pdb.maxUnavailable,
        maxUnavailable: pdb.maxUnavailable ?? null,
        unhealthyPodEvictionPolicy: kubeServes(plan.kubeVersion, 'pdbUnhealthyPodEvictionPolicy') ? asStr(pdb.unhealthyPodEvictionPolicy) || null : null,
        selector,
      };
    });
  }

  // ---- HorizontalPodAutoscaler ----
  if (plan.autoscaling.enabled) {
    object('hpa.yaml', 'authproxy/hpa.yaml.hbs', () => {
      const hpa = asMap(b.autoscaling);
      const metrics: unknown[] = [];
      const target = (resource: string, v: unknown) => ({ type: 'Resource', resource: { name: resource, target: { type: 'Utilization', averageUtilization: v } } });
      if (typeof hpa.targetMemoryUtilizationPercentage === 'number') metrics.push(target('memory', hpa.targetMemoryUtilizationPercentage));
      if (typeof hpa.targetCPUUtilizationPercentage === 'number') metrics.push(target('cpu', hpa.targetCPUUtilizationPercentage));
      return {
        meta: meta(fullname, labels, hpa.annotations),
        target: { apiVersion: 'apps/v1', kind: 'Deployment', name: fullname },
        minReplicas: num(hpa.minReplicas, 1),
        maxReplicas: num(hpa.maxReplicas, 10),
        metrics: metrics.length > 0 ? metrics : null,
        behavior: nonEmptyMap(hpa.behavior) ?? null,
      };
    });
  }

  // ---- ServiceMonitor ----
  if (plan.serviceMonitor.wanted && ctx.capabilities.has(MONITORING_API, 'ServiceMonitor')) {
    object('servicemonitor.yaml', 'authproxy/servicemonitor.yaml.hbs', () => {
      const sm = asMap(asMap(b.metrics).serviceMonitor);
      const smLabels = { ...withLabels(sm.labels), prometheus: asStr(sm.prometheusInstance) || 'default' };
      return {
        meta: meta(fullname, smLabels, sm.annotations, asStr(sm.namespace) || namespace),
        selector,
        matchNames: [namespace],
        endpoints: [{
          port: 'metrics',
          path: '/metrics',
          interval: asStr(sm.interval) || '60s',
          scrapeTimeout: asStr(sm.scrapeTimeout) || '30s',
          ...(asStr(sm.scheme) ? { scheme: asStr(sm.scheme) } : {}),
          ...(nonEmptyMap(sm.tlsConfig) ? { tlsConfig: asMap(sm.tlsConfig) } : {}),
          ...(asStr(sm.bearerTokenFile) ? { bearerTokenFile: asStr(sm.bearerTokenFile) } : {}),
          ...(nonEmptyList(sm.metricRelabelings) ? { metricRelabelings: asList(sm.metricRelabelings) } : {}),
          ...(nonEmptyList(sm.relabelings) ? { relabelings: asList(sm.relabelings) } : {}),
        }],
      };
    });
  }

  // ---- extraObjects ----
  const extraSource = subchartSource(CHART, 'extra-manifests.yaml');
  pieces.push({
    name: 'extraObjects',
    source: extraSource,
    make: () => {
      const extra = asList(b.extraObjects);
      if (extra.length === 0) return [];
      const { objects, problems } = expandExtraObjects(extra, tplScope(ctx), ['authproxy', 'extraObjects']);
      if (problems.length > 0) throw new RenderError(problems.map((p) => p.message).join('; '));
      return objects.flatMap(({ object: o }) => renderDocs(extraSource, 'chart/extra-object.yaml.hbs', { object: o }));
    },
  });
  return pieces;
});

