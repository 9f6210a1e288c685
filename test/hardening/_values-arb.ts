// Values generated from a revision's JSON schema (schemas/values-<rev>.schema.json): every key
// of the schema can appear, each with a random legal value for its node — enum members,
// strings matching the node's pattern, integers within minimum/maximum, booleans that switch
// components on and off, small maps and lists — and the Kubernetes pass-through objects
// (tolerations, affinity, probes, volumes, env …) as small legal shapes of their kind.
//
// Sparse on purpose: each optional key appears with a small probability (switches more often),
// so a fair share of the cases passes lint and renders, while over many runs every key appears.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Revision } from '../../src/chart/revisions.ts';

export interface SchemaNode {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  enum?: unknown[];
  pattern?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  required?: string[];
  $ref?: string;
  definitions?: Record<string, SchemaNode>;
  'x-agentplat-secret'?: boolean;
  'x-agentplat-kind'?: string;
}

const ROOT = join(import.meta.dirname, '..', '..');

export function valuesSchema(revision: Revision): SchemaNode {
  return JSON.parse(readFileSync(join(ROOT, 'schemas', `values-${revision.toLowerCase()}.schema.json`), 'utf8')) as SchemaNode;
}

const ABSENT = Symbol('absent');

// ---- small legal Kubernetes shapes for the pass-through objects ($ref'd definitions) --------------

const dnsName = fc.stringMatching(/^[a-z]([-a-z0-9]{0,10}[a-z0-9])?$/);
const labelKey = fc.oneof(
  fc.stringMatching(/^[a-z]([-a-z0-9.]{0,12}[a-z0-9])?$/),
  fc.stringMatching(/^[a-z]{1,8}\.(io|dev|com)\/[a-z]([-a-z0-9]{0,8}[a-z0-9])?$/),
);
const labelValue = fc.oneof(fc.constant(''), fc.stringMatching(/^[A-Za-z0-9]([-A-Za-z0-9_.]{0,14}[A-Za-z0-9])?$/));
const quantityCpu = fc.constantFrom('100m', '250m', '1', '2', '0.5');
const quantityMem = fc.constantFrom('64Mi', '128Mi', '1Gi', '512M');
const port = fc.integer({ min: 1, max: 65535 });

