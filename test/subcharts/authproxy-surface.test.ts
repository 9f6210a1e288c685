// The authentication proxy's chart values (authproxy.*, the OAuth2 proxy chart 10.7.x surface,
// value-surface facts section 6): each key, set alone to a plausible non-default value in the
// context where it takes effect, changes exactly the objects and fields listed here and nothing
// else; the optional objects appear exactly when their conditions hold; every render validates
// against the Kubernetes schemas; the refusals point at file:line:column.
import { describe, expect, it } from 'vitest';
import { buildRenderContext } from '../../src/model/context.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { authproxyComponent } from '../../src/render/subcharts/authproxy.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { mergeMaps, mergeValues, type Values } from '../../src/values/merge.ts';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { expectValidK8sObjects } from '../helpers/k8s-schema.ts';
import { AUTHPROXY_INLINE } from './helpers.ts';
import { describeKey } from '../../src/chart/values-model.ts';
import { valuesReference } from '../../src/docs/values-reference.ts';
import { valuesSchema } from '../hardening/_values-arb.ts';
import { migrateValues } from '../../src/pipeline/migrate.ts';
import { run } from '../../src/cli/program.ts';
import { createMemoryIo } from '../../src/cli/io.ts';

const MONITORING = 'monitoring.coreos.com/v1';

function renderProxy(revision: Revision, block: Values, apiVersions: string[] = [MONITORING]): RenderedDoc[] {
  // The user's layers merge as files do (a null is a value); the defaults are coalesced below them.
  const values = mergeValues(defaultsSource(revision).data, { authproxy: mergeMaps(AUTHPROXY_INLINE, block) });
  const ctx = buildRenderContext(values, { revision, releaseName: 'agentplat', releaseNamespace: 'agentplat', apiVersions });
  return authproxyComponent.render(ctx);
}

type Flat = Map<string, unknown>;
const objId = (d: RenderedDoc) => `${d.object.kind}/${d.object.metadata.name}`;

/** Changed leaves between two values: maps key by key, lists of equal length item by item, anything else whole. */
function diffInto(out: Flat, prefix: string, a: unknown, b: unknown): void {
  if (JSON.stringify(a) === JSON.stringify(b)) return;
  const isMap = (x: unknown) => x !== null && typeof x === 'object' && !Array.isArray(x);
  if (isMap(a) && isMap(b)) {
    const keys = new Set([...Object.keys(a as object), ...Object.keys(b as object)]);
    for (const k of keys) diffInto(out, prefix ? `${prefix}.${k}` : k, (a as Values)[k], (b as Values)[k]);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    a.forEach((x, i) => diffInto(out, `${prefix}[${i}]`, x, b[i]));
    return;
  }
  out.set(prefix, b);
}

/** `Kind/name:path` -> new value (undefined: removed); `+Kind/name` and `-Kind/name` for whole objects. */
function diff(before: readonly RenderedDoc[], after: readonly RenderedDoc[]): Flat {
  const out: Flat = new Map();
  const a = new Map(before.map((d) => [objId(d), d.object]));
  const b = new Map(after.map((d) => [objId(d), d.object]));
  for (const [k, o] of b) {
    if (!a.has(k)) out.set(`+${k}`, o);
    else {
      const local: Flat = new Map();
      diffInto(local, '', a.get(k), o);
      for (const [p, v] of local) out.set(`${k}:${p}`, v);
    }
  }
  for (const k of a.keys()) if (!b.has(k)) out.set(`-${k}`, undefined);
  return out;
}

const D = 'Deployment/agentplat-authproxy';
const POD = `${D}:spec.template.spec`;
const C = `${POD}.containers[0]`;
const SVC = 'Service/agentplat-authproxy';
const SA = 'ServiceAccount/agentplat-authproxy';
const SECRET = 'Secret/agentplat-authproxy';
const CM = 'ConfigMap/agentplat-authproxy';
const PDB = 'PodDisruptionBudget/agentplat-authproxy';
const ANN = `${D}:spec.template.metadata.annotations`;
const any = expect.anything();
const sha = expect.stringMatching(/^[0-9a-f]{64}$/);
const has = (...items: unknown[]) => expect.arrayContaining(items.map((i) => (typeof i === 'object' ? expect.objectContaining(i as object) : i)));
const obj = (o: object) => expect.objectContaining(o);
const b64 = (s: string) => Buffer.from(s).toString('base64');
/** Every object of the default proxy render, for keys that reach all of them. */
const ALL = [D, SVC, SA, SECRET, CM];

interface Case {
  key: string;
  /** authproxy-relative values in both renders (what makes the key take effect). */
  context?: Values;
  set: Values;
  /** Exactly the changes the key makes. */
  changes: Record<string, unknown>;
  apis?: string[];
}

