// The one model of every values key of both chart revisions: shape, type, default, a one-line
// meaning and revision. The defaults files and JSON schemas are generated from it.

import { AGENT_AREAS, type Revision } from './revisions.ts';
import {
  ByRevision, group, leaf, split, S, K8S, DNS_LABEL_PATTERN, HEADER_NAME_PATTERN, INT32_MAX, NGINX_TIME_PATTERN, QUANTITY_PATTERN,
  type Group, type JsonSchema, type KeyTree, type Leaf, type LeafOptions, type Node, type TypeWord,
} from './values-nodes.ts';

// ---- small constructors, so each key below reads as one line -----------------------------

const str = (def: unknown, doc: string, o?: LeafOptions) => leaf('string', S.string(), def, doc, o);
const strEnum = (values: readonly string[], def: unknown, doc: string, o?: LeafOptions) => leaf('string', S.stringEnum(values), def, doc, o);
const bool = (def: unknown, doc: string, o?: LeafOptions) => leaf('bool', S.bool(), def, doc, o);
const int = (def: unknown, doc: string, min?: number, max?: number, o?: LeafOptions) => leaf('int', S.int(min, max), def, doc, o);
const port = (def: number, doc: string, o?: LeafOptions) => leaf('int', S.port(), def, doc, o);
const qty = (def: unknown, doc: string, o?: LeafOptions) => leaf('quantity', S.quantity(), def, doc, o);
const dur = (def: string, doc: string, o?: LeafOptions) => leaf('duration', S.duration(def === ''), def, doc, o);
const strMap = (doc: string, o?: LeafOptions) => leaf('object', S.stringMap(), {}, doc, o);
const k8sObj = (type: string, def: unknown, doc: string, o?: LeafOptions) => leaf('object', S.k8s(type), def, doc, o);
const k8sList = (type: string, doc: string, o?: LeafOptions) => leaf('list', S.k8sList(type), [], doc, o);
const A = (o: LeafOptions = {}): LeafOptions => ({ ...o, only: 'A' });
const B = (o: LeafOptions = {}): LeafOptions => ({ ...o, only: 'B' });

/** Metrics listen address: "" or "0" (disabled), or [host]:port, host optional (":8443", "[::1]:9443"). */
const BIND_ADDRESS_PATTERN = '^(0?|(\\[[0-9A-Fa-f:.]+\\]|[^\\s:\\[\\]]*):[0-9]{1,5})$';
/** The spec says the OTLP endpoints are http or https URLs. */
const HTTP_URL_OR_EMPTY = '^(https?://\\S+)?$';

const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'] as const;
const pullPolicy = (def: unknown, doc: string, o?: LeafOptions) => strEnum(['', ...PULL_POLICIES], def, doc, o);
const SERVICE_TYPES = ['ClusterIP', 'NodePort', 'LoadBalancer'];
const PROVIDER_ENUM = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].map((x) => `Provider${x}`);

/** imagePullSecrets: `{name: x}` objects as Kubernetes writes them, or a bare secret name. */
const PULL_SECRETS: JsonSchema = {
  type: 'array',
  items: { anyOf: [S.k8s(K8S.localObjectReference), { type: 'string', minLength: 1 }] },
};

/** The image's own tag, or the top-level `tag` when set (controller and UI: model/images.ts TAG_FOLLOWS_TOP_LEVEL). */
type TagWins = 'own' | 'top-level';
const image = (what: string, repository: string, keys: readonly ('pullPolicy' | 'pullSecret')[] = ['pullPolicy'], o: LeafOptions = {}, tagWins: TagWins = 'own'): Group =>
  group(tagWins === 'top-level'
    ? `${what} image; the top-level tag, when set, replaces its tag; an empty registry falls back to the top-level one`
    : `${what} image; empty parts fall back to the top-level registry and tag`, {
    registry: str('', 'Registry host; empty uses the top-level registry; global.imageRegistry (revision B), when set, replaces it'),
    repository: str(repository, 'Repository path inside the registry'),
    tag: str('', tagWins === 'top-level'
      ? 'Image tag, used only while the top-level tag is empty (a set top-level tag wins over it); empty uses the chart version'
      : 'Image tag; empty uses the top-level tag, then the chart version'),
    ...(keys.includes('pullPolicy') ? { pullPolicy: pullPolicy('', 'Pull policy; empty uses the top-level imagePullPolicy') } : {}),
    ...(keys.includes('pullSecret') ? { pullSecret: str('', 'Pull secret name set on the pods this image runs in') } : {}),
  }, o);

const resources = (doc: string, limits: Record<string, Node>, requests: Record<string, Node>, o: LeafOptions = {}): Group =>
  group(doc, {
    limits: group('Upper bounds', limits, { open: true }),
    requests: group('Reserved amounts used for scheduling', requests, { open: true }),
  }, { ...o, open: S.k8s(K8S.resources) });

const probe = (def: unknown, doc: string) => k8sObj(K8S.probe, def, doc);
const healthProbe = (period: number, delay?: number) => ({
  httpGet: { path: '/health', port: 'http' },
  periodSeconds: period,
  ...(delay !== undefined ? { initialDelaySeconds: delay } : {}),
});

const pdb = (what: string): Group =>
  group(`PodDisruptionBudget of the ${what}`, {
    enabled: bool(false, 'Create the budget (with one replica, minAvailable 1 blocks every voluntary eviction)'),
    annotations: strMap('Extra annotations on the budget'),
    labels: strMap('Extra labels on the budget'),
    maxUnavailable: leaf('int-or-string', S.intOrPercent(true), 1, 'Pods that may be down at once (count or percentage); excludes minAvailable'),
    minAvailable: leaf('int-or-string', S.intOrPercent(true), null, 'Pods that must stay up (count or percentage); unset uses maxUnavailable'),
    unhealthyPodEvictionPolicy: strEnum(['', 'IfHealthyBudget', 'AlwaysAllow'], '', 'Eviction of unhealthy pods; empty keeps the platform default (needs Kubernetes 1.27+)'),
  });

const SEC_POD = { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } };
const SEC_CONTAINER = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] }, readOnlyRootFilesystem: true };

/**
 * Paths the authentication proxy serves without sign-in: the login page, the images it shows, the
 * revision's static-asset prefix, the favicon, and the gateway of each agent harness (which
 * authenticates its own callers).
 */
const skipAuthRegex = (staticPrefix: string): string =>
  `^/(login|${staticPrefix}|login-bg\\.(jpg|png|webp)|logo-.*\\.png|favicon\\.ico|api/agentharnesses/.*/gateway)`;

// ---- providers -------------------------------------------------------------------------

// A block's `config` becomes the default ModelConfig's `spec.provider<X>` and its `tls` its
// `spec.tls` (Resource API 2.12). Their fields, types and rules are the CRD's own: the generator
// writes the CRD's fields into the values schema (chart/provider-config-schema.ts; the model declares
// only the fields the values document gives defaults), and lint leaves the judging to
// values/provider-modelconfig, which runs the CRD's schema and CEL rules, so a wrong value gets the
// message `agentplat validate` gives.
const crdField = (type: TypeWord, def: unknown, doc: string, o?: LeafOptions) => leaf(type, {}, def, doc, o);

const providerTls = group('TLS toward the provider endpoint (spec.tls of the ModelConfig; checked by its CRD)', {
  disableVerify: crdField('bool', false, 'Skip certificate verification (testing only)'),
  caCertSecretRef: crdField('string', '', 'Secret holding an extra CA certificate'),
  caCertSecretKey: crdField('string', '', 'Key of the CA certificate inside that Secret; required with caCertSecretRef'),
  disableSystemCAs: crdField('bool', false, 'Trust only the given CA, not the system pool'),
}, { optional: true, open: true });

const providerCommon = (letter: string, withKey: boolean): Record<string, Node> => ({
  provider: strEnum(PROVIDER_ENUM, `Provider${letter}`, 'Provider of the generated ModelConfig'),
  model: str(`example-model-${letter.toLowerCase()}`, "Placeholder: set your provider's model id"),
  ...(withKey
    ? {
        apiKeySecretRef: str(`agentplat-provider${letter.toLowerCase()}`, 'Secret holding the API key'),
        apiKeySecretKey: str(`PROVIDER${letter}_API_KEY`, 'Key of the API key inside that Secret'),
        apiKey: str('', 'Inline API key; rendered into the Secret named by apiKeySecretRef only when this block is providers.default', { optional: true, secret: true }),
      }
    : {}),
  defaultHeaders: leaf('object', S.stringMap(), {}, 'Extra HTTP headers sent with every request', { optional: true }),
  tls: providerTls,
});

/**
 * A provider block. `config` is open to every field of the provider's config in the ModelConfig
 * (baseUrl, maxTokens, …); the fields the specification gives defaults are declared, and a block
 * without them takes `config` unset.
 */
const providerBlock = (letter: string, what: string, config: Record<string, Node> = {}, o: LeafOptions = {}): Group =>
  group(`${what} (Provider${letter})`, {
    ...providerCommon(letter, letter !== 'D'),
    config: group(`Fields of spec.provider${letter} of the default ModelConfig (Resource API 2.12; checked by its CRD)`, config, {
      open: true,
      ...(Object.keys(config).length === 0 ? { optional: true } : {}),
    }),
  }, o);

// ---- sub-chart conventions ------------------------------------------------------------

/**
 * Helm's conventional sub-chart keys, known to the schema but not written to the defaults: the
 * values document lists them only where it gives a default (mcpop, the tools server's name).
 */