const K8S_SHAPES: Record<string, fc.Arbitrary<unknown>> = {
  IoK8sApiCoreV1LocalObjectReference: dnsName.map((name) => ({ name })),
  IoK8sApiCoreV1Toleration: fc.oneof(
    fc.record({ key: labelKey, operator: fc.constant('Exists'), effect: fc.constantFrom('NoSchedule', 'NoExecute', 'PreferNoSchedule') }),
    fc.record({ key: labelKey, operator: fc.constant('Equal'), value: labelValue, effect: fc.constantFrom('NoSchedule', 'NoExecute') }),
    fc.record({ operator: fc.constant('Exists') }),
  ),
  IoK8sApiCoreV1PodSecurityContext: fc.record(
    { runAsNonRoot: fc.boolean(), runAsUser: fc.integer({ min: 1, max: 65534 }), fsGroup: fc.integer({ min: 1, max: 65534 }), seccompProfile: fc.constant({ type: 'RuntimeDefault' }) },
    { requiredKeys: [] },
  ),
  IoK8sApiCoreV1SecurityContext: fc.record(
    {
      allowPrivilegeEscalation: fc.boolean(),
      readOnlyRootFilesystem: fc.boolean(),
      runAsNonRoot: fc.boolean(),
      runAsUser: fc.integer({ min: 1, max: 65534 }),
      capabilities: fc.constantFrom({ drop: ['ALL'] }, { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }),
    },
    { requiredKeys: [] },
  ),
  IoK8sApiCoreV1EnvVar: fc.oneof(
    fc.record({ name: fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/), value: fc.string({ maxLength: 12 }) }),
    fc.record({ name: fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/), valueFrom: fc.record({ secretKeyRef: fc.record({ name: dnsName, key: fc.constantFrom('token', 'password') }) }) }),
    fc.record({ name: fc.stringMatching(/^[A-Z_][A-Z0-9_]{0,12}$/), valueFrom: fc.constant({ fieldRef: { fieldPath: 'metadata.namespace' } }) }),
  ),
  IoK8sApiCoreV1EnvFromSource: fc.oneof(dnsName.map((name) => ({ configMapRef: { name } })), dnsName.map((name) => ({ secretRef: { name }, prefix: 'X_' }))),
  IoK8sApiCoreV1Volume: fc.oneof(
    dnsName.map((name) => ({ name, emptyDir: {} })),
    fc.tuple(dnsName, dnsName).map(([name, cm]) => ({ name, configMap: { name: cm } })),
    fc.tuple(dnsName, dnsName).map(([name, s]) => ({ name, secret: { secretName: s, defaultMode: 0o440 } })),
  ),
  IoK8sApiRbacV1PolicyRule: fc.record({
    apiGroups: fc.constantFrom([''], ['apps'], ['argoproj.io']),
    resources: fc.constantFrom(['configmaps'], ['deployments', 'replicasets'], ['rollouts']),
    verbs: fc.constantFrom(['get'], ['get', 'list', 'watch']),
  }),
  // The bundled agents' compaction (the Agent CRD's context.compaction; scripts/gen-values.ts).
  AgentplatAgentContextCompaction: fc.record(
    { compactionInterval: fc.integer({ min: 1, max: 20 }), overlapSize: fc.integer({ min: 0, max: 5 }), summarizer: fc.record({ modelConfig: dnsName }) },
    { requiredKeys: [] },
  ),
  IoK8sApiCoreV1VolumeMount: fc.record({ name: dnsName, mountPath: fc.stringMatching(/^\/[a-z]{1,8}(\/[a-z]{1,8})?$/), readOnly: fc.boolean() }),
  IoK8sApiCoreV1Affinity: fc.oneof(
    fc.constant({ nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/arch', operator: 'In', values: ['amd64'] }] }] } } }),
    fc.record({ podAntiAffinity: fc.record({ preferredDuringSchedulingIgnoredDuringExecution: fc.tuple(fc.integer({ min: 1, max: 100 }), labelKey).map(([weight, key]) => [{ weight, podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: { matchExpressions: [{ key, operator: 'Exists' }] } } }]) }) }),
  ),
  IoK8sApiCoreV1TopologySpreadConstraint: fc.record({
    maxSkew: fc.integer({ min: 1, max: 3 }),
    topologyKey: fc.constantFrom('topology.kubernetes.io/zone', 'kubernetes.io/hostname'),
    whenUnsatisfiable: fc.constantFrom('DoNotSchedule', 'ScheduleAnyway'),
  }),
  IoK8sApiCoreV1Probe: fc.record(
    {
      handler: fc.oneof(
        fc.record({ httpGet: fc.record({ path: fc.constantFrom('/health', '/ready'), port }) }),
        fc.record({ tcpSocket: fc.record({ port }) }),
        fc.constant({ exec: { command: ['true'] } }),
      ),
      periodSeconds: fc.integer({ min: 1, max: 60 }),
      failureThreshold: fc.integer({ min: 1, max: 10 }),
    },
    { requiredKeys: ['handler'] },
  ).map(({ handler, ...rest }) => ({ ...handler, ...rest })),
  IoK8sApiCoreV1ContainerResizePolicy: fc.record({ resourceName: fc.constantFrom('cpu', 'memory'), restartPolicy: fc.constantFrom('NotRequired', 'RestartContainer') }),
  IoK8sApiCoreV1HostAlias: fc.record({ ip: fc.constantFrom('10.0.0.7', '192.168.1.2'), hostnames: fc.array(dnsName, { minLength: 1, maxLength: 2 }) }),
  IoK8sApiCoreV1Lifecycle: fc.constantFrom({ preStop: { exec: { command: ['sleep', '5'] } } }, { postStart: { httpGet: { path: '/ready', port: 8080 } } }),
  IoK8sApiCoreV1Container: fc.tuple(dnsName, fc.constantFrom('busybox:1.36', 'registry.example.com/tool:1')).map(([name, image]) => ({ name, image })),
  IoK8sApiCoreV1Capabilities: fc.constantFrom({ drop: ['ALL'] }, { drop: ['ALL'], add: ['NET_BIND_SERVICE'] }),
  IoK8sApiCoreV1SeccompProfile: fc.constantFrom({ type: 'RuntimeDefault' }, { type: 'Localhost', localhostProfile: 'profiles/proxy.json' }),
  IoK8sApiCoreV1AppArmorProfile: fc.constantFrom({ type: 'RuntimeDefault' }),
  IoK8sApiCoreV1SELinuxOptions: fc.constantFrom({ level: 's0:c123,c456' }, { type: 'container_t' }),
  IoK8sApiCoreV1WindowsSecurityContextOptions: fc.constantFrom({ runAsUserName: 'ContainerUser' }),
  IoK8sApiCoreV1ResourceRequirements: fc.record(
    { requests: fc.record({ cpu: quantityCpu, memory: quantityMem }, { requiredKeys: [] }), limits: fc.record({ cpu: quantityCpu, memory: quantityMem }, { requiredKeys: [] }) },
    { requiredKeys: [] },
  ),
};

