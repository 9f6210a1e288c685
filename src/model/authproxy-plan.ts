// What the authentication proxy's values decide, once: which optional objects render, which
// credentials and redis variables the container gets, the ports. The renderer
// (render/subcharts/authproxy.ts) and the lint rules (lint/rules/authproxy.ts) both read it, so a
// rule never warns about an object the renderer would not write, or the other way round.

import { AUTHPROXY_SECRET_KEYS } from './authproxy-secret-keys.ts';
import { asBool, asList, asMap, asStr, present } from './values-access.ts';
import type { Values } from '../values/merge.ts';

/** Container security baseline of the proxy image (the proxy chart's default securityContext, without its switch). */
export const AUTHPROXY_SECURITY_BASELINE = { runAsNonRoot: true, runAsUser: 2000, runAsGroup: 2000, seccompProfile: { type: 'RuntimeDefault' } } as const;

export const AUTHPROXY_DEFAULT_HTTP_PORT = 4180;
export const AUTHPROXY_DEFAULT_METRICS_PORT = 44180;

/** Where a redis password comes from: the chart's redis-access Secret, an existing Secret, or nowhere. */
export type PasswordSource = 'chart' | 'existing' | undefined;

export interface AuthproxyPlan {
  /** authproxy.kubeVersion, else the render's --kube-version. */
  kubeVersion: string | undefined;
  replicas: number;
  httpPort: number;
  https: boolean;
  metrics: { enabled: boolean; port: number };
  credentials: { render: boolean; secretName: string; envKeys: (typeof AUTHPROXY_SECRET_KEYS)[number][] };
  legacyConfig: { render: boolean; mount: boolean; existing: string };
  google: { enabled: boolean; applicationDefault: boolean; renderSecret: boolean; existingSecret: string };
  alpha: { enabled: boolean; renderSecret: boolean };
  accessList: { mount: boolean; render: boolean; persistence: 'configmap' | 'secret'; template: string };
  htpasswd: { enabled: boolean; renderSecret: boolean; existingSecret: string };
  redis: { enabled: boolean; clientType: 'standalone' | 'cluster' | 'sentinel'; password: PasswordSource; sentinelPassword: PasswordSource; renderSecret: boolean };
  serviceAccount: { render: boolean; name: string; podName: string; automount: boolean };
  securityContext: boolean;
  probes: { liveness: boolean; readiness: boolean };
  autoscaling: { enabled: boolean; minReplicas: number };
  pdb: { render: boolean; minAvailable: boolean; maxUnavailable: boolean };
  /** ServiceMonitor asked for (metrics on and serviceMonitor.enabled); it renders only when the API is declared. */
  serviceMonitor: { wanted: boolean };
}

const set = (v: unknown) => present(v) && v !== '';
const intOr = (v: unknown, d: number) => (typeof v === 'number' && Number.isInteger(v) ? v : d);

/** The plan of the `authproxy` values block `b` (merged values). */
export function authproxyPlan(b: Values, renderKubeVersion?: string): AuthproxyPlan {
  const config = asMap(b.config);
  const existingSecret = asStr(config.existingSecret);
  const proxyVars = asBool(b.proxyVarsAsSecrets, true);
  const required = new Set(present(config.requiredSecretKeys) ? asList(config.requiredSecretKeys).map((k) => asStr(k)) : AUTHPROXY_SECRET_KEYS.map((k) => k.key));

  const alphaCfg = asMap(b.alphaConfig);
  const alphaEnabled = asBool(alphaCfg.enabled);
  const existingLegacy = asStr(config.existingConfig);
  const legacyOn = asBool(config.forceLegacyConfig, true);

  const google = asMap(config.google);
  const googleEnabled = asStr(google.adminEmail) !== '' && (asStr(google.serviceAccountJson) !== '' || asStr(google.existingSecret) !== '' || asBool(google.useApplicationDefaultCredentials));
  const applicationDefault = googleEnabled && asBool(google.useApplicationDefaultCredentials);

  const emails = asMap(b.authenticatedEmailsFile);
  const emailsOn = asBool(emails.enabled);
  const template = asStr(emails.template);
  const hasList = asStr(emails.restricted_access) !== '';

  const htpasswd = asMap(b.htpasswdFile);
  const htpasswdOn = asBool(htpasswd.enabled);
  const htpasswdExisting = asStr(htpasswd.existingSecret);

  const storage = asMap(b.sessionStorage);
  const redisOn = asStr(storage.type) === 'redis';
  const redis = asMap(storage.redis);
  const sentinel = asMap(redis.sentinel);
  const clientType = (['cluster', 'sentinel'].includes(asStr(redis.clientType)) ? asStr(redis.clientType) : 'standalone') as AuthproxyPlan['redis']['clientType'];
  const source = (existing: unknown, inline: unknown): PasswordSource => (asStr(existing) ? 'existing' : asStr(inline) ? 'chart' : undefined);
  const password = redisOn ? source(redis.existingSecret, redis.password) : undefined;
  const sentinelPassword = redisOn && clientType === 'sentinel' ? source(sentinel.existingSecret, sentinel.password) : undefined;

  const sa = asMap(b.serviceAccount);
  const saOn = asBool(sa.enabled, true);
  const saName = asStr(sa.name);

  const metricsCfg = asMap(b.metrics);
  const metricsOn = asBool(metricsCfg.enabled, true);
  const hpa = asMap(b.autoscaling);
  const hpaOn = asBool(hpa.enabled);
  const replicas = intOr(b.replicaCount, 1);
  const minReplicas = intOr(hpa.minReplicas, 1);
  const pdb = asMap(b.podDisruptionBudget);

  return {
    kubeVersion: asStr(b.kubeVersion) || renderKubeVersion,
    replicas,
    httpPort: intOr(b.containerPort, AUTHPROXY_DEFAULT_HTTP_PORT),
    https: asStr(b.httpScheme) === 'https',
    metrics: { enabled: metricsOn, port: intOr(metricsCfg.port, AUTHPROXY_DEFAULT_METRICS_PORT) },
    credentials: {
      render: proxyVars && !existingSecret,
      secretName: existingSecret,
      envKeys: proxyVars ? AUTHPROXY_SECRET_KEYS.filter((k) => required.has(k.key)) : [],
    },
    legacyConfig: { render: legacyOn && !existingLegacy, mount: legacyOn, existing: existingLegacy },
    google: {
      enabled: googleEnabled,
      applicationDefault,
      renderSecret: googleEnabled && !applicationDefault && !asStr(google.existingSecret),
      existingSecret: asStr(google.existingSecret),
    },
    alpha: { enabled: alphaEnabled, renderSecret: alphaEnabled && !asStr(alphaCfg.existingConfig) && !asStr(alphaCfg.existingSecret) },
    accessList: { mount: emailsOn && (hasList || template !== ''), render: emailsOn && hasList && template === '', persistence: asStr(emails.persistence) === 'secret' ? 'secret' : 'configmap', template },
    htpasswd: { enabled: htpasswdOn, renderSecret: htpasswdOn && !htpasswdExisting, existingSecret: htpasswdExisting },
    redis: { enabled: redisOn, clientType, password, sentinelPassword, renderSecret: password === 'chart' || sentinelPassword === 'chart' },
    serviceAccount: { render: saOn, name: saName, podName: saName || (saOn ? '' : 'default'), automount: asBool(sa.automountServiceAccountToken, true) },
    securityContext: asBool(asMap(b.securityContext).enabled, true),
    probes: { liveness: asBool(asMap(b.livenessProbe).enabled, true), readiness: asBool(asMap(b.readinessProbe).enabled, true) },
    autoscaling: { enabled: hpaOn, minReplicas },
    pdb: {
      render: asBool(pdb.enabled, true) && (replicas > 1 || (hpaOn && minReplicas > 1)),
      minAvailable: set(pdb.minAvailable),
      maxUnavailable: set(pdb.maxUnavailable),
    },
    serviceMonitor: { wanted: metricsOn && asBool(asMap(metricsCfg.serviceMonitor).enabled) },
  };
}