const CASES: Case[] = [
  // ---- 6.1 workload and pod ----
  { key: 'replicaCount', set: { replicaCount: 3 }, changes: { [`${D}:spec.replicas`]: 3, [`+${PDB}`]: obj({ spec: { minAvailable: 1, selector: any } }) } },
  { key: 'revisionHistoryLimit', set: { revisionHistoryLimit: 3 }, changes: { [`${D}:spec.revisionHistoryLimit`]: 3 } },
  { key: 'strategy', set: { strategy: { type: 'Recreate' } }, changes: { [`${D}:spec.strategy`]: { type: 'Recreate' } } },
  { key: 'image.registry', set: { image: { registry: 'mirror.example.com' } }, changes: { [`${C}.image`]: 'mirror.example.com/oauth2-proxy/oauth2-proxy:v7.15.3' } },
  { key: 'image.repository', set: { image: { repository: 'mirrors/oauth2-proxy' } }, changes: { [`${C}.image`]: 'quay.io/mirrors/oauth2-proxy:v7.15.3' } },
  { key: 'image.tag', set: { image: { tag: 'v7.15.2' } }, changes: { [`${C}.image`]: 'quay.io/oauth2-proxy/oauth2-proxy:v7.15.2' } },
  { key: 'image.pullPolicy', set: { image: { pullPolicy: 'Always' } }, changes: { [`${C}.imagePullPolicy`]: 'Always' } },
  { key: 'image.command', set: { image: { command: ['/bin/oauth2-proxy'] } }, changes: { [`${C}.command`]: ['/bin/oauth2-proxy'] } },
  { key: 'imagePullSecrets', set: { imagePullSecrets: [{ name: 'regcred' }] }, changes: { [`${POD}.imagePullSecrets`]: [{ name: 'regcred' }] } },
  {
    key: 'resources',
    set: { resources: { limits: { memory: '128Mi' }, requests: { cpu: '10m', memory: '64Mi' } } },
    changes: { [`${C}.resources`]: { limits: { memory: '128Mi' }, requests: { cpu: '10m', memory: '64Mi' } } },
  },
  { key: 'resizePolicy', set: { resizePolicy: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] }, changes: { [`${C}.resizePolicy`]: [{ resourceName: 'cpu', restartPolicy: 'NotRequired' }] } },
  { key: 'nodeSelector', set: { nodeSelector: { disk: 'ssd' } }, changes: { [`${POD}.nodeSelector`]: { disk: 'ssd' } } },
  {
    key: 'tolerations',
    set: { tolerations: [{ key: 'edge', operator: 'Exists', effect: 'NoSchedule' }] },
    changes: { [`${POD}.tolerations`]: [{ key: 'edge', operator: 'Exists', effect: 'NoSchedule' }] },
  },
  {
    key: 'affinity',
    set: { affinity: { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'zone', operator: 'In', values: ['a'] }] }] } } } },
    changes: { [`${POD}.affinity`]: obj({ nodeAffinity: any }) },
  },
  {
    key: 'topologySpreadConstraints',
    set: { topologySpreadConstraints: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' }] },
    changes: { [`${POD}.topologySpreadConstraints`]: [{ maxSkew: 1, topologyKey: 'topology.kubernetes.io/zone', whenUnsatisfiable: 'ScheduleAnyway' }] },
  },
  { key: 'priorityClassName', set: { priorityClassName: 'platform-critical' }, changes: { [`${POD}.priorityClassName`]: 'platform-critical' } },
  { key: 'hostAliases', set: { hostAliases: [{ ip: '10.0.0.7', hostnames: ['idp.internal'] }] }, changes: { [`${POD}.hostAliases`]: [{ ip: '10.0.0.7', hostnames: ['idp.internal'] }] } },
  { key: 'terminationGracePeriodSeconds', set: { terminationGracePeriodSeconds: 45 }, changes: { [`${POD}.terminationGracePeriodSeconds`]: 45 } },
  { key: 'lifecycle', set: { lifecycle: { preStop: { exec: { command: ['sleep', '5'] } } } }, changes: { [`${C}.lifecycle`]: { preStop: { exec: { command: ['sleep', '5'] } } } } },
  { key: 'enableServiceLinks', set: { enableServiceLinks: false }, changes: { [`${POD}.enableServiceLinks`]: false } },
  {
    key: 'podSecurityContext',
    set: { podSecurityContext: { runAsNonRoot: true, fsGroup: 2000 } },
    // replaces the top-level pod context as a whole
    changes: { [`${POD}.securityContext.fsGroup`]: 2000, [`${POD}.securityContext.seccompProfile`]: undefined },
  },
  { key: 'securityContext (a field)', set: { securityContext: { runAsUser: 3000 } }, changes: { [`${C}.securityContext.runAsUser`]: 3000 } },
  { key: 'securityContext.enabled', set: { securityContext: { enabled: false } }, changes: { [`${C}.securityContext`]: undefined } },
  { key: 'livenessProbe.enabled', set: { livenessProbe: { enabled: false } }, changes: { [`${C}.livenessProbe`]: undefined } },
  { key: 'livenessProbe.initialDelaySeconds', set: { livenessProbe: { initialDelaySeconds: 5 } }, changes: { [`${C}.livenessProbe.initialDelaySeconds`]: 5 } },
  { key: 'livenessProbe.timeoutSeconds', set: { livenessProbe: { timeoutSeconds: 3 } }, changes: { [`${C}.livenessProbe.timeoutSeconds`]: 3 } },
  { key: 'readinessProbe.enabled', set: { readinessProbe: { enabled: false } }, changes: { [`${C}.readinessProbe`]: undefined } },
  { key: 'readinessProbe.initialDelaySeconds', set: { readinessProbe: { initialDelaySeconds: 4 } }, changes: { [`${C}.readinessProbe.initialDelaySeconds`]: 4 } },
  { key: 'readinessProbe.timeoutSeconds', set: { readinessProbe: { timeoutSeconds: 2 } }, changes: { [`${C}.readinessProbe.timeoutSeconds`]: 2 } },
  { key: 'readinessProbe.periodSeconds', set: { readinessProbe: { periodSeconds: 20 } }, changes: { [`${C}.readinessProbe.periodSeconds`]: 20 } },
  { key: 'readinessProbe.successThreshold', set: { readinessProbe: { successThreshold: 2 } }, changes: { [`${C}.readinessProbe.successThreshold`]: 2 } },
  { key: 'envFrom', set: { envFrom: [{ configMapRef: { name: 'proxy-env' } }] }, changes: { [`${C}.envFrom`]: [{ configMapRef: { name: 'proxy-env' } }] } },
  {
    key: 'extraContainers',
    set: { extraContainers: [{ name: 'log-shipper', image: 'busybox:1.36' }] },
    changes: { [`${POD}.containers`]: [obj({ name: 'authproxy' }), { name: 'log-shipper', image: 'busybox:1.36' }] },
  },
  { key: 'extraInitContainers', set: { extraInitContainers: [{ name: 'wait-idp', image: 'busybox:1.36' }] }, changes: { [`${POD}.initContainers`]: [{ name: 'wait-idp', image: 'busybox:1.36' }] } },
  { key: 'containerPort', set: { containerPort: 8080 }, changes: { [`${C}.args[0]`]: '--http-address=0.0.0.0:8080', [`${C}.ports[0].containerPort`]: 8080 } },
  {
    key: 'httpScheme',
    set: { httpScheme: 'https' },
    changes: {
      [`${C}.args`]: has('--http-address=0.0.0.0:4180', '--https-address=0.0.0.0:4443'),
      [`${C}.ports[0].name`]: 'https',
      [`${C}.ports[0].containerPort`]: 4443,
      [`${C}.livenessProbe.httpGet.port`]: 'https',
      [`${C}.livenessProbe.httpGet.scheme`]: 'HTTPS',
      [`${C}.readinessProbe.httpGet.port`]: 'https',
      [`${C}.readinessProbe.httpGet.scheme`]: 'HTTPS',
      [`${SVC}:spec.ports[0].name`]: 'https',
      [`${SVC}:spec.ports[0].targetPort`]: 'https',
    },
  },
  { key: 'podAnnotations', set: { podAnnotations: { 'example.com/team': 'auth' } }, changes: { [`${ANN}.example.com/team`]: 'auth' } },
  { key: 'podLabels', set: { podLabels: { team: 'auth' } }, changes: { [`${D}:spec.template.metadata.labels.team`]: 'auth' } },
  { key: 'deploymentAnnotations', set: { deploymentAnnotations: { 'example.com/owner': 'auth' } }, changes: { [`${D}:metadata.annotations`]: { 'example.com/owner': 'auth' } } },
  { key: 'deploymentLabels', set: { deploymentLabels: { tier: 'edge' } }, changes: { [`${D}:metadata.labels.tier`]: 'edge' } },
  {
    key: 'customLabels',
    set: { customLabels: { cost: 'auth' } },
    changes: { ...Object.fromEntries(ALL.map((o) => [`${o}:metadata.labels.cost`, 'auth'])), [`${D}:spec.template.metadata.labels.cost`]: 'auth' },
  },
  {
    key: 'commonLabels',
    context: { networkPolicy: { create: true, ingress: [{ from: [{ podSelector: {} }] }] } },
    set: { commonLabels: { policy: 'proxy' } },
    changes: { 'NetworkPolicy/agentplat-authproxy:metadata.labels.policy': 'proxy' },
  },
  {
    key: 'commonAnnotations',
    context: { networkPolicy: { create: true, ingress: [{ from: [{ podSelector: {} }] }] } },
    set: { commonAnnotations: { 'example.com/why': 'isolation' } },
    changes: { 'NetworkPolicy/agentplat-authproxy:metadata.annotations': { 'example.com/why': 'isolation' } },
  },
  { key: 'namespaceOverride', set: { namespaceOverride: 'auth' }, changes: Object.fromEntries(ALL.map((o) => [`${o}:metadata.namespace`, 'auth'])) },
  {
    key: 'kubeVersion',
    context: { replicaCount: 2, podDisruptionBudget: { unhealthyPodEvictionPolicy: 'AlwaysAllow' } },
    set: { kubeVersion: '1.26' },
    changes: { [`${PDB}:spec.unhealthyPodEvictionPolicy`]: undefined },
  },
  {
    key: 'extraObjects',
    set: { extraObjects: [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: '{{ .Release.Name }}-proxy-extra' }, data: { a: 'b' } }] },
    changes: { '+ConfigMap/agentplat-proxy-extra': { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'agentplat-proxy-extra', namespace: 'agentplat' }, data: { a: 'b' } } },
  },

  // ---- 6.2 configuration and secrets ----
  { key: 'config.cookieName', set: { config: { cookieName: '_agentplat' } }, changes: { [`${C}.args`]: has('--cookie-name=_agentplat') } },
  {
    key: 'config.emailDomains',
    set: { config: { emailDomains: ['example.com'] } },
    changes: { [`${CM}:data.oauth2_proxy.cfg`]: 'email_domains = ["example.com"]\nupstreams = ["file:///dev/null"]', [`${ANN}.checksum/config`]: sha },
  },
  {
    key: 'config.upstreams',
    set: { config: { upstreams: ['http://static.internal'] } },
    changes: { [`${CM}:data.oauth2_proxy.cfg`]: 'email_domains = ["*"]\nupstreams = ["http://static.internal"]', [`${ANN}.checksum/config`]: sha },
  },
  {
    key: 'config.configFile',
    set: { config: { configFile: 'email_domains = ["example.com"]\nskip_provider_button = true' } },
    changes: { [`${CM}:data.oauth2_proxy.cfg`]: 'email_domains = ["example.com"]\nskip_provider_button = true', [`${ANN}.checksum/config`]: sha },
  },
  {
    key: 'config.existingConfig',
    set: { config: { existingConfig: 'my-proxy-config' } },
    changes: { [`-${CM}`]: undefined, [`${POD}.volumes[0].configMap.name`]: 'my-proxy-config', [`${ANN}.checksum/config`]: undefined },
  },
  {
    key: 'config.forceLegacyConfig',
    set: { config: { forceLegacyConfig: false } },
    changes: {
      [`-${CM}`]: undefined,
      [`${C}.args`]: expect.not.arrayContaining(['--config=/etc/oauth2_proxy/oauth2_proxy.cfg']),
      [`${C}.volumeMounts`]: [obj({ name: 'custom-templates' })],
      [`${POD}.volumes`]: [obj({ name: 'custom-templates' })],
      [`${ANN}.checksum/config`]: undefined,
    },
  },
  { key: 'config.annotations', set: { config: { annotations: { 'example.com/rotated': 'weekly' } } }, changes: { [`${SECRET}:metadata.annotations`]: { 'example.com/rotated': 'weekly' }, [`${CM}:metadata.annotations`]: { 'example.com/rotated': 'weekly' } } },
  {
    key: 'config.requiredSecretKeys',
    set: { config: { requiredSecretKeys: ['client-id', 'cookie-secret'] } },
    changes: { [`${C}.env`]: expect.not.arrayContaining([obj({ name: 'OAUTH2_PROXY_CLIENT_SECRET' })]) },
  },
  {
    key: 'proxyVarsAsSecrets',
    set: { proxyVarsAsSecrets: false },
    changes: { [`-${SECRET}`]: undefined, [`${C}.env`]: expect.not.arrayContaining([obj({ name: 'OAUTH2_PROXY_CLIENT_ID' })]), [`${ANN}.checksum/secret`]: undefined },
  },
  {
    key: 'config.google',
    set: { config: { google: { adminEmail: 'admin@example.com', serviceAccountJson: '{"type":"service_account"}', groups: ['team@example.com'] } } },
    changes: {
      '+Secret/agentplat-authproxy-google': obj({ data: { 'service-account.json': b64('{"type":"service_account"}') } }),
      [`${C}.args`]: has('--google-admin-email=admin@example.com', '--google-service-account-json=/google/service-account.json', '--google-group=team@example.com'),
      [`${C}.volumeMounts`]: has({ name: 'google-secret', mountPath: '/google' }),
      [`${POD}.volumes`]: has({ name: 'google-secret', secret: { secretName: 'agentplat-authproxy-google' } }),
      [`${ANN}.checksum/google-secret`]: sha,
    },
  },
  {
    key: 'alphaConfig.enabled',
    set: { alphaConfig: { enabled: true } },
    changes: {
      '+Secret/agentplat-authproxy-alpha': obj({ data: { 'oauth2_proxy.yml': any } }),
      [`${C}.args`]: expect.not.arrayContaining(['--http-address=0.0.0.0:4180', '--metrics-address=0.0.0.0:44180']),
      [`${C}.volumeMounts`]: has({ name: 'configalpha', subPath: 'oauth2_proxy.yml' }),
      [`${POD}.volumes`]: has({ name: 'configalpha', secret: { secretName: 'agentplat-authproxy-alpha' } }),
      [`${CM}:data.oauth2_proxy.cfg`]: 'email_domains = ["*"]',
      [`${ANN}.checksum/config`]: sha,
      [`${ANN}.checksum/alpha-config`]: sha,
    },
  },
  ...(['serverConfigData', 'metricsConfigData', 'configData'] as const).map((k): Case => ({
    key: `alphaConfig.${k}`,
    context: { alphaConfig: { enabled: true } },
    set: { alphaConfig: { [k]: { example: 'value' } } },
    changes: { 'Secret/agentplat-authproxy-alpha:data.oauth2_proxy.yml': any, [`${ANN}.checksum/alpha-config`]: sha },
  })),
  {
    key: 'alphaConfig.configFile',
    context: { alphaConfig: { enabled: true } },
    set: { alphaConfig: { configFile: 'injectRequestHeaders: []' } },
    changes: { 'Secret/agentplat-authproxy-alpha:data.oauth2_proxy.yml': any, [`${ANN}.checksum/alpha-config`]: sha },
  },
  {
    key: 'alphaConfig.existingConfig',
    context: { alphaConfig: { enabled: true } },
    set: { alphaConfig: { existingConfig: 'my-alpha' } },
    changes: {
      '-Secret/agentplat-authproxy-alpha': undefined,
      [`${POD}.volumes[1].configMap`]: { name: 'my-alpha' },
      [`${POD}.volumes[1].secret`]: undefined,
      [`${ANN}.checksum/alpha-config`]: undefined,
    },
  },
  {
    key: 'alphaConfig.existingSecret',
    context: { alphaConfig: { enabled: true } },
    set: { alphaConfig: { existingSecret: 'my-alpha' } },
    changes: { '-Secret/agentplat-authproxy-alpha': undefined, [`${POD}.volumes[1].secret.secretName`]: 'my-alpha', [`${ANN}.checksum/alpha-config`]: undefined },
  },
  {
    key: 'alphaConfig.annotations',
    context: { alphaConfig: { enabled: true } },
    set: { alphaConfig: { annotations: { 'example.com/a': 'b' } } },
    changes: { 'Secret/agentplat-authproxy-alpha:metadata.annotations': { 'example.com/a': 'b' } },
  },
  {
    key: 'authenticatedEmailsFile.enabled',
    context: { authenticatedEmailsFile: { restricted_access: 'a@example.com\nb@example.com' } },
    set: { authenticatedEmailsFile: { enabled: true } },
    changes: {
      '+ConfigMap/agentplat-authproxy-accesslist': obj({ data: { restricted_user_access: 'a@example.com\nb@example.com' } }),
      [`${C}.args`]: has('--authenticated-emails-file=/etc/oauth2_proxy/accesslist/agentplat-authproxy-accesslist'),
      [`${C}.volumeMounts`]: has({ name: 'configaccesslist', readOnly: true }),
      [`${POD}.volumes`]: has({ name: 'configaccesslist', configMap: { name: 'agentplat-authproxy-accesslist', items: [{ key: 'restricted_user_access', path: 'agentplat-authproxy-accesslist' }] } }),
    },
  },
  {
    key: 'authenticatedEmailsFile.restricted_access',
    context: { authenticatedEmailsFile: { enabled: true, restricted_access: 'a@example.com' } },
    set: { authenticatedEmailsFile: { restricted_access: 'c@example.com' } },
    changes: { 'ConfigMap/agentplat-authproxy-accesslist:data.restricted_user_access': 'c@example.com' },
  },
  {
    key: 'authenticatedEmailsFile.persistence',
    context: { authenticatedEmailsFile: { enabled: true, restricted_access: 'a@example.com' } },
    set: { authenticatedEmailsFile: { persistence: 'secret' } },
    changes: {
      '-ConfigMap/agentplat-authproxy-accesslist': undefined,
      '+Secret/agentplat-authproxy-accesslist': obj({ data: { restricted_user_access: b64('a@example.com') } }),
      [`${POD}.volumes[1].configMap`]: undefined,
      [`${POD}.volumes[1].secret`]: { secretName: 'agentplat-authproxy-accesslist', items: [{ key: 'restricted_user_access', path: 'agentplat-authproxy-accesslist' }] },
    },
  },
  {
    key: 'authenticatedEmailsFile.template',
    context: { authenticatedEmailsFile: { enabled: true, restricted_access: 'a@example.com' } },
    set: { authenticatedEmailsFile: { template: 'team-emails' } },
    changes: {
      '-ConfigMap/agentplat-authproxy-accesslist': undefined,
      [`${C}.args[17]`]: '--authenticated-emails-file=/etc/oauth2_proxy/accesslist/team-emails',
      [`${POD}.volumes[1].configMap.name`]: 'team-emails',
      [`${POD}.volumes[1].configMap.items[0].path`]: 'team-emails',
    },
  },
  {
    key: 'authenticatedEmailsFile.restrictedUserAccessKey',
    context: { authenticatedEmailsFile: { enabled: true, restricted_access: 'a@example.com' } },
    set: { authenticatedEmailsFile: { restrictedUserAccessKey: 'emails' } },
    changes: {
      'ConfigMap/agentplat-authproxy-accesslist:data.emails': 'a@example.com',
      'ConfigMap/agentplat-authproxy-accesslist:data.restricted_user_access': undefined,
      [`${POD}.volumes[1].configMap.items[0].key`]: 'emails',
    },
  },
  {
    key: 'authenticatedEmailsFile.annotations',
    context: { authenticatedEmailsFile: { enabled: true, restricted_access: 'a@example.com' } },
    set: { authenticatedEmailsFile: { annotations: { 'example.com/a': 'b' } } },
    changes: { 'ConfigMap/agentplat-authproxy-accesslist:metadata.annotations': { 'example.com/a': 'b' } },
  },
  {
    key: 'htpasswdFile.enabled',
    context: { htpasswdFile: { entries: ['ops:$2y$05$abcdefghijklmnopqrstuv'] } },
    set: { htpasswdFile: { enabled: true } },
    changes: {
      '+Secret/agentplat-authproxy-htpasswd-file': obj({ data: { 'users.txt': b64('ops:$2y$05$abcdefghijklmnopqrstuv') } }),
      [`${C}.args`]: has('--htpasswd-file=/etc/oauth2_proxy/htpasswd/users.txt'),
      [`${C}.volumeMounts`]: has({ mountPath: '/etc/oauth2_proxy/htpasswd', readOnly: true }),
      [`${POD}.volumes`]: has({ secret: { secretName: 'agentplat-authproxy-htpasswd-file' } }),
    },
  },
  {
    key: 'htpasswdFile.entries',
    context: { htpasswdFile: { enabled: true, entries: ['ops:$2y$05$abcdefghijklmnopqrstuv'] } },
    set: { htpasswdFile: { entries: ['dev:$2y$05$zyxwvutsrqponmlkjihgfe'] } },
    changes: { 'Secret/agentplat-authproxy-htpasswd-file:data.users.txt': b64('dev:$2y$05$zyxwvutsrqponmlkjihgfe') },
  },
  {
    key: 'htpasswdFile.existingSecret',
    context: { htpasswdFile: { enabled: true, entries: ['ops:$2y$05$abcdefghijklmnopqrstuv'] } },
    set: { htpasswdFile: { existingSecret: 'proxy-users' } },
    changes: { '-Secret/agentplat-authproxy-htpasswd-file': undefined, [`${POD}.volumes[1].secret.secretName`]: 'proxy-users' },
  },

  // ---- 6.3 session storage ----
  {
    key: 'sessionStorage.type',
    context: { sessionStorage: { redis: { standalone: { connectionUrl: 'redis://redis.cache:6379' } } } },
    set: { sessionStorage: { type: 'redis' } },
    changes: { [`${C}.env`]: has({ name: 'OAUTH2_PROXY_SESSION_STORE_TYPE', value: 'redis' }, { name: 'OAUTH2_PROXY_REDIS_CONNECTION_URL', value: 'redis://redis.cache:6379' }) },
  },
  {
    key: 'sessionStorage.redis.standalone.connectionUrl',
    context: { sessionStorage: { type: 'redis', redis: { standalone: { connectionUrl: 'redis://redis.cache:6379' } } } },
    set: { sessionStorage: { redis: { standalone: { connectionUrl: 'redis://redis.other:6380' } } } },
    changes: { [`${C}.env[4].value`]: 'redis://redis.other:6380' },
  },
  {
    key: 'sessionStorage.redis.clientType / cluster.connectionUrls',
    context: { sessionStorage: { type: 'redis', redis: { standalone: { connectionUrl: 'redis://redis.cache:6379' } } } },
    set: { sessionStorage: { redis: { clientType: 'cluster', cluster: { connectionUrls: ['redis://r1:6379', 'redis://r2:6379'] } } } },
    changes: { [`${C}.env`]: has({ name: 'OAUTH2_PROXY_REDIS_USE_CLUSTER', value: 'true' }, { name: 'OAUTH2_PROXY_REDIS_CLUSTER_CONNECTION_URLS', value: 'redis://r1:6379,redis://r2:6379' }) },
  },
  {
    key: 'sessionStorage.redis.sentinel.masterName / connectionUrls',
    context: { sessionStorage: { type: 'redis', redis: { standalone: { connectionUrl: 'redis://redis.cache:6379' } } } },
    set: { sessionStorage: { redis: { clientType: 'sentinel', sentinel: { masterName: 'mymaster', connectionUrls: ['redis://s1:26379'] } } } },
    changes: {
      [`${C}.env`]: has(
        { name: 'OAUTH2_PROXY_REDIS_USE_SENTINEL', value: 'true' },
        { name: 'OAUTH2_PROXY_REDIS_SENTINEL_MASTER_NAME', value: 'mymaster' },
        { name: 'OAUTH2_PROXY_REDIS_SENTINEL_CONNECTION_URLS', value: 'redis://s1:26379' },
      ),
    },
  },
  {
    key: 'sessionStorage.redis.password',
    context: { sessionStorage: { type: 'redis', redis: { standalone: { connectionUrl: 'redis://redis.cache:6379' } } } },
    set: { sessionStorage: { redis: { password: 'redis-pass' } } },
    changes: {
      '+Secret/agentplat-authproxy-redis-access': obj({ data: { 'redis-password': b64('redis-pass') } }),
      [`${C}.env`]: has({ name: 'OAUTH2_PROXY_REDIS_PASSWORD', valueFrom: { secretKeyRef: { name: 'agentplat-authproxy-redis-access', key: 'redis-password' } } }),
      [`${ANN}.checksum/redis-secret`]: sha,
    },
  },
  {
    key: 'sessionStorage.redis.existingSecret / passwordKey',
    context: { sessionStorage: { type: 'redis', redis: { standalone: { connectionUrl: 'redis://redis.cache:6379' } } } },
    set: { sessionStorage: { redis: { existingSecret: 'redis-auth', passwordKey: 'password' } } },
    changes: { [`${C}.env`]: has({ name: 'OAUTH2_PROXY_REDIS_PASSWORD', valueFrom: { secretKeyRef: { name: 'redis-auth', key: 'password' } } }) },
  },
  {
    key: 'sessionStorage.redis.sentinel.password',
    context: { sessionStorage: { type: 'redis', redis: { clientType: 'sentinel', sentinel: { masterName: 'm', connectionUrls: ['redis://s1:26379'] } } } },
    set: { sessionStorage: { redis: { sentinel: { password: 'sentinel-pass' } } } },
    changes: {
      '+Secret/agentplat-authproxy-redis-access': obj({ data: { 'redis-sentinel-password': b64('sentinel-pass') } }),
      [`${C}.env`]: has({ name: 'OAUTH2_PROXY_REDIS_SENTINEL_PASSWORD', valueFrom: { secretKeyRef: { name: 'agentplat-authproxy-redis-access', key: 'redis-sentinel-password' } } }),
      [`${ANN}.checksum/redis-secret`]: sha,
    },
  },
  {
    key: 'sessionStorage.redis.sentinel.existingSecret / passwordKey',
    context: { sessionStorage: { type: 'redis', redis: { clientType: 'sentinel', sentinel: { masterName: 'm', connectionUrls: ['redis://s1:26379'] } } } },
    set: { sessionStorage: { redis: { sentinel: { existingSecret: 'sentinel-auth', passwordKey: 'pw' } } } },
    changes: { [`${C}.env`]: has({ name: 'OAUTH2_PROXY_REDIS_SENTINEL_PASSWORD', valueFrom: { secretKeyRef: { name: 'sentinel-auth', key: 'pw' } } }) },
  },

  // ---- 6.4 service, service account, exposure, metrics ----
  { key: 'service.annotations', set: { service: { annotations: { 'example.com/lb': 'internal' } } }, changes: { [`${SVC}:metadata.annotations`]: { 'example.com/lb': 'internal' } } },
  { key: 'service.appProtocol', set: { service: { appProtocol: 'kubernetes.io/h2c' } }, changes: { [`${SVC}:spec.ports[0].appProtocol`]: 'kubernetes.io/h2c' } },
  { key: 'service.targetPort', set: { service: { targetPort: 'metrics' } }, changes: { [`${SVC}:spec.ports[0].targetPort`]: 'metrics' } },
  { key: 'service.clusterIP', set: { service: { clusterIP: '10.96.0.50' } }, changes: { [`${SVC}:spec.clusterIP`]: '10.96.0.50' } },
  { key: 'service.loadBalancerIP', context: { service: { type: 'LoadBalancer' } }, set: { service: { loadBalancerIP: '203.0.113.10' } }, changes: { [`${SVC}:spec.loadBalancerIP`]: '203.0.113.10' } },
  {
    key: 'service.loadBalancerSourceRanges',
    context: { service: { type: 'LoadBalancer' } },
    set: { service: { loadBalancerSourceRanges: ['10.0.0.0/8'] } },
    changes: { [`${SVC}:spec.loadBalancerSourceRanges`]: ['10.0.0.0/8'] },
  },
  { key: 'service.nodePort', context: { service: { type: 'NodePort' } }, set: { service: { nodePort: 30080 } }, changes: { [`${SVC}:spec.ports[0].nodePort`]: 30080 } },
  { key: 'service.externalTrafficPolicy', context: { service: { type: 'LoadBalancer' } }, set: { service: { externalTrafficPolicy: 'Local' } }, changes: { [`${SVC}:spec.externalTrafficPolicy`]: 'Local' } },
  { key: 'service.internalTrafficPolicy', set: { service: { internalTrafficPolicy: 'Local' } }, changes: { [`${SVC}:spec.internalTrafficPolicy`]: 'Local' } },
  { key: 'service.trafficDistribution', set: { service: { trafficDistribution: 'PreferClose' } }, changes: { [`${SVC}:spec.trafficDistribution`]: 'PreferClose' } },
  { key: 'service.ipDualStack.enabled', set: { service: { ipDualStack: { enabled: true } } }, changes: { [`${SVC}:spec.ipFamilies`]: ['IPv6', 'IPv4'], [`${SVC}:spec.ipFamilyPolicy`]: 'PreferDualStack' } },
  { key: 'service.ipDualStack.ipFamilies', context: { service: { ipDualStack: { enabled: true } } }, set: { service: { ipDualStack: { ipFamilies: ['IPv4', 'IPv6'] } } }, changes: { [`${SVC}:spec.ipFamilies[0]`]: 'IPv4', [`${SVC}:spec.ipFamilies[1]`]: 'IPv6' } },
  { key: 'service.ipDualStack.ipFamilyPolicy', context: { service: { ipDualStack: { enabled: true } } }, set: { service: { ipDualStack: { ipFamilyPolicy: 'RequireDualStack' } } }, changes: { [`${SVC}:spec.ipFamilyPolicy`]: 'RequireDualStack' } },
  { key: 'serviceAccount.enabled', set: { serviceAccount: { enabled: false } }, changes: { [`-${SA}`]: undefined, [`${POD}.serviceAccountName`]: 'default' } },
  {
    key: 'serviceAccount.name',
    set: { serviceAccount: { name: 'oidc-proxy' } },
    changes: { [`-${SA}`]: undefined, '+ServiceAccount/oidc-proxy': obj({ automountServiceAccountToken: true }), [`${POD}.serviceAccountName`]: 'oidc-proxy' },
  },
  { key: 'serviceAccount.annotations', set: { serviceAccount: { annotations: { 'iam.example.com/role': 'proxy' } } }, changes: { [`${SA}:metadata.annotations`]: { 'iam.example.com/role': 'proxy' } } },
  { key: 'serviceAccount.imagePullSecrets', set: { serviceAccount: { imagePullSecrets: [{ name: 'regcred' }] } }, changes: { [`${SA}:imagePullSecrets`]: [{ name: 'regcred' }] } },
  {
    key: 'serviceAccount.automountServiceAccountToken',
    set: { serviceAccount: { automountServiceAccountToken: false } },
    changes: { [`${SA}:automountServiceAccountToken`]: false, [`${POD}.automountServiceAccountToken`]: false },
  },
  {
    key: 'ingress.enabled',
    set: { ingress: { enabled: true } },
    changes: {
      '+Ingress/agentplat-authproxy': obj({
        apiVersion: 'networking.k8s.io/v1',
        spec: { rules: [{ http: { paths: [{ path: '/', pathType: 'ImplementationSpecific', backend: { service: { name: 'agentplat-authproxy', port: { number: 4180 } } } }] } }] },
      }),
    },
  },
  ...([
    ['hosts', { hosts: ['auth.example.com'] }, { 'spec.rules[0].host': 'auth.example.com' }],
    ['path', { path: '/oauth2' }, { 'spec.rules[0].http.paths[0].path': '/oauth2' }],
    ['pathType', { pathType: 'Prefix' }, { 'spec.rules[0].http.paths[0].pathType': 'Prefix' }],
    ['className', { className: 'nginx' }, { 'spec.ingressClassName': 'nginx' }],
    ['tls', { tls: [{ hosts: ['auth.example.com'], secretName: 'auth-tls' }] }, { 'spec.tls': [{ hosts: ['auth.example.com'], secretName: 'auth-tls' }] }],
    [
      'extraPaths',
      { extraPaths: [{ path: '/healthz', pathType: 'Exact', backend: { service: { name: 'health', port: { number: 80 } } } }] },
      { 'spec.rules[0].http.paths': [obj({ path: '/healthz' }), obj({ path: '/' })] },
    ],
    ['labels', { labels: { exposure: 'public' } }, { 'metadata.labels.exposure': 'public' }],
    ['annotations', { annotations: { 'cert-manager.io/cluster-issuer': 'letsencrypt' } }, { 'metadata.annotations': { 'cert-manager.io/cluster-issuer': 'letsencrypt' } }],
  ] as const).map(([k, set, changes]): Case => ({
    key: `ingress.${k}`,
    context: { ingress: { enabled: true } },
    set: { ingress: set },
    changes: Object.fromEntries(Object.entries(changes).map(([p, v]) => [`Ingress/agentplat-authproxy:${p}`, v])),
  })),
  {
    key: 'gatewayApi.enabled',
    context: { gatewayApi: { gatewayRef: { name: 'edge', namespace: 'gateways' } } },
    set: { gatewayApi: { enabled: true } },
    changes: {
      '+HTTPRoute/agentplat-authproxy': obj({
        apiVersion: 'gateway.networking.k8s.io/v1',
        spec: { parentRefs: [{ name: 'edge', namespace: 'gateways' }], rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/' } }], backendRefs: [{ name: 'agentplat-authproxy', port: 4180 }] }] },
      }),
    },
  },
  ...([
    ['gatewayRef', { gatewayRef: { name: 'internal', namespace: 'gateways', sectionName: 'https' } }, { 'spec.parentRefs[0].name': 'internal', 'spec.parentRefs[0].sectionName': 'https' }],
    ['hostnames', { hostnames: ['auth.example.com'] }, { 'spec.hostnames': ['auth.example.com'] }],
    ['rules', { rules: [{ matches: [{ path: { type: 'PathPrefix', value: '/oauth2' } }] }] }, { 'spec.rules[0].matches[0].path.value': '/oauth2' }],
    ['labels', { labels: { exposure: 'public' } }, { 'metadata.labels.exposure': 'public' }],
    ['annotations', { annotations: { 'example.com/a': 'b' } }, { 'metadata.annotations': { 'example.com/a': 'b' } }],
  ] as const).map(([k, set, changes]): Case => ({
    key: `gatewayApi.${k}`,
    context: { gatewayApi: { enabled: true, gatewayRef: { name: 'edge', namespace: 'gateways' } } },
    set: { gatewayApi: set },
    changes: Object.fromEntries(Object.entries(changes).map(([p, v]) => [`HTTPRoute/agentplat-authproxy:${p}`, v])),
  })),
  {
    key: 'networkPolicy.create',
    context: { networkPolicy: { ingress: [{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress' } } }] }] } },
    set: { networkPolicy: { create: true } },
    changes: { '+NetworkPolicy/agentplat-authproxy': obj({ spec: obj({ policyTypes: ['Ingress'], ingress: [obj({ from: any })] }) }) },
  },
  {
    key: 'networkPolicy.ingress',
    context: { networkPolicy: { create: true, egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] } },
    set: { networkPolicy: { ingress: [{ from: [{ podSelector: { matchLabels: { app: '{{ .Release.Name }}-ingress' } } }] }] } },
    changes: { 'NetworkPolicy/agentplat-authproxy:spec.policyTypes': ['Ingress', 'Egress'], 'NetworkPolicy/agentplat-authproxy:spec.ingress': [{ from: [{ podSelector: { matchLabels: { app: 'agentplat-ingress' } } }] }] },
  },
  {
    key: 'networkPolicy.egress',
    context: { networkPolicy: { create: true, ingress: [{ from: [{ podSelector: {} }] }] } },
    set: { networkPolicy: { egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] } },
    changes: { 'NetworkPolicy/agentplat-authproxy:spec.policyTypes': ['Ingress', 'Egress'], 'NetworkPolicy/agentplat-authproxy:spec.egress': [{ to: [{ ipBlock: { cidr: '10.0.0.0/8' } }] }] },
  },
  { key: 'podDisruptionBudget.enabled', context: { replicaCount: 2 }, set: { podDisruptionBudget: { enabled: false } }, changes: { [`-${PDB}`]: undefined } },
  { key: 'podDisruptionBudget.minAvailable', context: { replicaCount: 3 }, set: { podDisruptionBudget: { minAvailable: 2 } }, changes: { [`${PDB}:spec.minAvailable`]: 2 } },
  {
    key: 'podDisruptionBudget.maxUnavailable',
    context: { replicaCount: 3, podDisruptionBudget: { minAvailable: null } },
    set: { podDisruptionBudget: { maxUnavailable: 1 } },
    changes: { [`${PDB}:spec.maxUnavailable`]: 1 },
  },
  { key: 'podDisruptionBudget.unhealthyPodEvictionPolicy', context: { replicaCount: 2 }, set: { podDisruptionBudget: { unhealthyPodEvictionPolicy: 'AlwaysAllow' } }, changes: { [`${PDB}:spec.unhealthyPodEvictionPolicy`]: 'AlwaysAllow' } },
  {
    key: 'autoscaling.enabled',
    set: { autoscaling: { enabled: true } },
    changes: {
      [`${D}:spec.replicas`]: undefined,
      '+HorizontalPodAutoscaler/agentplat-authproxy': obj({
        apiVersion: 'autoscaling/v2',
        spec: {
          scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: 'agentplat-authproxy' },
          minReplicas: 1,
          maxReplicas: 10,
          metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 80 } } }],
        },
      }),
    },
  },
  {
    key: 'autoscaling.minReplicas',
    context: { autoscaling: { enabled: true } },
    set: { autoscaling: { minReplicas: 2 } },
    changes: { 'HorizontalPodAutoscaler/agentplat-authproxy:spec.minReplicas': 2, [`+${PDB}`]: obj({ spec: obj({ minAvailable: 1 }) }) },
  },
  { key: 'autoscaling.maxReplicas', context: { autoscaling: { enabled: true } }, set: { autoscaling: { maxReplicas: 4 } }, changes: { 'HorizontalPodAutoscaler/agentplat-authproxy:spec.maxReplicas': 4 } },
  {
    key: 'autoscaling.targetCPUUtilizationPercentage',
    context: { autoscaling: { enabled: true } },
    set: { autoscaling: { targetCPUUtilizationPercentage: 60 } },
    changes: { 'HorizontalPodAutoscaler/agentplat-authproxy:spec.metrics[0].resource.target.averageUtilization': 60 },
  },
  {
    key: 'autoscaling.targetMemoryUtilizationPercentage',
    context: { autoscaling: { enabled: true } },
    set: { autoscaling: { targetMemoryUtilizationPercentage: 70 } },
    // the memory target is listed first
    changes: { 'HorizontalPodAutoscaler/agentplat-authproxy:spec.metrics': [obj({ resource: obj({ name: 'memory' }) }), obj({ resource: obj({ name: 'cpu' }) })] },
  },
  {
    key: 'autoscaling.behavior',
    context: { autoscaling: { enabled: true } },
    set: { autoscaling: { behavior: { scaleDown: { stabilizationWindowSeconds: 300 } } } },
    changes: { 'HorizontalPodAutoscaler/agentplat-authproxy:spec.behavior': { scaleDown: { stabilizationWindowSeconds: 300 } } },
  },
  {
    key: 'autoscaling.annotations',
    context: { autoscaling: { enabled: true } },
    set: { autoscaling: { annotations: { 'example.com/a': 'b' } } },
    changes: { 'HorizontalPodAutoscaler/agentplat-authproxy:metadata.annotations': { 'example.com/a': 'b' } },
  },
  {
    key: 'metrics.enabled',
    set: { metrics: { enabled: false } },
    changes: {
      [`${C}.args`]: expect.not.arrayContaining(['--metrics-address=0.0.0.0:44180']),
      [`${C}.ports`]: [{ name: 'http', containerPort: 4180, protocol: 'TCP' }],
      [`${SVC}:spec.ports`]: [obj({ name: 'http' })],
    },
  },
  {
    key: 'metrics.port',
    set: { metrics: { port: 9090 } },
    changes: { [`${C}.args[1]`]: '--metrics-address=0.0.0.0:9090', [`${C}.ports[1].containerPort`]: 9090, [`${SVC}:spec.ports[1].port`]: 9090 },
  },
  { key: 'metrics.service.appProtocol', set: { metrics: { service: { appProtocol: 'https' } } }, changes: { [`${SVC}:spec.ports[1].appProtocol`]: 'https' } },
  { key: 'metrics.nodePort', context: { service: { type: 'NodePort' } }, set: { metrics: { nodePort: 30081 } }, changes: { [`${SVC}:spec.ports[1].nodePort`]: 30081 } },
  {
    key: 'metrics.serviceMonitor.enabled',
    set: { metrics: { serviceMonitor: { enabled: true } } },
    changes: {
      '+ServiceMonitor/agentplat-authproxy': obj({
        apiVersion: 'monitoring.coreos.com/v1',
        metadata: obj({ namespace: 'agentplat', labels: obj({ prometheus: 'default' }) }),
        spec: obj({ endpoints: [{ port: 'metrics', path: '/metrics', interval: '60s', scrapeTimeout: '30s' }] }),
      }),
    },
  },
  ...([
    ['namespace', { namespace: 'monitoring' }, { 'metadata.namespace': 'monitoring' }],
    ['prometheusInstance', { prometheusInstance: 'platform' }, { 'metadata.labels.prometheus': 'platform' }],
    ['interval', { interval: '30s' }, { 'spec.endpoints[0].interval': '30s' }],
    ['scrapeTimeout', { scrapeTimeout: '10s' }, { 'spec.endpoints[0].scrapeTimeout': '10s' }],
    ['labels', { labels: { release: 'kube-prometheus' } }, { 'metadata.labels.release': 'kube-prometheus' }],
    ['annotations', { annotations: { 'example.com/a': 'b' } }, { 'metadata.annotations': { 'example.com/a': 'b' } }],
    ['scheme', { scheme: 'https' }, { 'spec.endpoints[0].scheme': 'https' }],
    ['tlsConfig', { tlsConfig: { insecureSkipVerify: true } }, { 'spec.endpoints[0].tlsConfig': { insecureSkipVerify: true } }],
    ['bearerTokenFile', { bearerTokenFile: '/var/run/secrets/token' }, { 'spec.endpoints[0].bearerTokenFile': '/var/run/secrets/token' }],
    ['metricRelabelings', { metricRelabelings: [{ action: 'drop', regex: 'go_.*', sourceLabels: ['__name__'] }] }, { 'spec.endpoints[0].metricRelabelings': [{ action: 'drop', regex: 'go_.*', sourceLabels: ['__name__'] }] }],
    ['relabelings', { relabelings: [{ action: 'replace', targetLabel: 'team', replacement: 'auth' }] }, { 'spec.endpoints[0].relabelings': [{ action: 'replace', targetLabel: 'team', replacement: 'auth' }] }],
  ] as const).map(([k, set, changes]): Case => ({
    key: `metrics.serviceMonitor.${k}`,
    context: { metrics: { serviceMonitor: { enabled: true } } },
    set: { metrics: { serviceMonitor: set } },
    changes: Object.fromEntries(Object.entries(changes).map(([p, v]) => [`ServiceMonitor/agentplat-authproxy:${p}`, v])),
  })),
];