/** Free-form objects of the schema (no declared properties): small legal shapes by values path. */
const FREE_FORM: Record<string, fc.Arbitrary<unknown>> = {
  'extraObjects[]': fc.oneof(
    fc.tuple(dnsName, fc.string({ maxLength: 10 })).map(([name, v]) => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `extra-${name}` }, data: { k: v } })),
    dnsName.map((name) => ({ apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name: `extra-${name}` } })),
    dnsName.map((name) => `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: tpl-${name}\n  namespace: {{ .Release.Namespace }}\ndata:\n  release: {{ .Release.Name | quote }}\n`),
  ),
  'ui.httpRoute.parentRefs[]': fc.record({ name: dnsName, sectionName: fc.constantFrom('http', 'https') }, { requiredKeys: ['name'] }),
  'ui.httpRoute.rules[]': fc.constant({ matches: [{ path: { type: 'PathPrefix', value: '/' } }] }),
  'controller.metrics.serviceMonitor.metricRelabelings[]': fc.constant({ action: 'drop', sourceLabels: ['__name__'], regex: 'go_.*' }),
  'controller.metrics.serviceMonitor.relabelings[]': fc.constant({ action: 'replace', targetLabel: 'team', replacement: 'ml' }),
  'controller.metrics.serviceMonitor.tlsConfig': fc.constantFrom({ insecureSkipVerify: true }, { insecureSkipVerify: false, serverName: 'metrics.example.com' }),
  'substrate.credentialProvider.namespacePolicies[]': dnsName.map((namespace) => ({ namespace })),
  'substrateWorkerPool.template': fc.constantFrom({}, { metadata: { labels: { tier: 'sandbox' } } }),
  // deprecated and ignored: any value an older values file carries
  'controller.streaming': fc.constantFrom(null, 'true', true, { enabled: true, timeout: '10m' }),
};

/** Plain strings: mostly realistic words (so cases get past lint), sometimes anything at all. */
const plainString = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom('', 'a', 'example', 'team-ml', 'v1.2.3', 'http://svc.example.com:8080/path', 'registry.example.com', 'x_y', '0') },
  { weight: 2, arbitrary: fc.stringMatching(/^[a-z][a-z0-9-]{0,14}$/) },
  { weight: 1, arbitrary: fc.string({ maxLength: 16 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  // Any code point, control characters and newlines included, and text that looks like YAML.
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 10 }) },
  { weight: 1, arbitrary: fc.constantFrom('a\nb: c', 'x\n---\nkind: Secret', 'k: v', '- item', '"q"', "it's", '#c', '&a', '*a', '| x', '{{ .Release.Name }}', ' lead', '  two\nlines\n\n', 'trail ', 'true', '1e3', '0x1F', 'null', '~') },
);

export interface ArbOptions {
  /** Probability that an optional key is written (switches `enabled`/`create` get twice that). */
  presence: number;
}

export class ValuesArbitraries {
  private readonly defs: Record<string, SchemaNode>;
  /** Every values path the walk reached, for the coverage check. */
  readonly paths = new Set<string>();