const subchartNames = (keys: readonly ('nameOverride' | 'fullnameOverride')[] = ['nameOverride', 'fullnameOverride']): Record<string, Node> => ({
  ...(keys.includes('nameOverride') ? { nameOverride: str('', 'Replaces the sub-chart name in its object names and labels', { optional: true }) } : {}),
  ...(keys.includes('fullnameOverride') ? { fullnameOverride: str('', 'Replaces the full name of its objects', { optional: true }) } : {}),
});

// ---- bundled agents (revision A) -------------------------------------------------------

/** Definition of the Agent CRD's `spec.declarative.context.compaction`, added by scripts/gen-values.ts from the CRD. */
export const AGENT_COMPACTION_DEF = 'AgentplatAgentContextCompaction';

export { AGENT_AREAS };

const bundledAgent = (area: string, first: boolean): Group =>
  group(`Bundled ${area} agent`, {
    enabled: bool(true, 'Install this agent'),
    modelConfigRef: str('', 'ModelConfig of the agent; empty uses the default one'),
    memory: group('Long-term memory of the agent', {
      enabled: bool(false, 'Give the agent long-term memory'),
      modelConfigRef: str('', "ModelConfig for memory; empty uses the agent's"),
      ttlDays: int(15, 'Days a memory is kept', 1),
    }),
    // The CPU limit is the agent charts' own default, which Helm keeps under the parent's block.
    resources: resources('Resources of the agent container', { cpu: qty('1000m', "CPU limit (the agent charts' default)"), memory: qty('256Mi', 'Memory limit') }, {
      cpu: qty('50m', 'CPU request'),
      memory: qty('128Mi', 'Memory request'),
    }),
    ...subchartNames(),
    nodeSelector: strMap('Node selector of the agent pods', { optional: true }),
    tolerations: k8sList(K8S.toleration, 'Tolerations of the agent pods', { optional: true }),
    runtime: strEnum(['', 'go', 'python'], '', 'Built-in runtime of the agent; empty uses go'),
    env: k8sList(K8S.envVar, 'Extra environment variables of the agent container'),
    imagePullSecrets: leaf('list', PULL_SECRETS, [], 'Pull secrets of the agent pod; empty uses the top-level imagePullSecrets'),
    podSecurityContext: k8sObj(K8S.podSecurityContext, {}, 'Security context of the agent pod; empty leaves the Agent default'),
    securityContext: k8sObj(K8S.securityContext, {}, 'Security context of the agent container; empty leaves the Agent default'),
    compaction: leaf('object', S.k8s(AGENT_COMPACTION_DEF), {}, 'Context compaction of the agent (the Agent spec.declarative.context.compaction); empty: none'),
  }, { only: 'A', ...(first ? { banner: 'Bundled agents (revision A)' } : {}) });

// ---- the tools server, MCP operator and dashboards MCP sub-charts -----------------------
// The spec's keys (§2.11) first, with their defaults; then the keys of the pinned sub-chart
// versions (tools 0.2.1, operator v0.3.0, the dashboards MCP chart). Where a sub-chart key has a
// top-level counterpart (pull secrets, pod annotations, security contexts, scheduling), its
// empty default falls back to the top-level one (decisions.md); a non-empty value replaces it.

const ownPullSecrets = (what: string) => leaf('list', PULL_SECRETS, [], `Pull secrets of the ${what} pod; empty uses the top-level imagePullSecrets`);
const ownPodAnnotations = (what: string) => strMap(`Annotations of the ${what} pod; non-empty replaces the top-level podAnnotations`);
const serviceType = (doc: string) => strEnum(SERVICE_TYPES, 'ClusterIP', doc);
const serviceAccountGroup = (what: string, defaultName: string) => group(`ServiceAccount of the ${what}`, {
  create: bool(true, 'Create it; false uses an existing account (name, else default)'),
  name: str('', `Account name; empty uses ${defaultName}`),
  annotations: strMap('Account annotations (for cloud workload identity)'),
});
/** Listen address with a port (":8081", "0.0.0.0:8443", "[::]:8443"). */
const HOST_PORT_PATTERN = '^(\\[[0-9A-Fa-f:.]+\\]|[^\\s:\\[\\]]*):[0-9]{1,5}$';

const toolsSubchart = group('Tools server sub-chart', {
  enabled: bool(true, 'Install the tools server'),
  nameOverride: str('tools', 'Name of its objects'),
  ...subchartNames(['fullnameOverride']),
  namespaceOverride: str('', 'Namespace of its objects; empty uses the chart namespace', { optional: true }),
  replicaCount: int(1, 'Number of pods', 0),
  nodeSelector: strMap('Node selector'),
  tolerations: k8sList(K8S.toleration, 'Tolerations'),
  podSecurityContext: k8sObj(K8S.podSecurityContext, SEC_POD, 'Pod security context'),
  securityContext: k8sObj(K8S.securityContext, SEC_CONTAINER, 'Container security context'),
  resources: k8sObj(K8S.resources, { limits: { memory: '256Mi' }, requests: { cpu: '50m', memory: '128Mi' } }, 'Container resources (tools.resources, when set, replaces them)'),
  image: group('Alias of tools.image, as many values files write it; a non-empty part here wins over tools.image', {
    registry: str('', 'Registry host', { optional: true }),
    repository: str('', 'Repository path inside the registry', { optional: true }),
    tag: str('', 'Image tag', { optional: true }),
    pullPolicy: pullPolicy('', 'Pull policy', { optional: true }),
  }, { optional: true }),
  imagePullSecrets: ownPullSecrets('tools'),
  podAnnotations: ownPodAnnotations('tools'),
  affinity: k8sObj(K8S.affinity, {}, 'Pod affinity'),
  topologySpreadConstraints: k8sList(K8S.topologySpread, 'Topology spread of the pods; an entry without labelSelector selects the tools pods'),
  useDefaultServiceAccount: bool(false, 'Run as the namespace default ServiceAccount: no ServiceAccount and no roles are rendered'),
  service: group('Service of the MCP endpoint', {
    type: serviceType('Service type'),
    ports: group('Service ports', {
      tools: group('The MCP port', {
        port: port(8084, 'Service port (also the port of the tool-server RemoteMCPServer URL)'),
        targetPort: port(8084, "Container port: the server's --port, and its metrics port unless tools.metrics.port is set"),
        nodePort: leaf('int', { type: ['integer', 'null'], minimum: 30000, maximum: 32767 }, null, 'Node port when the type is NodePort; null lets the cluster choose'),
      }),
    }),
  }),
  rbac: group('Roles of the tools server (it acts on cluster objects for the agents)', {
    create: bool(true, 'Render the role and binding; false leaves permissions to you'),
    namespaces: leaf('list', S.stringList(DNS_LABEL_PATTERN), [], "Namespaces that get a Role and RoleBinding instead of the cluster-wide pair; must list the tools server's own namespace"),
    readOnly: bool(false, 'Grant get/list/watch on common resources instead of full access'),
    allowSecrets: bool(false, 'With readOnly: also read Secrets'),
    additionalRules: k8sList(K8S.policyRule, 'With readOnly: rules appended to the read-only role'),
  }),
  otel: group('Tracing of the tools server (always passed to it as environment)', {
    tracing: group('Traces', {
      enabled: bool(false, 'Export traces'),
      exporter: group('Trace exporter', { otlp: group('OTLP exporter', {
        endpoint: str('http://host.docker.internal:4317', 'OTLP endpoint'),
        timeout: int(15, 'Export timeout in seconds', 0),
        insecure: bool(true, 'Send without TLS'),
      }) }),
    }),
  }),
  tools: group('Tools server settings', {
    loglevel: str('debug', 'Log level'),
    image: group('Tools server image; empty parts fall back to the top-level registry and to v<sub-chart version>', {
      registry: str('', 'Registry host; empty uses the top-level registry'),
      repository: str('agentplat/tools', 'Repository path inside the registry'),
      tag: str('', 'Image tag; empty uses v<sub-chart version> (revision B: global.tag wins)'),
      pullPolicy: pullPolicy('', 'Pull policy; empty uses the top-level imagePullPolicy'),
    }),
    resources: k8sObj(K8S.resources, {}, 'Container resources; non-empty replaces agentplat-tools.resources', { optional: true }),
    args: leaf('list', S.stringList(), [], 'Extra arguments of the server'),
    enabledTools: leaf('list', S.stringList('^[A-Za-z0-9_-]+$'), [], 'Tool families to serve (--tools=a,b); empty serves all'),
    env: k8sList(K8S.envVar, 'Extra environment variables of the server'),
    k8s: group('Kubernetes tools', {
      tokenPassthrough: bool(false, "Call the API server with the caller's token instead of the server's account"),
    }),
    // Read by the tools chart's templates, without effect in the pinned 0.2.1: accepted, so values
    // written for the chart lint, and warned about (values/no-effect).
    prometheus: group('Prometheus the tools would query (no effect in the pinned tools chart)', {
      url: str('', 'Prometheus URL (no effect)', { optional: true }),
      username: str('', 'User name (no effect)', { optional: true }),
      password: str('', 'Password (no effect)', { optional: true, secret: true }),
    }, { optional: true }),
    grafana: group('Dashboards server the tools would query (no effect in the pinned tools chart)', {
      url: str('', 'Dashboards URL (no effect)', { optional: true }),
      apiKey: str('', 'API key (no effect)', { optional: true, secret: true }),
    }, { optional: true }),
    metrics: group('Metrics', {
      port: port(8085, 'Metrics port'),
      servicemonitor: group('ServiceMonitor of the metrics Service (needs the monitoring.coreos.com/v1 API)', {
        enabled: bool(false, 'Render the ServiceMonitor'),
        interval: dur('30s', 'Scrape interval'),
        scrapeTimeout: dur('10s', 'Scrape timeout'),
        path: str('/metrics', 'Scrape path'),
        labels: leaf('object', S.stringMap(), { release: 'prometheus' }, 'Labels of the ServiceMonitor (the only ones it carries)'),
      }),
    }),
  }),
}, { banner: 'Sub-charts' });