describe('authproxy values surface: each key changes exactly its objects and fields', () => {
  for (const rev of ['A', 'B'] as const) {
    describe(`revision ${rev}`, () => {
      for (const c of CASES) {
        it(`${c.key}`, () => {
          const before = renderProxy(rev, c.context ?? {}, c.apis);
          const after = renderProxy(rev, mergeMaps(c.context ?? {}, c.set), c.apis);
          const d = diff(before, after);
          expect([...d.keys()].sort()).toEqual(Object.keys(c.changes).sort());
          expect(Object.fromEntries(d)).toEqual(c.changes);
          expectValidK8sObjects(after.map((x) => x.object));
        });
      }
    });
  }
});

describe('authproxy optional objects appear exactly when their conditions hold', () => {
  const kinds = (docs: RenderedDoc[]) => docs.map(objId).sort();
  const base = ['ConfigMap/agentplat-authproxy', D, SECRET, SVC, SA].sort();

  it('the default proxy renders the Deployment, Service, ServiceAccount, credentials Secret and config ConfigMap only', () => {
    expect(kinds(renderProxy('B', {}))).toEqual(base);
  });

  it('PodDisruptionBudget: enabled (the default) and more than one replica, or autoscaling with minReplicas above 1', () => {
    const pdb = (b: Values) => kinds(renderProxy('A', b)).includes(PDB);
    expect(pdb({ replicaCount: 1 })).toBe(false);
    expect(pdb({ replicaCount: 2 })).toBe(true);
    expect(pdb({ replicaCount: 2, podDisruptionBudget: { enabled: false } })).toBe(false);
    expect(pdb({ autoscaling: { enabled: true, minReplicas: 1 } })).toBe(false);
    expect(pdb({ autoscaling: { enabled: true, minReplicas: 2 } })).toBe(true);
  });

  it('ServiceMonitor: metrics on, serviceMonitor.enabled, and monitoring.coreos.com/v1 declared (the main chart\'s gate)', () => {
    const sm = (b: Values, apis: string[]) => kinds(renderProxy('B', b, apis)).includes('ServiceMonitor/agentplat-authproxy');
    const on = { metrics: { serviceMonitor: { enabled: true } } };
    expect(sm(on, [MONITORING])).toBe(true);
    expect(sm(on, [`${MONITORING}/ServiceMonitor`])).toBe(true);
    expect(sm(on, [])).toBe(false);
    expect(sm({ metrics: { enabled: false, serviceMonitor: { enabled: true } } }, [MONITORING])).toBe(false);
    expect(sm({}, [MONITORING])).toBe(false);
  });

  it('HTTPRoute renders with gatewayApi.enabled whatever the declared APIs (as ui.httpRoute does; lint warns)', () => {
    expect(kinds(renderProxy('B', { gatewayApi: { enabled: true, gatewayRef: { name: 'gw' } } }, []))).toContain('HTTPRoute/agentplat-authproxy');
  });

  it('credentials Secret: not with config.existingSecret, not with proxyVarsAsSecrets false', () => {
    expect(kinds(renderProxy('A', { config: { existingSecret: 'oidc' } }))).not.toContain(SECRET);
    expect(kinds(renderProxy('A', { proxyVarsAsSecrets: false }))).not.toContain(SECRET);
  });

  it('google Secret: adminEmail with serviceAccountJson; not with existingSecret or application default credentials', () => {
    const g = (google: Values) => kinds(renderProxy('B', { config: { google } })).includes('Secret/agentplat-authproxy-google');
    expect(g({ adminEmail: 'a@example.com', serviceAccountJson: '{}' })).toBe(true);
    expect(g({ serviceAccountJson: '{}' })).toBe(false);
    expect(g({ adminEmail: 'a@example.com', existingSecret: 'sa' })).toBe(false);
    expect(g({ adminEmail: 'a@example.com', useApplicationDefaultCredentials: true })).toBe(false);
    const args = (renderProxy('B', { config: { google: { adminEmail: 'a@example.com', useApplicationDefaultCredentials: true, targetPrincipal: 'sa@p.iam' } } })
      .find((d) => objId(d) === D)!.object as any).spec.template.spec.containers[0].args as string[];
    expect(args).toEqual(expect.arrayContaining(['--google-use-application-default-credentials=true', '--google-target-principal=sa@p.iam']));
  });

  it('redis access Secret: only with sessionStorage.type redis and an inline password', () => {
    const r = (b: Values) => kinds(renderProxy('A', b)).includes('Secret/agentplat-authproxy-redis-access');
    const url = { standalone: { connectionUrl: 'redis://r:6379' } };
    expect(r({ sessionStorage: { type: 'redis', redis: { ...url, password: 'p' } } })).toBe(true);
    expect(r({ sessionStorage: { type: 'cookie', redis: { ...url, password: 'p' } } })).toBe(false);
    expect(r({ sessionStorage: { type: 'redis', redis: { ...url, password: 'p', existingSecret: 'x' } } })).toBe(false);
    expect(r({ sessionStorage: { type: 'redis', redis: url } })).toBe(false);
  });

  it('access list: enabled with restricted_access renders it; template mounts an existing one; enabled alone does nothing', () => {
    const k = (e: Values) => kinds(renderProxy('B', { authenticatedEmailsFile: e }));
    expect(k({ enabled: true, restricted_access: 'a@example.com' })).toContain('ConfigMap/agentplat-authproxy-accesslist');
    expect(k({ enabled: false, restricted_access: 'a@example.com' })).toEqual(base);
    expect(k({ enabled: true, template: 'mine' })).toEqual(base);
    expect(k({ enabled: true })).toEqual(base);
  });

  it('alpha Secret, htpasswd Secret, Ingress, NetworkPolicy, HorizontalPodAutoscaler: each only with its switch', () => {
    expect(kinds(renderProxy('A', { alphaConfig: { enabled: true } }))).toContain('Secret/agentplat-authproxy-alpha');
    expect(kinds(renderProxy('A', { htpasswdFile: { enabled: true, entries: ['u:h'] } }))).toContain('Secret/agentplat-authproxy-htpasswd-file');
    expect(kinds(renderProxy('A', { htpasswdFile: { enabled: false, entries: ['u:h'] } }))).toEqual(base);
    expect(kinds(renderProxy('A', { ingress: { enabled: true } }))).toContain('Ingress/agentplat-authproxy');
    expect(kinds(renderProxy('A', { networkPolicy: { create: true } }))).toContain('NetworkPolicy/agentplat-authproxy');
    expect(kinds(renderProxy('A', { autoscaling: { enabled: true } }))).toContain('HorizontalPodAutoscaler/agentplat-authproxy');
  });

  it('config ConfigMap: not with config.existingConfig, not with forceLegacyConfig false', () => {
    expect(kinds(renderProxy('B', { config: { existingConfig: 'x' } }))).not.toContain(CM);
    expect(kinds(renderProxy('B', { config: { forceLegacyConfig: false } }))).not.toContain(CM);
  });
});