  constructor(readonly schema: SchemaNode, readonly opts: ArbOptions = { presence: 0.12 }) {
    this.defs = schema.definitions ?? {};
  }

  /** The whole values document. */
  values(): fc.Arbitrary<Record<string, unknown>> {
    return this.node(this.schema, '', true) as fc.Arbitrary<Record<string, unknown>>;
  }

  node(n: SchemaNode, path: string, top = false): fc.Arbitrary<unknown> {
    if (path) this.paths.add(path);
    const free = FREE_FORM[path];
    if (free) return free;
    if (n.$ref) {
      const name = n.$ref.split('/').pop()!;
      const shape = K8S_SHAPES[name];
      if (!shape) throw new Error(`no small legal shape for ${name} (at ${path}); add one to K8S_SHAPES`);
      return shape;
    }
    if (n.enum) return fc.constantFrom(...n.enum);
    if (n.anyOf) return fc.oneof(...n.anyOf.map((b) => this.node(b, path)));
    if (Array.isArray(n.type)) return fc.oneof(...n.type.map((t) => this.node({ ...n, type: t }, path)));
    switch (n.type) {
      case 'null':
        return fc.constant(null);
      case 'boolean':
        return fc.boolean();
      case 'integer': {
        const min = n.minimum ?? -3;
        const max = n.maximum ?? min + 100;
        return fc.oneof({ weight: 4, arbitrary: fc.integer({ min, max: Math.min(max, min + 10) }) }, { weight: 1, arbitrary: fc.integer({ min, max }) });
      }
      case 'number':
        return fc.oneof(fc.integer({ min: n.minimum ?? 0, max: 64 }), fc.double({ min: n.minimum ?? 0, max: 64, noNaN: true, noDefaultInfinity: true }));
      case 'string':
        if (n.pattern) return fc.stringMatching(new RegExp(n.pattern)).filter((s) => s.length <= 40);
        if (n.minLength) return plainString.filter((s) => s.length >= n.minLength!);
        return plainString;
      case 'array':
        return fc.array(n.items ? this.node(n.items, `${path}[]`) : plainString, { maxLength: 3 });
      case 'object':
        return this.object(n, path, top);
      default:
        throw new Error(`schema node without a type at ${path || 'the top'}: ${JSON.stringify(n).slice(0, 120)}`);
    }
  }

  private object(n: SchemaNode, path: string, top: boolean): fc.Arbitrary<unknown> {
    const props = Object.entries(n.properties ?? {});
    const required = new Set(n.required ?? []);
    const fields: Record<string, fc.Arbitrary<unknown>> = {};
    for (const [k, sub] of props) {
      const arb = this.node(sub, path ? `${path}.${k}` : k);
      if (required.has(k)) {
        fields[k] = arb;
        continue;
      }
      const switchy = k === 'enabled' || k === 'create';
      const p = Math.min(0.9, this.opts.presence * (switchy ? 2.5 : 1) * (top ? 1.5 : 1));
      const present = Math.max(1, Math.round(p * 100));
      fields[k] = fc.oneof({ weight: 100 - present, arbitrary: fc.constant(ABSENT) }, { weight: present, arbitrary: arb });
    }
    const ap = n.additionalProperties;
    // Label maps (and node selectors) hold label values, as the API server (and values/metadata) requires.
    const labelMap = /(^|\.)(labels|[a-z]+Labels|nodeSelector)$/.test(path) && typeof ap === 'object' && ap.type === 'string';
    const extra =
      ap && typeof ap === 'object'
        ? fc.dictionary(path.endsWith('extraArgs') ? fc.stringMatching(/^[a-z][a-z-]{0,12}$/) : labelKey, labelMap ? labelValue : this.node(ap, `${path}.*`), { maxKeys: 3 })
        : fc.constant({});
    return fc.tuple(fc.record(fields), extra).map(([rec, more]) => {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(more)) out[k] = v;
      for (const [k, v] of Object.entries(rec)) if (v !== ABSENT) out[k] = v;
      return out;
    });
  }
}