const mcpopSubchart = group('MCP operator sub-chart', {
  enabled: bool(true, 'Install the MCP operator'),
  nameOverride: str('mcpop', 'Name of its objects'),
  fullnameOverride: str('', 'Full name of its objects'),
  namespaceOverride: str('', 'Namespace of its objects'),
  image: group('Operator image', {
    repository: str('', 'Full image path including the registry; empty uses <registry>/agentplat/mcpop'),
    tag: str('', 'Image tag; empty uses v<sub-chart version>'),
    pullPolicy: pullPolicy('', 'Pull policy; empty uses the top-level imagePullPolicy'),
  }),
  imagePullSecrets: ownPullSecrets('operator'),
  podAnnotations: ownPodAnnotations('operator'),
  controller: group('The operator process', {
    replicaCount: int(1, 'Number of pods', 0),
    leaderElection: group('Leader election', {
      enabled: bool(true, 'Elect a leader (--leader-elect and its Role); needed with more than one replica'),
    }),
    healthProbe: group('Health endpoints', {
      bindAddress: leaf('string', S.stringPattern(`^$|${HOST_PORT_PATTERN}`), ':8081', 'Listen address of /healthz and /readyz; empty: no health port and no probes'),
      livenessProbe: group('Liveness probe timings', { initialDelaySeconds: int(15, 'Initial delay (s)', 0), periodSeconds: int(20, 'Period (s)', 1) }),
      readinessProbe: group('Readiness probe timings', { initialDelaySeconds: int(5, 'Initial delay (s)', 0), periodSeconds: int(10, 'Period (s)', 1) }),
    }),
    metrics: group('Metrics endpoint (HTTPS, token-reviewed)', {
      enabled: bool(true, 'Serve metrics: port, Service and the metrics roles'),
      bindAddress: leaf('string', S.stringPattern(HOST_PORT_PATTERN), ':8443', 'Listen address of the metrics endpoint'),
      secureServing: leaf('bool', S.bool(), true, 'Read by the operator chart but without effect: the endpoint always serves HTTPS (values/no-effect)', { optional: true }),
    }),
    env: k8sList(K8S.envVar, 'Environment variables of the manager container'),
  }),
  podSecurityContext: k8sObj(K8S.podSecurityContext, {}, 'Pod security context; empty uses the top-level podSecurityContext'),
  securityContext: k8sObj(K8S.securityContext, {}, 'Container security context; empty uses the top-level securityContext'),
  resources: k8sObj(K8S.resources, { limits: { cpu: '500m', memory: '128Mi' }, requests: { cpu: '10m', memory: '64Mi' } }, 'Container resources'),
  nodeSelector: strMap('Node selector; empty uses the top-level nodeSelector'),
  tolerations: k8sList(K8S.toleration, 'Tolerations; empty uses the top-level tolerations'),
  affinity: k8sObj(K8S.affinity, {}, 'Pod affinity'),
  serviceAccount: serviceAccountGroup('operator', '<fullname>-controller-manager'),
  rbac: group('Roles of the operator', {
    create: bool(true, 'Render the roles and bindings; false leaves permissions to you'),
    namespaces: leaf('list', S.stringList(DNS_LABEL_PATTERN), [], "Namespaces the operator watches, each with a Role; must list the operator's own namespace"),
  }),
  service: group('Metrics Service', {
    type: serviceType('Service type'),
    port: port(8443, 'Service port (https)'),
    targetPort: port(8443, 'Container port the Service targets'),
  }),
});

const dashboardsMcpSubchart = group('Dashboard MCP tool server sub-chart', {
  enabled: bool(true, 'Install the dashboard MCP server'),
  ...subchartNames(),
  image: group('Server image (pinned to a release tag, never latest)', {
    registry: str('docker.io', 'Registry host'),
    repository: str('grafana/mcp-grafana', 'Repository path inside the registry'),
    name: str('', 'Last path part appended to the repository', { optional: true }),
    tag: str('1.3.0', 'Image tag'),
    pullPolicy: pullPolicy('', 'Pull policy; empty uses the top-level imagePullPolicy'),
  }),
  grafana: group('Dashboards server it talks to', {
    url: str('http://dashboards.{{ .Release.Namespace }}.svc:3000/api', 'API URL of the dashboards server'),
    serviceAccountToken: str('', 'Service account token of the dashboards server', { secret: true }),
    apiKey: str('', 'API key (older dashboards servers); used only when serviceAccountToken is empty', { optional: true, secret: true }),
    secretRef: str('', 'Existing Secret with GRAFANA_SERVICE_ACCOUNT_TOKEN or GRAFANA_API_KEY; the chart then renders no Secret', { optional: true }),
  }),
  config: leaf('object', { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'number' }, { type: 'boolean' }] } }, {}, 'Extra environment of the server, written to its ConfigMap next to GRAFANA_URL'),
  args: leaf('list', S.stringList(), [], 'Extra arguments after --transport streamable-http'),
  volumes: k8sList(K8S.volume, 'Extra pod volumes'),
  volumeMounts: k8sList(K8S.volumeMount, 'Extra container mounts'),
  replicas: int(1, 'Number of pods', 0),
  service: group('Service of the MCP endpoint', {
    type: serviceType('Service type'),
    port: port(8000, 'Service and container port (also in the RemoteMCPServer URL)'),
  }),
  serviceAccount: serviceAccountGroup('dashboards MCP server', '<fullname>'),
  podSecurityContext: k8sObj(K8S.podSecurityContext, {}, 'Pod security context; empty uses the top-level podSecurityContext'),
  securityContext: k8sObj(K8S.securityContext, {}, 'Container security context, laid key by key over the top-level securityContext and user 1000, group 999: a partial map keeps the other settings, null removes one'),
  nodeSelector: strMap('Node selector; empty uses the top-level nodeSelector'),
  tolerations: k8sList(K8S.toleration, 'Tolerations; empty uses the top-level tolerations'),
  resources: k8sObj(K8S.resources, { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '100m', memory: '128Mi' } }, 'Container resources'),
});

// ---- authentication proxy --------------------------------------------------------------

/** The upstream proxy image the sub-chart (OAuth2 proxy chart 10.7.x) pins. */
export const AUTHPROXY_REPOSITORY = 'oauth2-proxy/oauth2-proxy';
export const AUTHPROXY_APP_VERSION = '7.15.3';

const nullableStr = (doc: string, o?: LeafOptions) => leaf('string', { type: ['string', 'null'] }, null, doc, o);

/** The fields of a Kubernetes container SecurityContext, each with its own type (a closed group can then hold extra switches). */
const securityContextFields = (o: LeafOptions): Record<string, Node> => ({
  allowPrivilegeEscalation: leaf('bool', S.bool(), null, 'allowPrivilegeEscalation', o),
  appArmorProfile: k8sObj('IoK8sApiCoreV1AppArmorProfile', null, 'appArmorProfile', o),
  capabilities: k8sObj('IoK8sApiCoreV1Capabilities', null, 'capabilities (add, drop)', o),
  privileged: leaf('bool', S.bool(), null, 'privileged', o),
  procMount: leaf('string', S.string(), null, 'procMount', o),
  readOnlyRootFilesystem: leaf('bool', S.bool(), null, 'readOnlyRootFilesystem', o),
  runAsGroup: leaf('int', { type: 'integer' }, null, 'runAsGroup', o),
  runAsNonRoot: leaf('bool', S.bool(), null, 'runAsNonRoot', o),
  runAsUser: leaf('int', { type: 'integer' }, null, 'runAsUser', o),
  seLinuxOptions: k8sObj('IoK8sApiCoreV1SELinuxOptions', null, 'seLinuxOptions', o),
  seccompProfile: k8sObj('IoK8sApiCoreV1SeccompProfile', null, 'seccompProfile', o),
  windowsOptions: k8sObj('IoK8sApiCoreV1WindowsSecurityContextOptions', null, 'windowsOptions', o),
});


// ---- the tree --------------------------------------------------------------------------