describe('authproxy refusals and lint at file:line:column', () => {
  const lintText = (text: string, revision: Revision = 'B', apiVersions?: string[]) => {
    const parsed = parseValuesText(text, 'proxy.yaml');
    // The proxy's own keys; the controller's auth mode behind the proxy is security/insecure-behind-authproxy's (test/lint/exposure-rules.test.ts).
    return lintValues({ revision, layers: [parsed.source!], ...(apiVersions ? { apiVersions } : {}) }).problems.filter((p) => p.severity !== 'info' && p.rule !== 'security/insecure-behind-authproxy');
  };
  const ON = 'authproxy:\n  enabled: true\n  config:\n    existingSecret: oidc\n';

  it('initContainers and redis-ha stay unknown keys, with a hint naming the external redis keys', () => {
    for (const [text, key, line] of [
      [`${ON}  initContainers:\n    waitForRedis:\n      enabled: false\n`, 'authproxy.initContainers', 5],
      [`${ON}  redis-ha:\n    enabled: true\n`, 'authproxy.redis-ha', 5],
    ] as const) {
      const ps = lintText(text);
      expect(ps).toHaveLength(1);
      expect(ps[0]).toMatchObject({ rule: 'values/unknown-key', severity: 'error', path: key, file: 'proxy.yaml', line, column: 3 });
      expect(ps[0]!.hint).toContain('sessionStorage.redis');
    }
  });

  it('a key named like an Object property (constructor) is an ordinary unknown key, not a refused one', () => {
    for (const text of ['constructor:\n  a: 1\n', `${ON}  constructor: 1\n`]) {
      const ps = lintText(text).filter((p) => p.rule === 'values/unknown-key');
      expect(ps).toHaveLength(1);
      expect(ps[0]!.hint === undefined || typeof ps[0]!.hint === 'string').toBe(true);
      expect(ps[0]!.hint ?? '').not.toContain('redis');
    }
  });

  it('an unknown proxy key keeps its did-you-mean', () => {
    const ps = lintText(`${ON}  replicaCont: 2\n`);
    expect(ps[0]).toMatchObject({ rule: 'values/unknown-key', path: 'authproxy.replicaCont', line: 5, column: 3 });
    expect(ps[0]!.hint).toContain('replicaCount');
  });

  it('service.port: refused naming service.portNumber; with checkDeprecation false only a warning', () => {
    const ps = lintText(`${ON}  service:\n    port: 80\n`);
    expect(ps).toEqual([expect.objectContaining({ rule: 'values/authproxy-removed-key', severity: 'error', path: 'authproxy.service.port', line: 6, column: 5 })]);
    expect(ps[0]!.hint).toContain('service.portNumber');
    const off = lintText(`${ON}  checkDeprecation: false\n  service:\n    port: 80\n`);
    expect(off).toEqual([expect.objectContaining({ rule: 'values/authproxy-removed-key', severity: 'warning', line: 7, column: 5 })]);
  });

  it('redis session storage without an address for its clientType is refused at the key to set', () => {
    const standalone = lintText(`${ON}  sessionStorage:\n    type: redis\n`);
    expect(standalone).toEqual([expect.objectContaining({ rule: 'values/authproxy-session-storage', severity: 'error', path: 'authproxy.sessionStorage.type', line: 6, column: 5 })]);
    expect(standalone[0]!.message).toContain('standalone.connectionUrl');
    const sentinel = lintText(`${ON}  sessionStorage:\n    type: redis\n    redis:\n      clientType: sentinel\n      sentinel:\n        masterName: ""\n        connectionUrls: [redis://s:26379]\n`);
    expect(sentinel).toEqual([expect.objectContaining({ rule: 'values/authproxy-session-storage', path: 'authproxy.sessionStorage.redis.sentinel.masterName', line: 10, column: 9 })]);
    expect(lintText(`${ON}  sessionStorage:\n    type: redis\n    redis:\n      standalone:\n        connectionUrl: redis://r:6379\n`)).toEqual([]);
    // a store other than cookie or redis is a schema error with the allowed words
    expect(lintText(`${ON}  sessionStorage:\n    type: memcached\n`)[0]).toMatchObject({ rule: 'values/schema', line: 6, column: 5 });
  });

  it('objects an API server refuses: both PDB thresholds, minReplicas above maxReplicas, a route with no gateway name', () => {
    expect(lintText(`${ON}  replicaCount: 2\n  podDisruptionBudget:\n    maxUnavailable: 1\n`)).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-pdb-thresholds', severity: 'error', path: 'authproxy.podDisruptionBudget.maxUnavailable', line: 7, column: 5 }),
    ]);
    expect(lintText(`${ON}  autoscaling:\n    enabled: true\n    minReplicas: 5\n    maxReplicas: 3\n`)).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-autoscaling-bounds', severity: 'error', path: 'authproxy.autoscaling.minReplicas', line: 7, column: 5 }),
    ]);
    expect(lintText(`${ON}  gatewayApi:\n    enabled: true\n`)).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-httproute-gateway', severity: 'error', line: 5, column: 3 }),
    ]);
    expect(lintText(`${ON}  kubeVersion: "1.21"\n`)).toEqual([expect.objectContaining({ rule: 'values/authproxy-kube-version', severity: 'error', line: 5, column: 3 })]);
  });

  it('Service ports an API server refuses: the metrics port on the Service port number, two families with SingleStack', () => {
    expect(lintText(`${ON}  metrics:\n    port: 4180\n`)).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-service-ports', severity: 'error', path: 'authproxy.metrics.port', line: 6, column: 5 }),
    ]);
    expect(lintText(`${ON}  metrics:\n    enabled: false\n    port: 4180\n`)).toEqual([]);
    expect(lintText(`${ON}  service:\n    ipDualStack:\n      enabled: true\n      ipFamilyPolicy: SingleStack\n`)).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-service-ports', severity: 'error', path: 'authproxy.service.ipDualStack.ipFamilyPolicy', line: 8, column: 7 }),
    ]);
    expect(lintText(`${ON}  service:\n    ipDualStack:\n      enabled: true\n      ipFamilyPolicy: SingleStack\n      ipFamilies: [IPv4]\n`)).toEqual([]);
  });

  it('declared APIs: a ServiceMonitor or HTTPRoute whose API is missing is warned about, as for the main chart', () => {
    expect(lintText(`${ON}  metrics:\n    serviceMonitor:\n      enabled: true\n`, 'B', ['v1'])).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-service-monitor', severity: 'warning', line: 7, column: 7 }),
    ]);
    expect(lintText(`${ON}  metrics:\n    serviceMonitor:\n      enabled: true\n`, 'B', [MONITORING])).toEqual([]);
    expect(lintText(`${ON}  gatewayApi:\n    enabled: true\n    gatewayRef:\n      name: gw\n`, 'A', ['v1'])).toEqual([
      expect.objectContaining({ rule: 'values/authproxy-httproute-needs-api', severity: 'warning', line: 6, column: 5 }),
    ]);
  });

  it('settings that render nothing or lock everyone out are reported', () => {
    expect(lintText(`${ON}  htpasswdFile:\n    enabled: true\n`)).toEqual([expect.objectContaining({ rule: 'values/authproxy-htpasswd', severity: 'error', line: 6, column: 5 })]);
    expect(lintText(`${ON}  networkPolicy:\n    create: true\n`)).toEqual([expect.objectContaining({ rule: 'values/authproxy-network-policy-empty', severity: 'warning', line: 6, column: 5 })]);
    expect(lintText(`${ON}  authenticatedEmailsFile:\n    enabled: true\n`)).toEqual([expect.objectContaining({ rule: 'values/authproxy-no-effect', severity: 'warning', line: 6, column: 5 })]);
  });

  it('the credentials rule follows requiredSecretKeys and proxyVarsAsSecrets', () => {
    const base = 'authproxy:\n  enabled: true\n';
    expect(lintText(`${base}  proxyVarsAsSecrets: false\n`)).toEqual([]);
    const ps = lintText(`${base}  config:\n    requiredSecretKeys: [client-id]\n    clientID: ""\n`);
    expect(ps).toEqual([expect.objectContaining({ rule: 'values/authproxy-secret', path: 'authproxy.config.clientID', line: 5, column: 5 })]);
  });

  it('templates in authproxy.extraObjects and networkPolicy rules are checked at lint time', () => {
    const ps = lintText(`${ON}  extraObjects:\n    - apiVersion: v1\n      kind: ConfigMap\n      metadata:\n        name: "{{ .Values.nope.deeper }}"\n`);
    expect(ps).toEqual([expect.objectContaining({ rule: 'values/templated-values', path: 'authproxy.extraObjects[0].metadata.name', line: 9, column: 9 })]);
  });
});