/**
 * Who the proxy lets sign in by e-mail address, as the proxy itself decides it: a container flag
 * `--email-domain` (authproxy.extraArgs) wins over `email_domains` of the legacy config file, and
 * a domain `*` admits every address, the allow-list (authenticatedEmailsFile) included.
 */
export interface EmailAdmission {
  /** The domains of the `--email-domain` flags, when extraArgs passes any. */
  flagDomains: string[] | undefined;
  /** The domains of the mounted legacy config file (`email_domains`), when agentplat can read them. */
  configDomains: string[] | undefined;
  /** The legacy config file is mounted (forceLegacyConfig) and its text is the chart's or configFile, not an existing ConfigMap. */
  configKnown: boolean;
  /** The domains the proxy runs with: the flags', else the config file's. */
  effective: string[] | undefined;
  /** The proxy admits every address (`*` among the effective domains). */
  everyone: boolean;
}

/** The `--email-domain` values of extraArgs, as the container gets them: a map entry, or list items `--email-domain=X`. */
function emailDomainFlags(extraArgs: unknown): string[] | undefined {
  if (Array.isArray(extraArgs)) {
    const found: string[] = [];
    for (const a of extraArgs) {
      const m = /^--email-domain(?:=(.*))?$/.exec(asStr(a));
      if (m) found.push(m[1] ?? '');
    }
    return found.length > 0 ? found : undefined;
  }
  const m = asMap(extraArgs);
  if (!Object.hasOwn(m, 'email-domain')) return undefined;
  const v = m['email-domain'];
  if (v === null || v === undefined) return [''];
  // The flag is rendered as written: a list or map becomes its JSON text (one domain nobody has).
  return [typeof v === 'object' ? JSON.stringify(v) : String(v)];
}

/** `email_domains = [...]` of a legacy config file's text (TOML), undefined when it has none or agentplat cannot read it. */
export function configFileEmailDomains(text: string): string[] | undefined {
  const m = /^\s*email_domains\s*=\s*(\[[^\]]*\]|"[^"]*"|'[^']*')/m.exec(text);
  if (!m) return undefined;
  const value = m[1]!;
  if (value.startsWith('"') || value.startsWith("'")) return [value.slice(1, -1)];
  return [...value.matchAll(/"([^"]*)"|'([^']*)'/g)].map((x) => x[1] ?? x[2] ?? '');
}

/** The e-mail admission of the `authproxy` values block `b` (merged values). */
export function emailAdmission(b: Values): EmailAdmission {
  const config = asMap(b.config);
  const flagDomains = emailDomainFlags(b.extraArgs);
  const mounted = asBool(config.forceLegacyConfig, true) && !asStr(config.existingConfig);
  const own = asStr(config.configFile);
  const configDomains = !mounted ? undefined : own ? configFileEmailDomains(own) : asList(config.emailDomains).map((x) => asStr(x, String(x)));
  const effective = flagDomains ?? configDomains;
  return { flagDomains, configDomains, configKnown: mounted, effective, everyone: effective !== undefined && effective.includes('*') };
}