export const VALUES_MODEL: Group = group('Values of the agentplat chart', {
  annotations: strMap('Extra annotations on every deployment object', { banner: 'Common settings' }),
  labels: strMap('Extra labels on every object'),
  nameOverride: str('', 'Replaces the chart name in object names'),
  fullnameOverride: str('', 'Replaces the full object name prefix'),
  namespaceOverride: str('', 'Namespace for all objects; empty uses the release namespace'),
  registry: str('ghcr.io', 'Registry of every image whose own registry is empty; global.imageRegistry (revision B), when set, replaces it'),
  tag: str('', 'Tag of every chart image: when set it wins over controller.image.tag and ui.image.tag, and fills in the other image tags left empty; empty uses the chart version'),
  imagePullPolicy: leaf('string', new ByRevision(S.stringEnum(PULL_POLICIES), S.stringEnum(['', ...PULL_POLICIES])), new ByRevision('IfNotPresent', ''),
    'Default pull policy of every image (revision B: empty falls back to global.imagePullPolicy, then IfNotPresent)'),
  imagePullSecrets: leaf('list', PULL_SECRETS, [], 'Pull secrets of every pod ({name: x} or a bare name)'),
  nodeSelector: strMap('Scheduling labels for pods that set none'),
  tolerations: k8sList(K8S.toleration, 'Tolerated taints for pods that set none'),
  podAnnotations: strMap('Extra annotations on every pod'),
  podLabels: strMap('Extra labels on the controller and UI pods; selector labels always win'),
  podSecurityContext: k8sObj(K8S.podSecurityContext, SEC_POD, 'Security context of every pod'),
  securityContext: k8sObj(K8S.securityContext, SEC_CONTAINER, 'Security context of every container'),
  ipv6: bool(false, 'Listen on IPv6 too (UI proxy, UI server and agents); keep false where the kernel has no IPv6'),
  proxy: group('Outbound HTTP proxy', { url: str('', 'Proxy URL handed to the controller') }),
  extraObjects: leaf('list', { type: 'array', items: { anyOf: [{ type: 'object' }, { type: 'string' }] } }, [],
    'Extra manifests (maps or YAML strings), rendered with the release context'),

  global: group('Settings shared with every sub-chart', {
    imagePullPolicy: pullPolicy('', 'Fallback pull policy'),
    imagePullSecrets: leaf('list', PULL_SECRETS, [], 'Pull secrets added to every pod'),
    imageRegistry: str('', 'Overrides every image registry (air-gapped mirror)'),
    tag: str('', 'Tag of the tools server image, ahead of agentplat-tools.tools.image.tag'),
    watchNamespaces: leaf('list', S.stringList(DNS_LABEL_PATTERN), [], 'Namespace scope of the install; non-empty gives namespaced roles'),
  }, { only: 'B', banner: 'Global settings (revision B)' }),

  rbac: split('Role scope',
    group('Role scope', {
      namespaces: leaf('list', S.stringList(DNS_LABEL_PATTERN), [], 'Namespaces that get roles; empty gives cluster-wide roles'),
    }, { banner: 'RBAC' }),
    group('Role scope; when present it overrides global.watchNamespaces', {
      namespaces: leaf('list', S.stringList(DNS_LABEL_PATTERN), [], 'Namespaces that get roles; an explicit [] restores cluster-wide roles', { optional: true }),
    }, { banner: 'RBAC' })),

  controller: group('The controller', {
    replicas: int(1, 'Number of controller pods', 0),
    loglevel: str('info', 'Log level'),
    image: image('Controller', 'agentplat/controller', ['pullPolicy'], {}, 'top-level'),
    agentImage: split('Image of declarative agents',
      image('Agent runtime (python)', 'agentplat/app', ['pullPolicy', 'pullSecret']),
      image('Declarative agent runtime', 'agentplat/golang-adk', [])),
    goAgentImage: image('Go agent runtime', 'agentplat/golang-adk', ['pullPolicy'], A()),
    skillsInitImage: image('Skills-init container (clones git skills, pulls skill images)', 'agentplat/skills-init', ['pullPolicy'], A()),
    a2aBaseUrl: str('', 'A2A base URL advertised to clients; empty computes the controller service URL', A()),
    a2aGatewayUrl: str('', 'Gateway base URL in Session Agent Cards; empty computes the controller service URL', B()),
    a2aClientTimeout: dur('', 'Timeout of controller-to-agent A2A calls; empty or 0 means none'),
    auth: group('How the controller authenticates callers', {
      mode: leaf('string', new ByRevision(S.stringEnum(['unsecure', 'insecure', 'trusted-proxy']), S.stringEnum(['insecure', 'trusted-proxy'])),
        new ByRevision('unsecure', 'insecure'), 'Auth mode; trusted-proxy needs a validating proxy and network isolation'),
      userIdClaim: str('', 'JWT claim holding the user id; empty uses sub'),
    }),
    mcpEgressPlaintext: bool(false, 'Send MCP traffic as plain HTTP to a TLS-originating proxy'),
    toolRefreshInterval: dur('60s', 'How often tool discovery refreshes', A()),
    watchNamespaces: leaf('list', S.stringList(DNS_LABEL_PATTERN), [], 'Namespaces the controller watches; empty means all'),
    env: k8sList(K8S.envVar, 'Extra environment variables'),
    envFrom: k8sList(K8S.envFrom, 'Extra environment sources'),
    volumes: k8sList(K8S.volume, 'Extra pod volumes'),
    volumeMounts: k8sList(K8S.volumeMount, 'Extra container mounts'),
    // Any value an older values file carries here (older charts had a map) gets the deprecation
    // warning, never a type error that blocks the render.
    streaming: leaf('string', {}, null, 'Deprecated since 0.10.0; has no effect; any value is accepted and ignored'),
    agentDeployment: group('Defaults for every agent pod; the Agent resource wins', {
      host: str('', 'Bind address of agent pods; empty means 0.0.0.0 (:: with ipv6)'),
      nodeSelector: strMap('Default node selector of agent pods'),
      podLabels: strMap('Default pod labels of agent pods'),
      serviceAccountName: str('', 'Default ServiceAccount of agent pods; empty creates one per agent'),
    }, A()),
    grpc: group('Native gRPC on the controller service port', {
      reflection: bool(false, 'Serve gRPC reflection'),
    }, B()),
    sandbox: group('Sandboxes the controller creates', {
      cpu: qty('1', 'CPU of a sandbox'),
      memory: qty('1Gi', 'Memory of a sandbox'),
      defaultTTL: dur('1h', 'Lifetime of a sandbox unless set'),
      maxTTL: dur('24h', 'Longest lifetime a sandbox may ask for'),
      guestImage: group('Guest image of a sandbox', {
        registry: str('', 'Registry host; empty uses the top-level registry; global.imageRegistry, when set, replaces it'),
        repository: str('agentplat/sandbox-guest', 'Repository path inside the registry'),
        digest: str('', 'Pin the image by digest (sha256:...)'),
      }),
    }, B()),
    sessionIdleTTL: dur('168h', 'Idle sessions expire after this', B()),
    sessionShareMaxTTL: dur('0', 'Longest lifetime of a share link; 0 means no limit', B()),
    resources: resources('Controller container resources', {
      cpu: leaf('int', { anyOf: [{ type: 'integer', minimum: 0, maximum: INT32_MAX }, { type: 'string', pattern: QUANTITY_PATTERN }] }, 2, 'CPU limit (cores, or a quantity such as 1500m)'),
      memory: qty('512Mi', 'Memory limit'),
    }, {
      cpu: qty('100m', 'CPU request'),
      memory: qty('128Mi', 'Memory request'),
    }),
    service: group('Controller Service (HTTP API, A2A; in B also gRPC and MCP)', {
      type: strEnum(SERVICE_TYPES, 'ClusterIP', 'Service type'),
      ports: group('Service ports', {
        port: port(8083, 'Service port'),
        targetPort: port(8083, 'Container port'),
      }),
      annotations: strMap('Service annotations'),
    }),
    serviceAccount: group('ServiceAccount of the controller', {
      create: bool(true, 'Create it; false uses an existing account', B()),
      name: str('', 'Account name; empty uses <fullname>-controller', B()),
      annotations: strMap('Account annotations (for cloud workload identity)'),
    }),
    annotations: strMap('Deployment annotations'),
    podAnnotations: strMap('Pod annotations'),
    podLabels: strMap('Pod labels, merged over the top-level podLabels'),
    imagePullSecrets: leaf('list', PULL_SECRETS, [], 'Pull secrets of the controller pod; non-empty replaces the top-level imagePullSecrets'),
    podSecurityContext: k8sObj(K8S.podSecurityContext, {}, 'Pod security context; empty uses the top-level one'),
    securityContext: k8sObj(K8S.securityContext, {}, 'Container security context; empty uses the top-level one'),
    affinity: k8sObj(K8S.affinity, {}, 'Pod affinity'),
    nodeSelector: strMap('Node selector'),
    tolerations: k8sList(K8S.toleration, 'Tolerations'),
    topologySpreadConstraints: k8sList(K8S.topologySpread, 'Topology spread constraints'),
    readinessProbe: probe(healthProbe(30), 'Readiness probe; a value replaces the default entirely'),
    startupProbe: probe(healthProbe(15, 15), 'Startup probe; a value replaces the default entirely'),
    substrate: group('Sandbox substrate integration', {
      enabled: bool(false, 'Use the substrate for sandboxes'),
      substrateApiEndpoint: str('', 'Substrate API endpoint'),
      substrateRouterURL: str('', 'Substrate router URL'),
      substrateApiInsecure: bool(false, 'Skip TLS verification toward the substrate API', A()),
      substrateApiServer: group('The substrate API server that reviews controller tokens', {
        namespace: str('substrate-system', 'Its namespace'),
        serviceAccount: str('substrate-api-server', 'Its ServiceAccount'),
      }, A()),
      substrateApiTokenAudience: str('substrate-api', 'Audience of the projected token', A()),
      substrateApiTokenExpirationSeconds: int(3600, 'Lifetime of the projected token (Kubernetes minimum 600)', 600, undefined, A()),
      substrateApiTokenFile: str('/var/run/secrets/substrate/token', 'Path of the projected token', A()),
      defaultWorkerPool: group('Worker pool used when an agent names none', {
        name: str('', 'Pool name'),
        namespace: str('', 'Pool namespace'),
      }, A()),
      pauseImage: str('', 'Pause image of sandbox pods (SUBSTRATE_PAUSE_IMAGE); empty keeps the substrate default', A()),
    }),
    metrics: group('Controller metrics', {
      enabled: bool(false, 'Serve /metrics with its Service and RBAC'),
      bindAddress: leaf('string', S.stringPattern(BIND_ADDRESS_PATTERN), ':8443', 'Listen address ([host]:port); the Service port derives from it; "0" or "" disables metrics'),
      secureServing: bool(true, 'Serve HTTPS and require authorized scrapes'),
      service: group('Metrics Service', {
        type: strEnum(SERVICE_TYPES, 'ClusterIP', 'Service type'),
        port: port(8443, 'Service port'),
      }),
      serviceMonitor: group('ServiceMonitor for the monitoring operator (rendered only when its API is served)', {
        enabled: bool(false, 'Render the ServiceMonitor (needs metrics enabled)'),
        annotations: strMap('ServiceMonitor annotations'),
        labels: strMap("ServiceMonitor labels (match your scraper's selector)"),
        namespace: str('', 'Namespace of the object; empty uses the release namespace'),
        interval: dur('', 'Scrape interval; empty keeps the scraper default'),
        scrapeTimeout: dur('', 'Scrape timeout; empty keeps the scraper default'),
        honorLabels: bool(false, 'Keep target labels on conflict'),
        metricRelabelings: leaf('list', S.objectList(), [], 'Relabelings applied to samples'),
        relabelings: leaf('list', S.objectList(), [], 'Relabelings applied to targets'),
        bearerTokenFile: str('/var/run/secrets/kubernetes.io/serviceaccount/token', 'Token the scraper presents (secure serving)'),
        tlsConfig: leaf('object', S.openObject(), { insecureSkipVerify: true }, 'TLS settings of the scrape (secure serving)'),
        scraperServiceAccount: group('Scraper account bound to <fullname>-metrics-reader', {
          name: str('', 'Account name; set it to create the binding'),
          namespace: str('', 'Account namespace; empty uses the ServiceMonitor namespace'),
        }),
      }, B()),
    }, { banner: 'Controller metrics' }),
    pdb: pdb('controller'),
  }, { banner: 'Controller' }),

  ui: group('The web UI', {
    replicas: int(1, 'Number of UI pods', 0),
    image: image('UI', 'agentplat/ui', ['pullPolicy'], {}, 'top-level'),
    service: group('UI Service', {
      type: strEnum(SERVICE_TYPES, 'ClusterIP', 'Service type'),
      ports: group('Service ports', {
        port: port(8080, 'Service port'),
        targetPort: port(8080, 'Container port'),
      }),
      annotations: strMap('Service annotations'),
    }),
    resources: resources('UI container resources', {
      cpu: qty('1000m', 'CPU limit'),
      memory: qty('1Gi', 'Memory limit'),
    }, {
      cpu: qty('100m', 'CPU request'),
      memory: qty('256Mi', 'Memory request'),
    }),
    publicBackendUrl: str('/api', 'Controller API base URL as the browser sees it'),
    backendInternalUrl: str('', 'Controller URL the UI server uses; empty computes it', A()),
    basePath: str('', 'Path prefix a reverse proxy strips, such as /ui', B()),
    externalUrl: str('', 'Public UI URL; agents then return full share links'),
    auth: group('UI sign-in', {
      ssoRedirectPath: str('/oauth2/start', 'Where the UI sends users to sign in'),
    }),
    additionalForwardedHeaders: leaf('list', S.stringList(HEADER_NAME_PATTERN), [], 'Extra request headers the UI proxy forwards to the controller'),
    env: split('Extra UI environment',
      leaf('object', S.stringMap(), {}, 'Extra UI environment variables (name: value)'),
      k8sList(K8S.envVar, 'Extra UI environment variables, applied after the ConfigMap defaults')),
    edge: group('UI reverse proxy', {
      proxyReadTimeout: leaf('duration', S.stringPattern(NGINX_TIME_PATTERN), '1800s', 'Longest wait between two reads from the controller'),
      proxySendTimeout: leaf('duration', S.stringPattern(NGINX_TIME_PATTERN), '1800s', 'Longest wait between two writes to the controller'),
    }),
    streamTimeoutSeconds: int(1800, 'Browser gives up on a silent chat stream after this; keep >= proxyReadTimeout', 1),
    route: group('Platform Route (route.openshift.io/v1)', {
      enabled: bool(true, 'Render the Route when the cluster serves its API'),
    }),
    altRoute: group('Route tuning', {
      annotations: leaf('object', S.stringMap(), { 'haproxy.router.openshift.io/timeout': '120m' }, 'Route annotations; the router timeout lives here'),
    }),
    httpRoute: group('Gateway API HTTPRoute', {
      enabled: bool(false, 'Render the HTTPRoute (needs Gateway API CRDs and a Gateway)'),
      annotations: strMap('HTTPRoute annotations'),
      hostnames: leaf('list', S.stringList(), [], 'Host names'),
      labels: strMap('HTTPRoute labels, merged with chart labels'),
      parentRefs: leaf('list', S.objectList(), [], 'Gateways to attach to (required when enabled)'),
      rules: leaf('list', S.objectList(), [], 'Rules; a rule without backendRefs targets the UI Service'),
    }),
    volumes: group('Sizes of the UI scratch volumes', {
      tmp: qty('50Mi', 'Size limit of /tmp'),
      nextjsCache: qty('100Mi', 'Size limit of the UI build cache', A()),
    }),
    serviceAccount: group('ServiceAccount of the UI', {
      annotations: strMap('Account annotations'),
    }),
    annotations: strMap('Deployment annotations'),
    podAnnotations: strMap('Pod annotations'),
    podLabels: strMap('Pod labels, merged over the top-level podLabels'),
    podSecurityContext: k8sObj(K8S.podSecurityContext, {}, 'Pod security context; empty uses the top-level one'),
    securityContext: k8sObj(K8S.securityContext, {}, 'Container security context; empty uses the top-level one'),
    affinity: k8sObj(K8S.affinity, {}, 'Pod affinity'),
    nodeSelector: strMap('Node selector'),
    tolerations: k8sList(K8S.toleration, 'Tolerations'),
    topologySpreadConstraints: k8sList(K8S.topologySpread, 'Topology spread constraints'),
    readinessProbe: probe(healthProbe(30), 'Readiness probe; a value replaces the default entirely'),
    startupProbe: probe(healthProbe(1, 1), 'Startup probe; a value replaces the default entirely'),
    pdb: pdb('UI'),
  }, { banner: 'UI' }),

  database: group('Database', {
    rdb: group('Relational database', {
      url: str('', 'External connection string; used whenever set', { secret: true }),
      urlFile: str('', 'File holding the connection string; wins over url'),
      bundled: group('Bundled database (evaluation only; used when url and urlFile are empty)', {
        enabled: bool(true, 'Deploy the bundled database'),
        image: group('Bundled database image', {
          registry: str('docker.io', 'Registry host; global.imageRegistry (revision B), when set, replaces it'),
          repository: str('library', 'Organisation path'),
          name: str('postgres', 'Image name'),
          tag: str('18.3-alpine', 'Image tag'),
          pullPolicy: leaf('string', new ByRevision(S.stringEnum(PULL_POLICIES), S.stringEnum(['', ...PULL_POLICIES])), new ByRevision('IfNotPresent', ''),
            'Pull policy (revision B: empty falls back to imagePullPolicy, then global)'),
        }),
        podSecurityContext: k8sObj(K8S.podSecurityContext,
          { fsGroup: 999, runAsGroup: 999, runAsNonRoot: true, runAsUser: 999, seccompProfile: { type: 'RuntimeDefault' } }, 'Pod security context'),
        securityContext: k8sObj(K8S.securityContext, { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } }, 'Container security context'),
        resources: k8sObj(K8S.resources, { limits: { cpu: '500m', memory: '512Mi' }, requests: { cpu: '250m', memory: '256Mi' } }, 'Container resources'),
        storage: qty('500Mi', 'Size of the volume claim'),
        storageClassName: str('', 'Storage class; empty uses the cluster default'),
        affinity: k8sObj(K8S.affinity, {}, 'Pod affinity', B()),
        nodeSelector: strMap('Node selector', B()),
        podLabels: strMap('Pod labels', B()),
        tolerations: k8sList(K8S.toleration, 'Tolerations', B()),
      }),
      pool: group('Connection pool; unset keeps the library defaults', {
        maxConns: leaf('int', S.nullableInt(1), null, 'Most open connections; null keeps max(4, CPUs)'),
        minConns: leaf('int', S.nullableInt(0), null, 'Fewest open connections; null keeps 0'),
        maxConnIdleTime: dur('', 'Close idle connections after this; empty keeps 30m'),
        maxConnLifetime: dur('', 'Recycle connections after this; empty keeps 1h'),
      }),
      skipMigrations: bool(false, 'Only check that the schema is migrated; apply migrations yourself'),
      vectorEnabled: bool(false, 'Enable the vector extension (long-term memory)'),
      sessionRetentionDays: int(0, 'Delete sessions idle this many days; 0 keeps them', 0, undefined, A()),
    }),
  }, { banner: 'Database' }),

  providers: group('Model providers; one block generates the default ModelConfig', {
    default: leaf('string', S.stringPattern('^provider[A-J]$'), 'providerB', 'Block that generates the default ModelConfig'),
    annotations: strMap('Annotations on the default ModelConfig'),
    providerB: providerBlock('B', 'Hosted chat provider'),
    providerA: providerBlock('A', 'Hosted message-API provider'),
    providerC: providerBlock('C', 'Cloud-hosted variant of the chat provider', {
      apiVersion: crdField('string', '2023-05-15', 'API version'),
      azureAdToken: crdField('string', '', 'Directory token instead of an API key', { secret: true }),
      azureDeployment: crdField('string', '', 'Deployment name'),
      azureEndpoint: crdField('string', '', 'Endpoint URL'),
    }),
    providerE: providerBlock('E', 'API-key hosted model provider'),
    providerD: providerBlock('D', 'Local open-model runtime', {
      host: crdField('string', 'host.docker.internal:11434', 'Runtime host and port'),
      options: group('Runtime options', { num_ctx: crdField('string', '64000', 'Context window in tokens') }, { open: true }),
    }),
    providerH: providerBlock('H', 'Cloud-managed model service', { region: crdField('string', '', 'Cloud region') }, B()),
  }, { banner: 'Model providers' }),

  authproxy: group('OIDC authentication proxy in front of the UI (the OAuth2 proxy chart 10.7.x)', {
    enabled: bool(false, 'Deploy the proxy'),
    ...subchartNames(),
    namespaceOverride: str('', 'Namespace of every proxy object; empty uses the chart namespace'),
    config: group('OIDC client settings and the legacy config file', {
      clientID: str('', 'OIDC client id'),
      clientSecret: str('', 'OIDC client secret', { secret: true }),
      cookieSecret: str('', 'Secret that signs session cookies', { secret: true }),
      existingSecret: str('', 'Existing Secret holding the three values above'),
      cookieName: str('', 'Name of the session cookie (--cookie-name); empty keeps the proxy default'),
      emailDomains: leaf('list', S.stringList(), ['*'], 'email_domains line of the config file'),
      upstreams: leaf('list', S.stringList(), ['file:///dev/null'], 'upstreams line of the config file (dropped with alphaConfig)'),
      configFile: str('', 'Whole content of the config file; replaces the two generated lines'),
      existingConfig: nullableStr('Existing ConfigMap mounted as the config file; the chart renders none'),
      forceLegacyConfig: bool(true, 'Render, mount and pass (--config) the legacy config file'),
      annotations: strMap('Annotations of the proxy Secret and config ConfigMap'),
      requiredSecretKeys: leaf('list', { type: 'array', items: S.stringEnum(['client-id', 'client-secret', 'cookie-secret']) }, ['client-id', 'client-secret', 'cookie-secret'],
        'Which credentials (client-id, client-secret, cookie-secret) the proxy reads from the Secret'),
      google: group('Google provider settings (group lookups through a service account)', {
        adminEmail: str('', 'Administrator e-mail the service account impersonates (--google-admin-email)', { optional: true }),
        serviceAccountJson: str('', 'Service account JSON; the chart renders it into a Secret', { optional: true, secret: true }),
        existingSecret: str('', 'Existing Secret with the service account JSON (key service-account.json)', { optional: true }),
        useApplicationDefaultCredentials: bool(false, 'Use the application default credentials instead of a JSON key', { optional: true }),
        targetPrincipal: str('', 'Service account to impersonate (--google-target-principal)', { optional: true }),
        groups: leaf('list', S.stringList(), [], 'Allowed Google groups (one --google-group each)', { optional: true }),
      }, { optional: true }),
    }),
    proxyVarsAsSecrets: bool(true, 'Render the credentials Secret and pass its values as environment variables'),
    alphaConfig: group('Structured (alpha) configuration, a YAML file the proxy reads with --alpha-config', {
      enabled: bool(false, 'Render and pass the alpha configuration'),
      annotations: strMap('Annotations of the generated Secret'),
      serverConfigData: leaf('object', S.openObject(), {}, 'Added under server, after its bind address'),
      metricsConfigData: leaf('object', S.openObject(), {}, 'Added under metricsServer (with metrics.enabled)'),
      configData: leaf('object', S.openObject(), {}, 'Added at the top level'),
      configFile: str('', 'YAML appended as written (may use the release context)'),
      existingConfig: nullableStr('Existing ConfigMap with the alpha configuration (key oauth2_proxy.yml)'),
      existingSecret: nullableStr('Existing Secret with the alpha configuration (key oauth2_proxy.yml)'),
    }),
    authenticatedEmailsFile: group('Allow-list of e-mail addresses', {
      enabled: bool(false, 'Restrict sign-in to the listed addresses'),
      persistence: strEnum(['configmap', 'secret'], 'configmap', 'Kind of object holding the list'),
      template: str('', 'Name of an existing ConfigMap or Secret with the list; empty renders one'),
      restrictedUserAccessKey: str('', 'Key of the list inside that object; empty uses restricted_user_access'),
      restricted_access: str('', 'The allowed addresses, one per line'),
      annotations: strMap('Annotations of the list object'),
    }),
    htpasswdFile: group('Basic-auth users (htpasswd file)', {
      enabled: bool(false, 'Mount an htpasswd file and pass --htpasswd-file'),
      existingSecret: str('', 'Existing Secret with the file (key users.txt); empty renders one'),
      entries: leaf('list', S.stringList(), [], 'htpasswd lines (user:bcrypt hash; never a clear-text password)'),
    }),
    checkDeprecation: bool(true, 'Refuse removed keys (service.port); false ignores them'),
    replicaCount: int(1, 'Number of proxy pods', 0),
    revisionHistoryLimit: int(10, 'Old ReplicaSets kept', 0),
    strategy: leaf('object', S.openObject(), {}, 'Deployment strategy; empty keeps the platform default'),
    image: group('Proxy image; empty parts use the upstream image', {
      registry: str('', 'Registry host; empty uses quay.io (revision B: global.imageRegistry wins)'),
      repository: str(AUTHPROXY_REPOSITORY, 'Repository path inside the registry'),
      tag: str('', `Image tag; empty uses v${AUTHPROXY_APP_VERSION}`),
      pullPolicy: pullPolicy('', 'Pull policy; empty uses the chart-wide one (IfNotPresent)'),
      command: leaf('list', S.stringList(), [], 'Container command; empty keeps the image entrypoint'),
    }),
    imagePullSecrets: leaf('list', PULL_SECRETS, [], 'Pull secrets of the proxy pod, ahead of the chart-wide ones'),
    resources: k8sObj(K8S.resources, {}, 'Container resources'),
    resizePolicy: k8sList(K8S.resizePolicy, 'Container resize policy'),
    nodeSelector: strMap('Node selector; empty uses the top-level one'),
    tolerations: k8sList(K8S.toleration, 'Tolerations; empty uses the top-level ones'),
    affinity: k8sObj(K8S.affinity, {}, 'Pod affinity', { optional: true }),
    topologySpreadConstraints: k8sList(K8S.topologySpread, 'Pod topology spread constraints', { optional: true }),
    priorityClassName: str('', 'Priority class of the pods'),
    hostAliases: k8sList(K8S.hostAlias, 'Extra /etc/hosts entries of the pods'),
    terminationGracePeriodSeconds: leaf('int', S.int(0), null, 'Seconds a pod gets to stop', { optional: true }),
    lifecycle: k8sObj(K8S.lifecycle, {}, 'Container lifecycle hooks', { optional: true }),
    enableServiceLinks: bool(true, 'Service environment variables in the pod'),
    podSecurityContext: k8sObj(K8S.podSecurityContext, {}, 'Pod security context; empty uses the top-level one'),
    securityContext: group('Container security context: these fields over the proxy baseline (non-root, user and group 2000, seccomp RuntimeDefault) and the top-level securityContext', {
      enabled: bool(true, 'false renders no container security context'),
      ...securityContextFields({ optional: true }),
    }),
    livenessProbe: group('Liveness probe (GET /ping)', {
      enabled: bool(true, 'Probe liveness'),
      initialDelaySeconds: int(0, 'Delay before the first probe', 0),
      timeoutSeconds: int(1, 'Probe timeout', 1),
    }),
    readinessProbe: group('Readiness probe (GET /ready)', {
      enabled: bool(true, 'Probe readiness'),
      initialDelaySeconds: int(0, 'Delay before the first probe', 0),
      timeoutSeconds: int(5, 'Probe timeout', 1),
      periodSeconds: int(10, 'Seconds between probes', 1),
      successThreshold: int(1, 'Successes that make the pod ready', 1),
    }),
    envFrom: k8sList(K8S.envFrom, 'Container environment sources'),
    extraContainers: k8sList(K8S.container, 'Extra containers of the pod'),
    extraInitContainers: k8sList(K8S.container, 'Init containers of the pod'),
    containerPort: port(4180, 'Port the proxy listens on for HTTP (container port http)', { optional: true }),
    httpScheme: strEnum(['http', 'https'], 'http', 'https: the proxy serves TLS on port 4443 (container and Service port https)'),
    podAnnotations: strMap('Pod annotations (after the chart-wide ones)'),
    podLabels: strMap('Pod labels; selector labels always win'),
    deploymentAnnotations: strMap('Deployment annotations'),
    deploymentLabels: strMap('Deployment labels'),
    customLabels: strMap('Labels on every proxy object'),
    commonLabels: strMap('Labels of the NetworkPolicy', { optional: true }),
    commonAnnotations: strMap('Annotations of the NetworkPolicy', { optional: true }),
    kubeVersion: nullableStr('Cluster version the proxy objects are written for; null uses the render\'s'),
    extraObjects: leaf('list', { type: 'array', items: { anyOf: [{ type: 'object' }, { type: 'string' }] } }, [],
      'Extra manifests rendered with the proxy (maps or YAML strings, with the release context)'),
    extraArgs: group('Proxy command-line flags (--key=value); other flags may be added', {
      provider: str('oidc', 'Identity provider type'),
      scope: str('openid profile email groups', 'Requested scopes'),
      'approval-prompt': str('auto', 'Consent prompt behaviour'),
      'cookie-samesite': str('lax', 'SameSite of the session cookie'),
      'cookie-secure': bool(true, 'Send the cookie over HTTPS only'),
      'custom-templates-dir': str('/templates', 'Directory of the sign-in templates'),
      'email-domain': str('*', 'Allowed e-mail domains'),
      'oidc-issuer-url': str('$(OIDC_ISSUER_URL)', 'Issuer URL (from the environment)'),
      'redirect-url': str('$(OIDC_REDIRECT_URL)', 'Redirect URL (from the environment)'),
      upstream: str('$(UPSTREAM_URL)', 'Upstream (from the environment)'),
      'pass-authorization-header': bool(true, 'Pass the Authorization header upstream'),
      'set-authorization-header': bool(true, 'Set the Authorization header on responses'),
      'skip-jwt-bearer-tokens': bool(true, 'Accept bearer JWTs directly'),
      'skip-auth-route': str('^/(health|login)$', 'Paths served without sign-in'),
      'skip-auth-regex': str(new ByRevision(skipAuthRegex('_next/static/|_next/image'), skipAuthRegex('assets/')),
        'Paths served without sign-in: the login page and its images, static assets, the favicon and the harness gateways'),
    }, { open: { anyOf: [{ type: 'string' }, { type: 'boolean' }, { type: 'number' }, { type: 'null' }] } }),
    extraEnv: leaf('list', S.k8sList(K8S.envVar), [
      { name: 'SIGNIN_TEMPLATE_CHECKSUM', value: '{{ include "agentplat.authproxy.signInChecksum" . }}' },
      { name: 'OIDC_ISSUER_URL', value: '' },
      { name: 'OIDC_REDIRECT_URL', value: '' },
      { name: 'UPSTREAM_URL', value: 'http://{{ include "agentplat.fullname" . }}-ui.{{ include "agentplat.namespace" . }}.svc:{{ .Values.ui.service.ports.port }}' },
    ], 'Proxy environment; values may use the release context'),
    extraVolumes: leaf('list', S.k8sList(K8S.volume), [
      { name: 'custom-templates', configMap: { name: '{{ include "agentplat.fullname" . }}-authproxy-templates' } },
    ], 'Proxy volumes (the sign-in templates)'),
    extraVolumeMounts: leaf('list', S.k8sList(K8S.volumeMount), [
      { name: 'custom-templates', mountPath: '/templates', readOnly: true },
    ], 'Proxy mounts'),
    service: group('Proxy Service', {
      type: strEnum(SERVICE_TYPES, 'ClusterIP', 'Service type'),
      portNumber: port(4180, 'Service port'),
      port: leaf('int', S.port(), null, 'Removed: use service.portNumber', { optional: true }),
      annotations: strMap('Service annotations'),
      appProtocol: str('http', 'appProtocol of the http port'),
      targetPort: leaf('int-or-string', { anyOf: [{ type: 'string' }, S.port()] }, '', 'Target of the http port; empty follows httpScheme'),
      clusterIP: str('', 'Fixed cluster IP (type ClusterIP)', { optional: true }),
      loadBalancerIP: str('', 'Requested load balancer IP (type LoadBalancer)', { optional: true }),
      loadBalancerSourceRanges: leaf('list', S.stringList(), [], 'Client ranges allowed (type LoadBalancer)', { optional: true }),
      nodePort: port(30080, 'Node port of the http port (type NodePort)', { optional: true }),
      externalTrafficPolicy: strEnum(['', 'Cluster', 'Local'], '', 'externalTrafficPolicy; empty omits it'),
      internalTrafficPolicy: strEnum(['', 'Cluster', 'Local'], '', 'internalTrafficPolicy; empty omits it'),
      trafficDistribution: str('', 'trafficDistribution; empty omits it'),
      ipDualStack: group('Dual-stack addressing', {
        enabled: bool(false, 'Set ipFamilies and ipFamilyPolicy'),
        ipFamilies: leaf('list', { type: 'array', items: S.stringEnum(['IPv4', 'IPv6']) }, ['IPv6', 'IPv4'], 'Address families, preferred first'),
        ipFamilyPolicy: strEnum(['SingleStack', 'PreferDualStack', 'RequireDualStack'], 'PreferDualStack', 'Family policy'),
      }),
    }),
    serviceAccount: group('ServiceAccount of the proxy', {
      enabled: bool(true, 'Render the ServiceAccount; false runs the pod as default (or name)'),
      name: nullableStr('Name; null uses the proxy full name'),
      annotations: strMap('ServiceAccount annotations'),
      imagePullSecrets: leaf('list', PULL_SECRETS, [], 'imagePullSecrets of the ServiceAccount'),
      automountServiceAccountToken: bool(true, 'Mount the API token (ServiceAccount and pod)'),
    }),
    ingress: group('Ingress to the proxy Service', {
      enabled: bool(false, 'Render the Ingress (networking.k8s.io/v1)'),
      path: str('/', 'Path of the proxy'),
      pathType: strEnum(['Exact', 'Prefix', 'ImplementationSpecific'], 'ImplementationSpecific', 'Path type'),
      labels: strMap('Ingress labels'),
      hosts: leaf('list', S.stringList(), [], 'Host names, one rule each', { optional: true }),
      className: str('', 'ingressClassName', { optional: true }),
      tls: leaf('list', S.objectList(), [], 'TLS entries (hosts, secretName)', { optional: true }),
      extraPaths: leaf('list', S.objectList(), [], 'Path entries placed before the proxy path', { optional: true }),
      annotations: strMap('Ingress annotations', { optional: true }),
    }),
    gatewayApi: group('HTTPRoute to the proxy Service (Gateway API)', {
      enabled: bool(false, 'Render the HTTPRoute (gateway.networking.k8s.io/v1)'),
      gatewayRef: leaf('object', S.openObject(), {}, 'The Gateway (parentRefs entry: name, namespace, sectionName)'),
      hostnames: leaf('list', S.stringList(), [], 'Route hostnames'),
      rules: leaf('list', S.objectList(), [], 'Route rules; matches default to prefix /, backendRefs to the proxy; empty gives one such rule'),
      labels: strMap('Route labels'),
      annotations: strMap('Route annotations'),
    }),
    networkPolicy: group('NetworkPolicy of the proxy pods', {
      create: bool(false, 'Render the NetworkPolicy'),
      ingress: leaf('list', S.objectList(), [], 'Ingress rules (may use the release context); non-empty adds the Ingress policy type'),
      egress: leaf('list', S.objectList(), [], 'Egress rules (may use the release context); non-empty adds the Egress policy type'),
    }),
    podDisruptionBudget: group('PodDisruptionBudget (rendered only with more than one replica)', {
      enabled: bool(true, 'Render the budget when there is more than one replica'),
      minAvailable: leaf('int-or-string', S.intOrPercent(true), 1, 'Pods that must stay up'),
      maxUnavailable: leaf('int-or-string', S.intOrPercent(true), null, 'Pods that may be down at once'),
      unhealthyPodEvictionPolicy: strEnum(['', 'IfHealthyBudget', 'AlwaysAllow'], '', 'Eviction of unhealthy pods; empty omits it'),
    }),
    autoscaling: group('HorizontalPodAutoscaler of the proxy', {
      enabled: bool(false, 'Render the autoscaler; the Deployment then sets no replicas'),
      minReplicas: int(1, 'Fewest pods', 1),
      maxReplicas: int(10, 'Most pods', 1),
      targetCPUUtilizationPercentage: leaf('int', S.nullableInt(1), 80, 'CPU utilisation target (percent); null drops it'),
      targetMemoryUtilizationPercentage: leaf('int', S.nullableInt(1), null, 'Memory utilisation target (percent)', { optional: true }),
      behavior: leaf('object', S.openObject(), {}, 'Scaling behaviour'),
      annotations: strMap('Autoscaler annotations'),
    }),
    metrics: group('Metrics endpoint', {
      enabled: bool(true, 'Serve metrics (--metrics-address, container and Service port metrics)'),
      port: port(44180, 'Metrics port'),
      nodePort: port(30081, 'Node port of the metrics port (type NodePort)', { optional: true }),
      service: group('Metrics Service port', { appProtocol: str('http', 'appProtocol of the metrics port') }),
      serviceMonitor: group('ServiceMonitor (needs the monitoring.coreos.com/v1 API declared)', {
        enabled: bool(false, 'Render the ServiceMonitor'),
        namespace: str('', 'Namespace of the ServiceMonitor; empty uses the proxy namespace'),
        prometheusInstance: str('default', 'Value of its prometheus label'),
        interval: dur('60s', 'Scrape interval'),
        scrapeTimeout: dur('30s', 'Scrape timeout'),
        labels: strMap('Extra labels'),
        annotations: strMap('Annotations'),
        scheme: strEnum(['', 'http', 'https'], '', 'Endpoint scheme; empty omits it'),
        tlsConfig: leaf('object', S.openObject(), {}, 'Endpoint tlsConfig'),
        bearerTokenFile: str('', 'Endpoint bearerTokenFile'),
        metricRelabelings: leaf('list', S.objectList(), [], 'Endpoint metricRelabelings'),
        relabelings: leaf('list', S.objectList(), [], 'Endpoint relabelings'),
      }),
    }),
    sessionStorage: group('Where sessions live', {
      type: strEnum(['cookie', 'redis'], 'cookie', 'Session store: cookie, or an external redis (sessionStorage.redis)'),
      redis: group('External redis session store', {
        clientType: strEnum(['standalone', 'cluster', 'sentinel'], 'standalone', 'How the proxy reaches redis'),
        password: str('', 'Redis password; the chart renders it into a Secret', { secret: true }),
        existingSecret: str('', 'Existing Secret with the redis password'),
        passwordKey: str('redis-password', 'Key of the password in that Secret'),
        standalone: group('Standalone redis', { connectionUrl: str('', 'redis:// URL') }),
        cluster: group('Redis cluster', { connectionUrls: leaf('list', S.stringList(), [], 'redis:// URLs of the cluster nodes') }),
        sentinel: group('Redis sentinel', {
          existingSecret: str('', 'Existing Secret with the sentinel password'),
          password: str('', 'Sentinel password; the chart renders it into a Secret', { secret: true }),
          passwordKey: str('redis-sentinel-password', 'Key of the sentinel password in that Secret'),
          masterName: str('', 'Name of the sentinel master'),
          connectionUrls: leaf('list', S.stringList(), [], 'redis:// URLs of the sentinels'),
        }),
      }),
    }),
  }, { banner: 'Authentication proxy' }),

  otel: group('Telemetry export', {
    logging: group('Log export', {
      enabled: bool(false, 'Export logs'),
      exporter: group('Exporter', { otlp: group('OTLP exporter', {
        endpoint: str('', 'OTLP endpoint'),
        insecure: bool(true, 'Plain connection without TLS'),
        timeout: int(15000, 'Export timeout in milliseconds', 0),
      }) }),
    }, A()),
    tracing: group('Trace export', {
      enabled: bool(false, 'Export traces'),
      exporter: group('Exporter', { otlp: group('OTLP exporter', {
        endpoint: str('', 'OTLP endpoint'),
        insecure: bool(true, 'Plain connection without TLS'),
        timeout: int(15000, 'Export timeout in milliseconds', 0),
        protocol: strEnum(['grpc', 'http/protobuf'], 'grpc', 'OTLP protocol'),
      }) }),
    }, A()),
    exporter: group('Exporter shared by every signal', { otlp: group('OTLP exporter', {
      endpoint: leaf('string', S.stringPattern(HTTP_URL_OR_EMPTY), '', 'OTLP endpoint (http or https URL)'),
      protocol: strEnum(['grpc', 'http/protobuf'], 'grpc', 'OTLP protocol'),
      timeout: leaf('string', S.stringPattern('^[0-9]*$'), '', 'Timeout in milliseconds; empty keeps the SDK default'),
    }) }, B()),
    ...Object.fromEntries((['logs', 'metrics', 'traces'] as const).map((signal) => [signal, group(`Export of ${signal}`, {
      enabled: bool(false, `Export ${signal}`),
      endpoint: leaf('string', S.stringPattern(HTTP_URL_OR_EMPTY), '', 'Full URL overriding the shared endpoint'),
      protocol: strEnum(['', 'grpc', 'http/protobuf'], '', 'Protocol; empty uses the shared one'),
    }, B())])),
    resourceAttributes: strMap('Resource attributes of the controller and every agent', B()),
    capture: group('What agent telemetry records', {
      maxBytes: leaf('string', S.stringPattern('^[0-9]*$'), '', 'Bytes kept per captured prompt or response; empty keeps the default'),
      messageContent: bool(false, 'Record prompts, tool details and responses (may expose sensitive data)'),
      rawApiBodies: bool(false, 'Log complete provider request and response bodies'),
    }, B()),
  }, { banner: 'Telemetry' }),

  'agentplat-tools': toolsSubchart,
  mcpop: mcpopSubchart,
  'dashboards-mcp': dashboardsMcpSubchart,
  substrate: group('Sandbox substrate sub-chart', {
    enabled: bool(false, 'Install the substrate'),
    ...subchartNames(),
    ateApi: group('Substrate API server', {
      extraArgs: leaf('list', S.stringList(), ['--template-resync-interval=250ms'], 'Extra arguments of the API server'),
    }, B()),
    credentialProvider: group('Credential provider', {
      namespacePolicies: leaf('list', S.objectList(), [], 'Per-namespace credential policies'),
    }, B()),
  }),
  substrateWorkerPool: group('Worker pool installed by the chart (platform capacity)', {
    create: bool(false, 'Create the pool'),
    name: str('agentplat-default', 'Pool name'),
    replicas: int(1, 'Number of workers', 0),
    sandboxClass: str('gvisor', 'Runtime class of the sandboxes'),
    labels: strMap('Pool labels'),
    template: leaf('object', S.openObject(), {}, 'Worker pod template overrides'),
    ateomImage: str('', 'Worker image; empty uses the substrate default', A()),
    workerImage: str('', 'Worker image; empty uses the substrate default', B()),
  }),
  ...Object.fromEntries(AGENT_AREAS.map((area, i) => [`${area}-agent`, bundledAgent(area, i === 0)])),
}, {});

