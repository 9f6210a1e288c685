// The Kubernetes objects `agentplat validate` and the API server both judge, beside the custom
// resources of _corpus.ts:
// - the valid base: every object `agentplat render` makes for both revisions over the cluster
//   suite's configuration matrix (_matrix.ts), one of each distinct shape, plus a few kinds users
//   apply next to the chart (Namespace, Job, CronJob, Ingress, PersistentVolumeClaim), written here;
// - variants of the richest object of each kind that break one thing each: an unknown field at each
//   depth, a value of the wrong type at each leaf, every integer past int32 (and int64), quantities,
//   a required field missing, values outside an enum, a selector that does not match the template's
//   labels, container names, port numbers;
// - metadata variants, on core objects and on custom resources of the six agentplat.dev kinds:
//   names by kind, generateName, namespaces, label keys and values, annotation keys and total size,
//   owner references.
// Nothing here says what the verdict should be: the API server is the judge, and the test compares.
import { render } from '../../src/api.ts';
import { CORPUS_NAMESPACE, customResourceBases } from './_corpus.ts';
import { MATRIX } from './_matrix.ts';

type Json = unknown;
type Rec = Record<string, Json>;
type Seg = string | number;

export interface Case {
  id: string;
  /** The figure the case counts in, e.g. `core: unknown field`, `metadata: label key`. */
  category: string;
  object: Rec;
}

/** Namespaces a case may use that must exist on the server (valid names only). */
export const EXTRA_NAMESPACES = ['n', 'n'.repeat(63)];

/** Kinds the API server serves without CRDs of other projects (the rendered foreign kinds are not). */
const SERVED_GROUPS = new Set(['v1', 'apps/v1', 'batch/v1', 'policy/v1', 'rbac.authorization.k8s.io/v1', 'networking.k8s.io/v1', 'agentplat.dev/v1alpha2']);
const CLUSTER_SCOPED = new Set(['Namespace', 'ClusterRole', 'ClusterRoleBinding']);

/**
 * Maps whose keys are the user's (labels, data, resource lists, …): a new key in one is not an
 * unknown field. Keyed by the last segment of the path (Service's `spec.selector` is one, a
 * Deployment's is a LabelSelector).
 */
function freeForm(kind: string, path: Seg[]): boolean {
  const last = path[path.length - 1];
  if (['labels', 'annotations', 'data', 'stringData', 'binaryData', 'matchLabels', 'nodeSelector', 'limits', 'requests', 'hard', 'parameters'].includes(String(last))) return true;
  return kind === 'Service' && path.join('.') === 'spec.selector';
}

const isRec = (v: Json): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);
const clone = <T>(v: T): T => structuredClone(v);

function getAt(root: Json, path: Seg[]): Json {
  return path.reduce<Json>((v, k) => (v !== null && typeof v === 'object' ? (v as Record<Seg, Json>)[k] : undefined), root);
}

/** Sets `value` at `path`, creating maps (or one-item lists for numeric segments) on the way. */
function setAt(root: Rec, path: Seg[], value: Json): void {
  let cur = root as Record<Seg, Json>;
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      cur[seg] = value;
      return;
    }
    if (cur[seg] === undefined || cur[seg] === null || typeof cur[seg] !== 'object') cur[seg] = typeof path[i + 1] === 'number' ? [{}] : {};
    cur = cur[seg] as Record<Seg, Json>;
  });
}

function deleteAt(root: Rec, path: Seg[]): void {
  const parent = getAt(root, path.slice(0, -1));
  const last = path[path.length - 1]!;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (isRec(parent)) delete parent[last as string];
}

const show = (path: Seg[]): string => path.map((s) => (typeof s === 'number' ? `[${s}]` : `.${s}`)).join('').replace(/^\./, '');

interface Node {
  path: Seg[];
  value: Json;
}

/** Every node below `spec`-like top-level fields (metadata aside), lists through their first item. */
function nodes(o: Rec): Node[] {
  const out: Node[] = [];
  const walk = (v: Json, path: Seg[]) => {
    out.push({ path, value: v });
    if (Array.isArray(v)) {
      if (v.length > 0) walk(v[0], [...path, 0]);
    } else if (isRec(v)) {
      for (const [k, x] of Object.entries(v)) walk(x, [...path, k]);
    }
  };
  for (const [k, v] of Object.entries(o)) if (!['apiVersion', 'kind', 'metadata'].includes(k)) walk(v, [k]);
  return out;
}

/** A key for an object's shape: its kind and the set of its field paths (values and list lengths aside). */
function shape(o: Rec): string {
  const paths = new Set<string>();
  const walk = (v: Json, p: string) => {
    if (Array.isArray(v)) for (const x of v) walk(x, `${p}[]`);
    else if (isRec(v)) for (const [k, x] of Object.entries(v)) walk(x, `${p}.${k}`);
    else paths.add(`${p}:${typeof v}`);
  };
  const { metadata, ...rest } = o;
  walk(rest, '');
  walk({ labels: Object.keys((metadata as Rec)?.labels ?? {}).length > 0, annotations: Object.keys((metadata as Rec)?.annotations ?? {}).length > 0 }, 'metadata');
  return `${o.apiVersion as string} ${o.kind as string} ${[...paths].sort().join(',')}`;
}

/** The path of the pod spec in a kind's objects, if it has one. */
function podSpecPath(kind: string): Seg[] | undefined {
  if (kind === 'Deployment' || kind === 'Job' || kind === 'StatefulSet' || kind === 'DaemonSet') return ['spec', 'template', 'spec'];
  if (kind === 'CronJob') return ['spec', 'jobTemplate', 'spec', 'template', 'spec'];
  return undefined;
}

const POD = { containers: [{ name: 'work', image: 'registry.example.com/work:1.0', command: ['sh', '-c', 'true'], resources: { requests: { cpu: '50m', memory: '32Mi' }, limits: { cpu: '100m', memory: '64Mi' } } }] };