describe('authproxy keys reach every surface generated from the values model', () => {
  // One key of each part of the surface (value-surface facts 6.1 to 6.4).
  const KEYS = [
    'authproxy.replicaCount', 'authproxy.image.registry', 'authproxy.securityContext.enabled', 'authproxy.topologySpreadConstraints',
    'authproxy.config.emailDomains', 'authproxy.alphaConfig.enabled', 'authproxy.htpasswdFile.entries',
    'authproxy.sessionStorage.redis.sentinel.masterName',
    'authproxy.service.ipDualStack.ipFamilyPolicy', 'authproxy.ingress.className', 'authproxy.metrics.serviceMonitor.interval', 'authproxy.podDisruptionBudget.minAvailable',
  ];

  it('schema, docs and explain know each key, in both revisions', async () => {
    for (const rev of ['A', 'B'] as const) {
      const docs = valuesReference(rev, valuesSchema(rev) as never, rev === 'A' ? 'B' : 'A', valuesSchema(rev === 'A' ? 'B' : 'A') as never);
      for (const key of KEYS) {
        expect(describeKey(rev, key), `${rev} ${key}`).toBeDefined();
        expect(docs, `${rev} ${key}`).toContain(`\`${key}\``);
      }
    }
    const io = createMemoryIo();
    expect(await run(['explain', 'authproxy.sessionStorage.redis.clientType', '-r', 'B'], io)).toBe(0);
    expect(io.out).toContain('standalone');
  });

  it('defaults (agentplat values) carry the declared keys with the proxy chart\'s effective defaults', () => {
    for (const rev of ['A', 'B'] as const) {
      const d = (defaultsSource(rev).data as any).authproxy;
      expect(d.replicaCount).toBe(1);
      expect(d.podDisruptionBudget).toEqual({ enabled: true, minAvailable: 1, maxUnavailable: null, unhealthyPodEvictionPolicy: '' });
      expect(d.metrics.port).toBe(44180);
      expect(d.config.emailDomains).toEqual(['*']);
      expect(d.sessionStorage.redis.passwordKey).toBe('redis-password');
      expect(d.service.portNumber).toBe(4180);
      // not declared by the proxy chart: known, but not written
      expect(d).not.toHaveProperty('affinity');
      expect(d.service).not.toHaveProperty('port');
    }
  });

  it('completion offers the keys', async () => {
    const io = createMemoryIo();
    expect(await run(['complete', '--', 'render', '--set', 'authproxy.sessionStorage.redis.sentinel.'], io)).toBe(0);
    expect(io.out).toContain('authproxy.sessionStorage.redis.sentinel.masterName');
  });

  it('migrate A→B keeps the proxy chart keys and the result lints clean in B', async () => {
    const text = `controller:\n  auth:\n    mode: trusted-proxy\nauthproxy:\n  enabled: true\n  config:\n    existingSecret: oidc\n  replicaCount: 2\n  ingress:\n    enabled: true\n    hosts:\n      - auth.example.com\n  sessionStorage:\n    type: redis\n    redis:\n      standalone:\n        connectionUrl: redis://redis:6379\n`;
    const r = await migrateValues(text, 'a.yaml', 'A', 'B');
    expect(r.text).toBe(text);
    expect(r.problems.filter((p) => p.severity !== 'info')).toEqual([]);
  });
});