// ---- queries ---------------------------------------------------------------------------

/** The node shape in one revision (a split resolved), or undefined when the key is not in it. */
export function inRevision(node: Node, rev: Revision): Exclude<Node, { kind: 'split' }> | undefined {
  const n = node.kind === 'split' ? node[rev] : node;
  if (n.kind === 'split') return inRevision(n, rev);
  if (node.only && node.only !== rev) return undefined;
  if (n.only && n.only !== rev) return undefined;
  return n;
}

export function pick<T>(v: T | ByRevision<T>, rev: Revision): T {
  return v instanceof ByRevision ? v[rev] : v;
}

export interface KeyInfo {
  path: string;
  node: Leaf | Group;
}

/** Every key (groups and leaves) of a revision, parents first, in model order. */
export function walkKeys(rev: Revision, root: Group = VALUES_MODEL): KeyInfo[] {
  const out: KeyInfo[] = [];
  const visit = (g: Group, prefix: string) => {
    for (const [key, child] of Object.entries(g.children)) {
      const n = inRevision(child, rev);
      if (!n) continue;
      const path = prefix ? `${prefix}.${key}` : key;
      out.push({ path, node: n });
      if (n.kind === 'group') visit(n, path);
    }
  };
  visit(root, '');
  return out;
}

/** The defaults of a revision, as written to values/revision-<x>.yaml. */
export function defaultsOf(rev: Revision, g: Group = VALUES_MODEL): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(g.children)) {
    const n = inRevision(child, rev);
    if (!n || n.optional) continue;
    out[key] = n.kind === 'group' ? defaultsOf(rev, n) : structuredClone(pick(n.default, rev));
  }
  return out;
}