/** Kinds users apply next to the chart, written here (the chart renders none of them, or only one shape). */
function handPicked(): Rec[] {
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'x', labels: { team: 'a' } } },
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'x', labels: { app: 'migrate' } },
      spec: { backoffLimit: 2, activeDeadlineSeconds: 600, ttlSecondsAfterFinished: 100, parallelism: 1, completions: 1, template: { metadata: { labels: { app: 'migrate' } }, spec: { ...clone(POD), restartPolicy: 'Never' } } },
    },
    {
      apiVersion: 'batch/v1',
      kind: 'CronJob',
      metadata: { name: 'x' },
      spec: {
        schedule: '*/5 * * * *',
        concurrencyPolicy: 'Forbid',
        startingDeadlineSeconds: 100,
        successfulJobsHistoryLimit: 3,
        failedJobsHistoryLimit: 1,
        jobTemplate: { spec: { backoffLimit: 1, template: { spec: { ...clone(POD), restartPolicy: 'OnFailure' } } } },
      },
    },
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: { name: 'x', annotations: { 'example.com/team': 'a' } },
      spec: {
        ingressClassName: 'nginx',
        tls: [{ hosts: ['agents.example.com'], secretName: 'agents-tls' }],
        rules: [{ host: 'agents.example.com', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'ui', port: { number: 8080 } } } }] } }],
      },
    },
    {
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: { name: 'x' },
      spec: { accessModes: ['ReadWriteOnce'], storageClassName: 'standard', volumeMode: 'Filesystem', resources: { requests: { storage: '1Gi' } } },
    },
  ];
}

/** The rendered objects of the matrix (served kinds only), one per distinct shape, in a stable order. */
async function renderedBase(): Promise<Rec[]> {
  const seen = new Set<string>();
  const out: Rec[] = [];
  for (const cfg of MATRIX) {
    const r = await render({ revision: cfg.revision, values: { name: `${cfg.name}.yaml`, text: cfg.values }, namespace: cfg.namespace, apiVersions: cfg.apiVersions, skipCrds: true });
    if (!r.ok) throw new Error(`render of "${cfg.name}" failed: ${r.problems.map((p) => p.message).join('; ')}`);
    for (const { object } of r.objects) {
      const o = object as unknown as Rec;
      if (!SERVED_GROUPS.has(o.apiVersion as string)) continue;
      const key = shape(o);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push(clone(o));
    }
  }
  return out;
}

/** The number of leaves of an object: the richest of a kind carries the most fields to break. */
const leaves = (o: Rec): number => nodes(o).filter((n) => !isRec(n.value) && !Array.isArray(n.value)).length;

/** An edit of a base object: what it does, and the change (returning false when it does not apply). */
type Edit = [what: string, change: (o: Rec) => boolean | void];

const set = (path: Seg[], value: Json): ((o: Rec) => boolean) => (o) => {
  setAt(o, path, value);
  return true;
};
const del = (path: Seg[]): ((o: Rec) => boolean) => (o) => {
  if (getAt(o, path) === undefined) return false;
  deleteAt(o, path);
  return true;
};

/** Edits of one category for the pod spec at `pod` (containers[0] gets a port if it has none). */
function podEdits(kind: string, pod: Seg[]): Record<string, Edit[]> {
  const c = [...pod, 'containers', 0];
  const withPort = (o: Rec) => {
    if (!Array.isArray(getAt(o, [...c, 'ports']))) setAt(o, [...c, 'ports'], [{ name: 'http', containerPort: 8080, protocol: 'TCP' }]);
  };
  const withProbe = (o: Rec) => {
    if (getAt(o, [...c, 'readinessProbe']) === undefined) setAt(o, [...c, 'readinessProbe'], { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 10 });
  };
  const port = (what: string, field: string, value: Json): Edit => [what, (o) => (withPort(o), setAt(o, [...c, 'ports', 0, field], value))];
  const tmplLabels = kind === 'CronJob' ? ['spec', 'jobTemplate', 'spec', 'template', 'metadata', 'labels'] : ['spec', 'template', 'metadata', 'labels'];
  return {
    'core: bad enum value': [
      [`${show(c)}.imagePullPolicy Sometimes`, set([...c, 'imagePullPolicy'], 'Sometimes')],
      [`${show(c)}.imagePullPolicy in lower case`, set([...c, 'imagePullPolicy'], 'always')],
      [`${show(c)}.imagePullPolicy Never`, set([...c, 'imagePullPolicy'], 'Never')],
      [`${show(pod)}.restartPolicy Never`, set([...pod, 'restartPolicy'], 'Never')],
      [`${show(pod)}.restartPolicy Always`, set([...pod, 'restartPolicy'], 'Always')],
      [`${show(pod)}.restartPolicy Sometimes`, set([...pod, 'restartPolicy'], 'Sometimes')],
      [`${show(pod)}.dnsPolicy Bogus`, set([...pod, 'dnsPolicy'], 'Bogus')],
      [`${show(pod)}.preemptionPolicy Bogus`, set([...pod, 'preemptionPolicy'], 'Bogus')],
      port(`${show(c)}.ports[0].protocol HTTP`, 'protocol', 'HTTP'),
      port(`${show(c)}.ports[0].protocol in lower case`, 'protocol', 'tcp'),
      port(`${show(c)}.ports[0].protocol SCTP`, 'protocol', 'SCTP'),
      [`${show(c)}.terminationMessagePolicy Bogus`, set([...c, 'terminationMessagePolicy'], 'Bogus')],
      [`${show(c)}.securityContext.seccompProfile.type Bogus`, set([...c, 'securityContext', 'seccompProfile'], { type: 'Bogus' })],
      [`${show(c)}.securityContext.capabilities.drop [ALL]`, set([...c, 'securityContext', 'capabilities'], { drop: ['ALL'] })],
      ...(kind === 'Deployment' ? ([['spec.strategy.type Bogus', set(['spec', 'strategy'], { type: 'Bogus' })], ['spec.strategy.type Recreate', set(['spec', 'strategy'], { type: 'Recreate' })]] as Edit[]) : []),
      ...(kind === 'CronJob' ? ([['spec.concurrencyPolicy Sometimes', set(['spec', 'concurrencyPolicy'], 'Sometimes')], ['spec.concurrencyPolicy Replace', set(['spec', 'concurrencyPolicy'], 'Replace')]] as Edit[]) : []),
      ...(kind === 'Job' ? ([['spec.completionMode Bogus', set(['spec', 'completionMode'], 'Bogus')], ['spec.completionMode Indexed', set(['spec', 'completionMode'], 'Indexed')]] as Edit[]) : []),
    ],
    'core: missing required field': [
      [`${show(c)}.name missing`, del([...c, 'name'])],
      [`${show(c)}.image missing`, del([...c, 'image'])],
      [`${show(pod)}.containers missing`, del([...pod, 'containers'])],
      [`${show(pod)}.containers empty`, set([...pod, 'containers'], [])],
      [`${show(c)}.ports[0].containerPort missing`, (o) => (withPort(o), deleteAt(o, [...c, 'ports', 0, 'containerPort']))],
      [`${show(c)}.env[0].name missing`, set([...c, 'env'], [{ value: 'x' }])],
      [`${show(c)}.volumeMounts[0].mountPath missing`, (o) => (setAt(o, [...pod, 'volumes'], [{ name: 'scratch', emptyDir: {} }]), setAt(o, [...c, 'volumeMounts'], [{ name: 'scratch' }]))],
      [`${show(pod)}.volumes[0].name missing`, set([...pod, 'volumes'], [{ emptyDir: {} }])],
      [`${show(c)}.volumeMounts[0] names no volume`, set([...c, 'volumeMounts'], [{ name: 'absent', mountPath: '/x' }])],
      ...(kind === 'Deployment'
        ? ([
            ['spec.selector missing', del(['spec', 'selector'])],
            ['spec.template.metadata.labels missing', del(tmplLabels)],
            ['spec.progressDeadlineSeconds equal to minReadySeconds', (o) => (setAt(o, ['spec', 'minReadySeconds'], 30), setAt(o, ['spec', 'progressDeadlineSeconds'], 30))],
            ['spec.progressDeadlineSeconds above minReadySeconds', (o) => (setAt(o, ['spec', 'minReadySeconds'], 30), setAt(o, ['spec', 'progressDeadlineSeconds'], 31))],
          ] as Edit[])
        : []),
      ...(kind === 'CronJob' ? ([['spec.schedule missing', del(['spec', 'schedule'])], ['spec.jobTemplate missing', del(['spec', 'jobTemplate'])], ['spec.schedule not a schedule', set(['spec', 'schedule'], 'every five minutes')]] as Edit[]) : []),
      ...(kind === 'Job' ? ([['spec.template.spec missing', del(['spec', 'template', 'spec'])]] as Edit[]) : []),
    ],
    'core: selector and template labels': [
      ...(kind === 'Deployment'
        ? ([
            ['template labels that the selector does not match', (o) => setAt(o, tmplLabels, { app: 'something-else' })],
            ['selector with an empty matchLabels', set(['spec', 'selector'], { matchLabels: {} })],
            ['selector with an operator outside the enum', set(['spec', 'selector'], { matchExpressions: [{ key: 'app', operator: 'Bogus', values: ['x'] }] })],
            ['selector matchExpressions In without values', set(['spec', 'selector'], { matchExpressions: [{ key: 'app', operator: 'In', values: [] }] })],
            ['selector label value that is not a label value', set(['spec', 'selector'], { matchLabels: { app: 'not a value' } })],
            ['template labels a superset of the selector', (o) => setAt(o, tmplLabels, { ...((getAt(o, tmplLabels) as Rec) ?? {}), extra: 'yes' })],
          ] as Edit[])
        : []),
      ...(kind === 'Job'
        ? ([
            ['spec.selector without manualSelector', set(['spec', 'selector'], { matchLabels: { app: 'migrate' } })],
            ['spec.selector with manualSelector', (o) => (setAt(o, ['spec', 'selector'], { matchLabels: { app: 'migrate' } }), setAt(o, ['spec', 'manualSelector'], true))],
            ['spec.selector with manualSelector not matching', (o) => (setAt(o, ['spec', 'selector'], { matchLabels: { app: 'other' } }), setAt(o, ['spec', 'manualSelector'], true))],
          ] as Edit[])
        : []),
      ...(kind === 'CronJob'
        ? ([['spec.jobTemplate.spec.selector set', set(['spec', 'jobTemplate', 'spec', 'selector'], { matchLabels: { app: 'x' } })]] as Edit[])
        : []),
    ],
    'core: container name': [
      [`${show(c)}.name with an underscore`, set([...c, 'name'], 'my_container')],
      [`${show(c)}.name in upper case`, set([...c, 'name'], 'Worker')],
      [`${show(c)}.name with a dot`, set([...c, 'name'], 'work.er')],
      [`${show(c)}.name starting with a dash`, set([...c, 'name'], '-worker')],
      [`${show(c)}.name of 63 characters`, set([...c, 'name'], 'c'.repeat(63))],
      [`${show(c)}.name of 64 characters`, set([...c, 'name'], 'c'.repeat(64))],
      [`${show(c)}.name starting with a digit`, set([...c, 'name'], '1worker')],
      [`${show(pod)}.containers with two of one name`, (o) => {
        const cs = getAt(o, [...pod, 'containers']) as Rec[];
        cs.push({ ...clone(cs[0]!), ports: undefined });
        delete cs[cs.length - 1]!.ports;
      }],
      [`${show(pod)}.initContainers[0].name shared with a container`, (o) => setAt(o, [...pod, 'initContainers'], [{ name: (getAt(o, [...c, 'name']) as string) ?? 'work', image: 'busybox:1.36' }])],
    ],
    'core: port out of range': [
      port(`${show(c)}.ports[0].containerPort 0`, 'containerPort', 0),
      port(`${show(c)}.ports[0].containerPort 65535`, 'containerPort', 65535),
      port(`${show(c)}.ports[0].containerPort 65536`, 'containerPort', 65536),
      port(`${show(c)}.ports[0].containerPort -1`, 'containerPort', -1),
      port(`${show(c)}.ports[0].hostPort 70000`, 'hostPort', 70000),
      port(`${show(c)}.ports[0].name of 16 characters`, 'name', 'p'.repeat(16)),
      port(`${show(c)}.ports[0].name in upper case`, 'name', 'HTTP'),
      port(`${show(c)}.ports[0].name of digits only`, 'name', '8080'),
      [`${show(c)}.readinessProbe.httpGet.port 70000`, (o) => (withProbe(o), setAt(o, [...c, 'readinessProbe', 'httpGet', 'port'], 70000))],
      [`${show(c)}.readinessProbe.httpGet.port a name of 16 characters`, (o) => (withProbe(o), setAt(o, [...c, 'readinessProbe', 'httpGet', 'port'], 'p'.repeat(16)))],
      [`${show(c)}.readinessProbe.periodSeconds 0`, (o) => (withProbe(o), setAt(o, [...c, 'readinessProbe', 'periodSeconds'], 0))],
    ],
    'core: bad quantity': [
      [`${show(c)}.resources.limits.cpu 1.5.5`, set([...c, 'resources', 'limits', 'cpu'], '1.5.5')],
      [`${show(c)}.resources.limits.cpu two`, set([...c, 'resources', 'limits', 'cpu'], 'two')],
      [`${show(c)}.resources.limits.cpu as a number`, set([...c, 'resources', 'limits', 'cpu'], 1)],
      [`${show(c)}.resources.limits.cpu 1e3`, set([...c, 'resources', 'limits', 'cpu'], '1e3')],
      [`${show(c)}.resources.limits.cpu -1`, set([...c, 'resources', 'limits', 'cpu'], '-1')],
      [`${show(c)}.resources.limits.memory 1Kb`, set([...c, 'resources', 'limits', 'memory'], '1Kb')],
      [`${show(c)}.resources.limits.memory 64 Mi`, set([...c, 'resources', 'limits', 'memory'], '64 Mi')],
      [`${show(c)}.resources.limits.memory 1Ki`, set([...c, 'resources', 'limits', 'memory'], '1Ki')],
      [`${show(c)}.resources.requests.cpu above its limit`, (o) => (setAt(o, [...c, 'resources', 'limits', 'cpu'], '100m'), setAt(o, [...c, 'resources', 'requests', 'cpu'], '2'))],
      [`${show(c)}.resources.requests.nvidia.com/gpu fractional`, set([...c, 'resources', 'requests', 'example.com/gpu'], '500m')],
      [`${show(c)}.resources example.com/gpu 1 requested at its limit`, (o) => (setAt(o, [...c, 'resources', 'limits', 'example.com/gpu'], '1'), setAt(o, [...c, 'resources', 'requests', 'example.com/gpu'], '1'))],
      [`${show(c)}.resources example.com/gpu requested below its limit`, (o) => (setAt(o, [...c, 'resources', 'limits', 'example.com/gpu'], '2'), setAt(o, [...c, 'resources', 'requests', 'example.com/gpu'], '1'))],
      [`${show(c)}.resources.limits with a resource name that is no name`, set([...c, 'resources', 'limits', 'not a resource'], '1')],
      [`${show(pod)}.volumes[0].emptyDir.sizeLimit ten`, (o) => (setAt(o, [...pod, 'volumes'], [{ name: 'scratch', emptyDir: { sizeLimit: 'ten' } }]))],
    ],
  };
}