/**
 * The keys of a revision that the defaults leave unset (optional keys, and every key below an
 * optional group), with the groups on the way to them. The chart declares them, as a sub-chart's
 * own values file holds its conventional keys: a user's null there removes the key, as a null over
 * a default does (values/merge.ts). The build writes it to dist/generated/defaults-unset.json.
 */
export function unsetKeysOf(rev: Revision, g: Group = VALUES_MODEL, below = false): KeyTree {
  const out: KeyTree = {};
  for (const [key, child] of Object.entries(g.children)) {
    const n = inRevision(child, rev);
    if (!n) continue;
    const unset = below || n.optional === true;
    const sub = n.kind === 'group' ? unsetKeysOf(rev, n, unset) : {};
    if (unset || Object.keys(sub).length > 0) out[key] = sub;
  }
  return out;
}

function build(rev: Revision): string[] {
  return walkKeys(rev).filter((k) => k.node.kind === 'leaf').map((k) => k.path);
}

/** Dotted leaf paths of each revision (optional keys included), for docs and "did you mean". */
export const VALUES_KEYS: Record<Revision, string[]> = { A: build('A'), B: build('B') };

export interface KeyDescription {
  type: string;
  /** Undefined for optional keys the defaults leave unset. */
  default: unknown;
  description: string;
  secret: boolean;
}

/** Type, default and meaning of a key (leaf or group) in a revision; undefined when unknown. */
export function describeKey(rev: Revision, path: string): KeyDescription | undefined {
  let node: Node | undefined = VALUES_MODEL;
  for (const seg of path.split('.')) {
    const g: Node | undefined = node && inRevision(node, rev);
    if (!g || g.kind !== 'group') return undefined;
    node = Object.hasOwn(g.children, seg) ? g.children[seg] : undefined;
  }
  const n = node && inRevision(node, rev);
  if (!n) return undefined;
  if (n.kind === 'group') {
    return { type: 'object', default: n.optional ? undefined : defaultsOf(rev, n), description: n.doc, secret: false };
  }
  return { type: n.type, default: n.optional ? undefined : pick(n.default, rev), description: n.doc, secret: n.secret === true };
}