/** The curated edits of a kind without a pod spec. */
function kindEdits(kind: string): Record<string, Edit[]> {
  switch (kind) {
    case 'Service':
      return {
        'core: bad enum value': [
          ['spec.type Internal', set(['spec', 'type'], 'Internal')],
          ['spec.type in lower case', set(['spec', 'type'], 'clusterIP')],
          ['spec.type NodePort', set(['spec', 'type'], 'NodePort')],
          ['spec.ports[0].protocol HTTP', set(['spec', 'ports', 0, 'protocol'], 'HTTP')],
          ['spec.ports[0].protocol UDP', set(['spec', 'ports', 0, 'protocol'], 'UDP')],
          ['spec.sessionAffinity Sticky', set(['spec', 'sessionAffinity'], 'Sticky')],
          ['spec.ipFamilyPolicy Bogus', set(['spec', 'ipFamilyPolicy'], 'Bogus')],
          ['spec.externalTrafficPolicy Local on a ClusterIP Service', set(['spec', 'externalTrafficPolicy'], 'Local')],
          ['spec.externalTrafficPolicy Local on a NodePort Service', (o) => (setAt(o, ['spec', 'type'], 'NodePort'), setAt(o, ['spec', 'externalTrafficPolicy'], 'Local'))],
          ['spec.internalTrafficPolicy Bogus', set(['spec', 'internalTrafficPolicy'], 'Bogus')],
        ],
        'core: port out of range': [
          ['spec.ports[0].port 0', set(['spec', 'ports', 0, 'port'], 0)],
          ['spec.ports[0].port 65535', set(['spec', 'ports', 0, 'port'], 65535)],
          ['spec.ports[0].port 65536', set(['spec', 'ports', 0, 'port'], 65536)],
          ['spec.ports[0].targetPort 0', set(['spec', 'ports', 0, 'targetPort'], 0)],
          ['spec.ports[0].targetPort 65536', set(['spec', 'ports', 0, 'targetPort'], 65536)],
          ['spec.ports[0].targetPort a name of 16 characters', set(['spec', 'ports', 0, 'targetPort'], 'p'.repeat(16))],
          ['spec.ports[0].nodePort on a ClusterIP Service', set(['spec', 'ports', 0, 'nodePort'], 30080)],
          ['spec.ports[0].nodePort on a NodePort Service', (o) => (setAt(o, ['spec', 'type'], 'NodePort'), setAt(o, ['spec', 'ports', 0, 'nodePort'], 30081))],
          ['spec.ports[0].name in upper case', set(['spec', 'ports', 0, 'name'], 'HTTP')],
        ],
        'core: missing required field': [
          ['spec.ports[0].port missing', del(['spec', 'ports', 0, 'port'])],
          ['spec.ports empty', set(['spec', 'ports'], [])],
          ['two ports without names', (o) => set(['spec', 'ports'], [{ port: 80 }, { port: 81 }])(o)],
          ['two ports of one name', (o) => set(['spec', 'ports'], [{ name: 'a', port: 80 }, { name: 'a', port: 81 }])(o)],
        ],
      };
    case 'PersistentVolumeClaim':
      return {
        'core: bad enum value': [
          ['spec.accessModes ReadWriteSometimes', set(['spec', 'accessModes'], ['ReadWriteSometimes'])],
          ['spec.accessModes ReadWriteOncePod', set(['spec', 'accessModes'], ['ReadWriteOncePod'])],
          ['spec.volumeMode Bogus', set(['spec', 'volumeMode'], 'Bogus')],
        ],
        'core: missing required field': [
          ['spec.accessModes empty', set(['spec', 'accessModes'], [])],
          ['spec.resources.requests.storage missing', (o) => setAt(o, ['spec', 'resources'], { requests: {} })],
          ['spec missing', del(['spec'])],
        ],
        'core: bad quantity': [
          ['spec.resources.requests.storage ten', set(['spec', 'resources', 'requests', 'storage'], 'ten')],
          ['spec.resources.requests.storage -1Gi', set(['spec', 'resources', 'requests', 'storage'], '-1Gi')],
          ['spec.resources.requests.storage 0', set(['spec', 'resources', 'requests', 'storage'], '0')],
          ['spec.resources.requests.storage as a number', set(['spec', 'resources', 'requests', 'storage'], 1073741824)],
          ['spec.resources.requests.storage 1.5Gi', set(['spec', 'resources', 'requests', 'storage'], '1.5Gi')],
        ],
      };
    case 'PodDisruptionBudget':
      return {
        'core: bad enum value': [
          ['spec.unhealthyPodEvictionPolicy Bogus', set(['spec', 'unhealthyPodEvictionPolicy'], 'Bogus')],
          ['spec.selector with an operator outside the enum', set(['spec', 'selector'], { matchExpressions: [{ key: 'app', operator: 'Bogus' }] })],
        ],
        'core: missing required field': [
          ['minAvailable and maxUnavailable both', (o) => (setAt(o, ['spec', 'minAvailable'], 1), setAt(o, ['spec', 'maxUnavailable'], 1))],
          ['spec.minAvailable 150%', (o) => (deleteAt(o, ['spec', 'maxUnavailable']), setAt(o, ['spec', 'minAvailable'], '150%'))],
          ['spec.minAvailable -1', (o) => (deleteAt(o, ['spec', 'maxUnavailable']), setAt(o, ['spec', 'minAvailable'], -1))],
          ['spec.minAvailable a word', (o) => (deleteAt(o, ['spec', 'maxUnavailable']), setAt(o, ['spec', 'minAvailable'], 'half'))],
          ['spec.minAvailable a number as a string', (o) => (deleteAt(o, ['spec', 'maxUnavailable']), setAt(o, ['spec', 'minAvailable'], '5'))],
          ['spec.maxUnavailable 100%', (o) => (deleteAt(o, ['spec', 'minAvailable']), setAt(o, ['spec', 'maxUnavailable'], '100%'))],
        ],
      };
    case 'RoleBinding':
    case 'ClusterRoleBinding':
      return {
        'core: bad enum value': [
          ['roleRef.kind Bogus', set(['roleRef', 'kind'], 'Bogus')],
          ['roleRef.apiGroup wrong', set(['roleRef', 'apiGroup'], 'rbac.example.com')],
          ['subjects[0].kind Robot', set(['subjects', 0, 'kind'], 'Robot')],
          ['subjects[0] a ServiceAccount with the RBAC apiGroup', set(['subjects', 0], { kind: 'ServiceAccount', apiGroup: 'rbac.authorization.k8s.io', name: 'sa', namespace: 'n' })],
        ],
        'core: missing required field': [
          ['roleRef missing', del(['roleRef'])],
          ['roleRef.name missing', del(['roleRef', 'name'])],
          ['subjects[0].name missing', del(['subjects', 0, 'name'])],
          ['subjects[0] a ServiceAccount without namespace', set(['subjects', 0], { kind: 'ServiceAccount', name: 'sa' })],
          ['subjects[0] a User', set(['subjects', 0], { kind: 'User', apiGroup: 'rbac.authorization.k8s.io', name: 'jane@example.com' })],
        ],
      };
    case 'Role':
    case 'ClusterRole':
      return {
        'core: missing required field': [
          ['rules[0].verbs missing', del(['rules', 0, 'verbs'])],
          ['rules[0].verbs empty', set(['rules', 0, 'verbs'], [])],
          ['rules[0].apiGroups missing', del(['rules', 0, 'apiGroups'])],
          ['rules[0] with nonResourceURLs', set(['rules', 0], { nonResourceURLs: ['/healthz'], verbs: ['get'] })],
          ['rules[0] with nonResourceURLs and resources', set(['rules', 0], { nonResourceURLs: ['/healthz'], resources: ['pods'], apiGroups: [''], verbs: ['get'] })],
          ['rules[0].verbs a made-up verb', set(['rules', 0, 'verbs'], ['frobnicate'])],
        ],
      };
    case 'ConfigMap':
      return {
        'core: missing required field': [
          ['data key with a space', set(['data', 'bad key'], 'x')],
          ['data key with a slash', set(['data', 'a/b'], 'x')],
          ['a key in data and binaryData', (o) => (setAt(o, ['data', 'k'], 'x'), setAt(o, ['binaryData', 'k'], 'eA=='))],
          ['binaryData not base64', set(['binaryData', 'k'], 'not base64!')],
          ['immutable yes', set(['immutable'], 'yes')],
        ],
      };
    case 'Secret':
      return {
        'core: missing required field': [
          ['data not base64', set(['data', 'k'], 'not base64!')],
          ['stringData key with a space', set(['stringData', 'bad key'], 'x')],
          ['type kubernetes.io/tls without tls.crt', (o) => (setAt(o, ['type'], 'kubernetes.io/tls'), deleteAt(o, ['data']), deleteAt(o, ['stringData']))],
          ['type a custom one', set(['type'], 'example.com/custom')],
          ['type kubernetes.io/basic-auth without a username or password', (o) => (setAt(o, ['type'], 'kubernetes.io/basic-auth'), setAt(o, ['stringData'], { other: 'x' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/basic-auth with a password only', (o) => (setAt(o, ['type'], 'kubernetes.io/basic-auth'), setAt(o, ['stringData'], { password: 'x' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/tls with tls.crt and tls.key in stringData', (o) => (setAt(o, ['type'], 'kubernetes.io/tls'), setAt(o, ['stringData'], { 'tls.crt': 'c', 'tls.key': 'k' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/dockerconfigjson without .dockerconfigjson', (o) => (setAt(o, ['type'], 'kubernetes.io/dockerconfigjson'), setAt(o, ['stringData'], { other: 'x' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/dockerconfigjson not JSON', (o) => (setAt(o, ['type'], 'kubernetes.io/dockerconfigjson'), setAt(o, ['stringData'], { '.dockerconfigjson': 'not json' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/dockerconfigjson with JSON', (o) => (setAt(o, ['type'], 'kubernetes.io/dockerconfigjson'), setAt(o, ['stringData'], { '.dockerconfigjson': '{"auths":{}}' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/ssh-auth without ssh-privatekey', (o) => (setAt(o, ['type'], 'kubernetes.io/ssh-auth'), setAt(o, ['stringData'], { other: 'x' }), deleteAt(o, ['data']))],
          ['type kubernetes.io/service-account-token without its annotation', (o) => (setAt(o, ['type'], 'kubernetes.io/service-account-token'), deleteAt(o, ['data']), deleteAt(o, ['stringData']))],
        ],
      };
    case 'ServiceAccount':
      return {
        'core: missing required field': [
          ['automountServiceAccountToken yes', set(['automountServiceAccountToken'], 'yes')],
          ['imagePullSecrets[0].name a number', set(['imagePullSecrets'], [{ name: 12 }])],
          ['imagePullSecrets[0] a string', set(['imagePullSecrets'], ['regcred'])],
        ],
      };
    case 'Ingress':
      return {
        'core: bad enum value': [
          ['pathType Regex', set(['spec', 'rules', 0, 'http', 'paths', 0, 'pathType'], 'Regex')],
          ['pathType ImplementationSpecific', set(['spec', 'rules', 0, 'http', 'paths', 0, 'pathType'], 'ImplementationSpecific')],
        ],
        'core: port out of range': [
          ['backend port number 70000', set(['spec', 'rules', 0, 'http', 'paths', 0, 'backend', 'service', 'port'], { number: 70000 })],
          ['backend port number and name', set(['spec', 'rules', 0, 'http', 'paths', 0, 'backend', 'service', 'port'], { number: 80, name: 'http' })],
          ['backend port name of 16 characters', set(['spec', 'rules', 0, 'http', 'paths', 0, 'backend', 'service', 'port'], { name: 'p'.repeat(16) })],
        ],
        'core: missing required field': [
          ['host with an underscore', set(['spec', 'rules', 0, 'host'], 'bad_host.example.com')],
          ['host a wildcard', set(['spec', 'rules', 0, 'host'], '*.example.com')],
          ['host an IP address', set(['spec', 'rules', 0, 'host'], '10.0.0.1')],
          ['path relative with pathType Prefix', set(['spec', 'rules', 0, 'http', 'paths', 0, 'path'], 'agents')],
          ['path with // and pathType Prefix', set(['spec', 'rules', 0, 'http', 'paths', 0, 'path'], '/a//b')],
          ['path ending in /.. with pathType Prefix', set(['spec', 'rules', 0, 'http', 'paths', 0, 'path'], '/a/..')],
          ['host an IPv6 address', set(['spec', 'rules', 0, 'host'], '::1')],
          ['host with a wildcard inside', set(['spec', 'rules', 0, 'host'], 'a.*.example.com')],
          ['backend service name with a leading digit', set(['spec', 'rules', 0, 'http', 'paths', 0, 'backend', 'service', 'name'], '1ui')],
          ['pathType missing', del(['spec', 'rules', 0, 'http', 'paths', 0, 'pathType'])],
          ['backend missing', del(['spec', 'rules', 0, 'http', 'paths', 0, 'backend'])],
          ['backend service name not a DNS-1035 label', set(['spec', 'rules', 0, 'http', 'paths', 0, 'backend', 'service', 'name'], 'UI_svc')],
        ],
      };
  }
  return {};
}

/**
 * The generic variants of an object: an unknown field in each map of it, a value of the wrong type
 * at each node, and each integer at the edges of int32 and past int64.
 */
function genericEdits(kind: string, base: Rec): Record<string, Edit[]> {
  const unknown: Edit[] = [['unknown field at the top', set(['notInTheApi'], 'x')], ['unknown field in metadata', set(['metadata', 'notInTheApi'], 'x')]];
  const wrong: Edit[] = [];
  const ints: Edit[] = [];
  for (const { path, value } of nodes(base)) {
    const inFree = path.some((_, i) => freeForm(kind, path.slice(0, i)));
    if (isRec(value) && !freeForm(kind, path) && !inFree) unknown.push([`unknown field in ${show(path)}`, set([...path, 'notInTheApi'], 'x')]);
    const wrongValue = Array.isArray(value) ? 'not-a-list' : isRec(value) ? 'not-a-map' : typeof value === 'string' ? 12 : typeof value === 'number' ? 'twelve' : typeof value === 'boolean' ? 'yes' : undefined;
    if (wrongValue !== undefined && !(inFree && path.length > 0 && isRec(value))) wrong.push([`${show(path)} of the wrong type (${JSON.stringify(wrongValue)})`, set(path, wrongValue)]);
    if (isRec(value) && !inFree && !freeForm(kind, path)) wrong.push([`${show(path)} a list of it`, set(path, [clone(value)])]);
    if (typeof value === 'number' && Number.isInteger(value)) {
      for (const [what, v] of [['2^31', 2 ** 31], ['2^31-1', 2 ** 31 - 1], ['-2^31-1', -(2 ** 31) - 1], ['2^63', 2 ** 63], ['1.5', 1.5]] as const) ints.push([`${show(path)} ${what}`, set(path, v)]);
    }
  }
  // Integers the rendered objects leave out, at the edge of int32 too.
  const extra: Record<string, Seg[][]> = {
    Deployment: [['spec', 'replicas'], ['spec', 'revisionHistoryLimit'], ['spec', 'progressDeadlineSeconds'], ['spec', 'minReadySeconds'], ['spec', 'template', 'spec', 'terminationGracePeriodSeconds'], ['spec', 'template', 'spec', 'securityContext', 'runAsUser']],
    Job: [['spec', 'backoffLimit'], ['spec', 'activeDeadlineSeconds']],
    CronJob: [['spec', 'startingDeadlineSeconds'], ['spec', 'successfulJobsHistoryLimit']],
    PersistentVolumeClaim: [],
    Service: [['spec', 'sessionAffinityConfig', 'clientIP', 'timeoutSeconds']],
  };
  for (const path of extra[kind] ?? []) {
    if (getAt(base, path) !== undefined) continue;
    for (const [what, v] of [['2^31', 2 ** 31], ['2^31-1', 2 ** 31 - 1], ['-1', -1]] as const) ints.push([`${show(path)} ${what} (added)`, set(path, v)]);
  }
  return { 'core: unknown field': unknown, 'core: wrong type': wrong, 'core: integer bounds': ints };
}

/** Names each kind's rule takes or refuses (the test sends each to every kind). */
const NAMES: [string, string][] = [
  ['lower-case word', 'agent'],
  ['upper case', 'Agent'],
  ['underscore', 'my_model'],
  ['dot', 'my.model'],
  ['colon', 'system:agent'],
  ['space', 'my model'],
  ['leading digit', '1agent'],
  ['trailing dash', 'agent-'],
  ['leading dot', '.agent'],
  ['63 characters', 'a'.repeat(63)],
  ['64 characters', 'a'.repeat(64)],
  ['52 characters', 'a'.repeat(52)],
  ['53 characters', 'a'.repeat(53)],
  ['253 characters in labels', Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.').slice(0, 253)],
  ['254 characters in labels', `${Array.from({ length: 4 }, () => 'a'.repeat(63)).join('.')}a`.slice(0, 254)],
  ['a slash', 'a/b'],
  ['a percent sign', 'a%b'],
  ['two dots', '..'],
];

/** generateName prefixes, each sent without a name. */
const GENERATE_NAMES: [string, string][] = [
  ['a prefix ending in a dash', 'agent-'],
  ['a prefix in upper case', 'Agent-'],
  ['a prefix with an underscore', 'my_agent-'],
  ['a prefix of 62 characters', `${'a'.repeat(61)}-`],
  ['a prefix of 70 characters', `${'a'.repeat(69)}-`],
  ['a prefix of 254 characters', `${'a'.repeat(253)}-`],
  ['a prefix ending in a dot', 'agent.'],
];

const LABEL_KEYS: [string, string][] = [
  ['a plain name', 'team'],
  ['a prefixed name', 'example.com/team'],
  ['a space and an exclamation mark', 'bad label!'],
  ['an upper-case prefix', 'Example.com/team'],
  ['an upper-case name', 'example.com/Team'],
  ['two slashes', 'a/b/c'],
  ['an empty prefix', '/team'],
  ['an empty name', 'example.com/'],
  ['a name of 63 characters', 'k'.repeat(63)],
  ['a name of 64 characters', 'k'.repeat(64)],
  ['a prefix of 253 characters', `${Array.from({ length: 4 }, () => 'p'.repeat(63)).join('.').slice(0, 253)}/k`],
  ['a prefix of 254 characters', `${`${Array.from({ length: 4 }, () => 'p'.repeat(63)).join('.')}p`.slice(0, 254)}/k`],
  ['a leading underscore', '_team'],
  ['a trailing dot', 'team.'],
  ['underscores and dots inside', 'a_b.c-d'],
  ['a non-ASCII letter', 'équipe'],
];

const LABEL_VALUES: [string, Json][] = [
  ['empty', ''],
  ['63 characters', 'v'.repeat(63)],
  ['64 characters', 'v'.repeat(64)],
  ['a space', 'not a value'],
  ['a leading dash', '-v'],
  ['a trailing dot', 'v.'],
  ['underscores and dots inside', 'v_1.2-3'],
  ['a slash', 'a/b'],
  ['a number', 12],
  ['a boolean', true],
];

const ANNOTATION_KEYS: [string, string][] = [
  ['a prefixed name', 'example.com/owner'],
  ['a space', 'bad key'],
  ['an upper-case prefix', 'EXAMPLE.com/owner'],
  ['an upper-case name', 'Owner'],
  ['two slashes', 'a/b/c'],
  ['a name of 64 characters', 'k'.repeat(64)],
  ['an empty name', 'example.com/'],
];

const OWNER: Rec = { apiVersion: 'v1', kind: 'ConfigMap', name: 'owner', uid: '2f1c3e4a-0000-4000-8000-000000000001' };
const OWNER_REFS: [string, Json][] = [
  ['a complete reference', [OWNER]],
  ['no uid', [{ ...OWNER, uid: undefined }]],
  ['an empty uid', [{ ...OWNER, uid: '' }]],
  ['no name', [{ ...OWNER, name: undefined }]],
  ['no kind', [{ ...OWNER, kind: undefined }]],
  ['no apiVersion', [{ ...OWNER, apiVersion: undefined }]],
  ['an apiVersion with two slashes', [{ ...OWNER, apiVersion: 'apps/v1/extra' }]],
  ['an apiVersion with a group and no version', [{ ...OWNER, apiVersion: 'apps/' }]],
  ['an apiVersion of a group alone', [{ ...OWNER, apiVersion: 'example.com' }]],
  ['a kind that cannot own (Event)', [{ ...OWNER, kind: 'Event' }]],
  ['two controllers', [{ ...OWNER, controller: true }, { ...OWNER, name: 'other', uid: '2f1c3e4a-0000-4000-8000-000000000002', controller: true }]],
  ['one controller of two', [{ ...OWNER, controller: true }, { ...OWNER, name: 'other', uid: '2f1c3e4a-0000-4000-8000-000000000002' }]],
  ['controller a string', [{ ...OWNER, controller: 'yes' }]],
  ['an unknown field', [{ ...OWNER, notInTheApi: 'x' }]],
  ['a string', ['owner']],
].map(([w, v]) => [w as string, JSON.parse(JSON.stringify(v)) as Json]);

const NAMESPACES: [string, string][] = [
  ['underscore and upper case', 'Team_A'],
  ['upper case', 'TEAM'],
  ['a dot', 'team.a'],
  ['64 characters', 'a'.repeat(64)],
  ['63 characters', 'n'.repeat(63)],
  ['one letter', 'n'],
];

/** The metadata variants of one object (names and generateName for every kind; the rest on the kinds given). */
function metadataEdits(o: Rec, full: boolean): Record<string, Edit[]> {
  const kind = o.kind as string;
  const namespaced = !CLUSTER_SCOPED.has(kind);
  const out: Record<string, Edit[]> = {
    'metadata: name': [
      ...NAMES.map(([what, n]): Edit => [`name with ${what}`, set(['metadata', 'name'], n)]),
      ['no name and no generateName', del(['metadata', 'name'])],
    ],
    'metadata: generateName': [
      ...GENERATE_NAMES.map(([what, g]): Edit => [`generateName ${what}`, (m) => (deleteAt(m, ['metadata', 'name']), setAt(m, ['metadata', 'generateName'], g))]),
      ['an invalid generateName beside a valid name', set(['metadata', 'generateName'], 'Bad_Prefix-')],
    ],
  };
  if (!full) return out;
  if (namespaced) out['metadata: namespace'] = NAMESPACES.map(([what, n]): Edit => [`namespace with ${what}`, set(['metadata', 'namespace'], n)]);
  out['metadata: label key'] = LABEL_KEYS.map(([what, k]): Edit => [`label key with ${what}`, set(['metadata', 'labels', k], 'x')]);
  out['metadata: label value'] = LABEL_VALUES.map(([what, v]): Edit => [`label value ${what}`, set(['metadata', 'labels', 'team'], v)]);
  out['metadata: annotation key'] = ANNOTATION_KEYS.map(([what, k]): Edit => [`annotation key with ${what}`, set(['metadata', 'annotations', k], 'x')]);
  // The server counts the bytes of keys and values; the object's own annotations are replaced.
  const sized = (n: number) => (m: Rec) => setAt(m, ['metadata', 'annotations'], { 'example.com/blob': 'x'.repeat(n - 'example.com/blob'.length) });
  out['metadata: annotation size'] = [
    ['annotations of 256 KiB exactly', sized(256 * 1024)],
    ['annotations one byte over 256 KiB', sized(256 * 1024 + 1)],
    ['annotations one byte over 256 KiB in two-byte characters', (m) => setAt(m, ['metadata', 'annotations'], { k: 'é'.repeat((256 * 1024 - 1) / 2 + 0.5) })],
    ['annotation value a number', set(['metadata', 'annotations', 'example.com/n'], 12)],
  ];
  out['metadata: ownerReferences'] = OWNER_REFS.map(([what, refs]): Edit => [`ownerReferences with ${what}`, set(['metadata', 'ownerReferences'], refs)]);
  return out;
}

/** The core corpus and the metadata variants, in a stable order. */
export async function coreCorpus(): Promise<Case[]> {
  const out: Case[] = [];
  let n = 0;
  const add = (id: string, category: string, object: Rec, keepMeta = false) => {
    const o = clone(object);
    const meta = (o.metadata ??= {}) as Rec;
    if (!keepMeta) {
      meta.name = `c-${String(n).padStart(5, '0')}`;
      if (CLUSTER_SCOPED.has(o.kind as string)) delete meta.namespace;
      else meta.namespace = CORPUS_NAMESPACE;
    }
    n++;
    out.push({ id, category, object: o });
  };
  /** The base with its name and namespace set as `add` would, so edits of metadata see what is sent. */
  const placed = (base: Rec): Rec => {
    const o = clone(base);
    const meta = (o.metadata ??= {}) as Rec;
    meta.name = `c-${String(n).padStart(5, '0')}`;
    if (CLUSTER_SCOPED.has(o.kind as string)) delete meta.namespace;
    else meta.namespace = CORPUS_NAMESPACE;
    return o;
  };
  const variants = (base: Rec, groups: Record<string, Edit[]>, keepMeta = false) => {
    for (const [category, edits] of Object.entries(groups)) {
      for (const [what, change] of edits) {
        const o = keepMeta ? placed(base) : clone(base);
        if (change(o) === false) continue;
        add(`${base.kind as string} ${what}`, category, o, keepMeta);
      }
    }
  };

  const rendered = await renderedBase();
  const bases = [...rendered, ...handPicked()];
  for (const o of bases) add(`${o.kind as string} valid (${rendered.includes(o) ? 'rendered' : 'written'})`, 'core: valid objects', o);

  // The richest object of each core kind carries the variants.
  const richest = new Map<string, Rec>();
  for (const o of bases) {
    const kind = o.kind as string;
    if ((o.apiVersion as string).startsWith('agentplat.dev/')) continue;
    const have = richest.get(kind);
    if (!have || leaves(o) > leaves(have)) richest.set(kind, o);
  }
  for (const [kind, base] of [...richest].sort(([a], [b]) => a.localeCompare(b))) {
    variants(base, genericEdits(kind, base));
    const pod = podSpecPath(kind);
    variants(base, pod ? podEdits(kind, pod) : kindEdits(kind));
  }

  // Metadata: names and generateName on every kind; the rest on a namespaced and a cluster-scoped
  // core kind, an RBAC kind, and custom resources.
  const full = new Set(['Deployment', 'Namespace', 'Role', 'ConfigMap']);
  for (const [kind, base] of [...richest].sort(([a], [b]) => a.localeCompare(b))) variants(base, metadataEdits(base, full.has(kind)), true);
  for (const cr of customResourceBases()) variants(cr, metadataEdits(cr, ['Agent', 'ModelConfig'].includes(cr.kind as string)), true);
  return out;
}
