// The updates the API server refuses: fields of an object that may not change once it exists, so
// `kubectl apply` fails on the object and it has to be deleted and created again. Read from the
// update validation of Kubernetes 1.37 (k8s.io/kubernetes pkg/apis/{apps,batch,core,rbac}/validation,
// pkg/registry/core/service/strategy.go, k8s.io/apiextensions-apiserver pkg/apis/apiextensions/validation);
// each rule names the function it follows. Only fields a manifest sets are compared: a field the
// render leaves out is the server's (defaulted or allocated) and an apply does not touch it.
import { deepEqual, type ObjectId } from './objects.ts';

export interface Refusal {
  /** The field whose change is refused (`spec.selector`). */
  field: string;
  /** Why, in the API server's terms. */
  reason: string;
}

type Obj = Record<string, unknown>;
type Rule = (old: Obj, next: Obj) => Refusal[];

const isMap = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const at = (o: unknown, ...path: string[]): unknown => path.reduce<unknown>((cur, k) => (isMap(cur) ? cur[k] : undefined), o);

/** Each of `fields` (paths under `spec`) that differs between the two objects. */
function immutable(fields: readonly string[], why: string): Rule {
  return (old, next) =>
    fields
      .filter((f) => !deepEqual(at(old, 'spec', ...f.split('.')), at(next, 'spec', ...f.split('.'))))
      .map((f) => ({ field: `spec.${f}`, reason: `${why}: spec.${f} may not change` }));
}

/** ValidateDeploymentUpdate, ValidateReplicaSetUpdate, ValidateDaemonSetSpecUpdate. */
const selectorOnly = (kind: string): Rule => immutable(['selector'], `a ${kind}'s selector is immutable`);

/** ValidateStatefulSetUpdate: selector, volumeClaimTemplates, serviceName and podManagementPolicy. */
const statefulSet = immutable(['selector', 'volumeClaimTemplates', 'serviceName', 'podManagementPolicy'], 'a StatefulSet allows updates to replicas, ordinals, template, updateStrategy, persistentVolumeClaimRetentionPolicy and minReadySeconds only');

/**
 * ValidateJobSpecUpdate: selector, template (validatePodTemplateUpdate lets a suspended Job change
 * its scheduling directives only), completionMode, podFailurePolicy, backoffLimitPerIndex,
 * managedBy, successPolicy; completions only together with parallelism in an Indexed Job.
 */
const job: Rule = (old, next) => {
  const out = immutable(['selector', 'template', 'completionMode', 'podFailurePolicy', 'backoffLimitPerIndex', 'managedBy', 'successPolicy'], 'a Job runs the pods it was created with')(old, next);
  const completions = [at(old, 'spec', 'completions'), at(next, 'spec', 'completions')];
  const elastic = at(next, 'spec', 'completionMode') === 'Indexed' && completions[1] === at(next, 'spec', 'parallelism');
  if (completions[0] !== completions[1] && !elastic) out.push({ field: 'spec.completions', reason: 'a Job\'s completions may not change, except together with parallelism in an Indexed Job' });
  return out;
};

/**
 * ValidateServiceUpdate (validateUpgradeDowngradeClusterIPs, validateLoadBalancerClassField): the
 * primary cluster IP may not change once set, unless the Service is or becomes an ExternalName
 * (the registry then releases it, dropTypeDependentFields). A manifest that sets no clusterIP
 * keeps the allocated one; one that sets it (`None` included) to another value is refused. The
 * primary IP family of a Service that is not headless may not change either.
 */
const service: Rule = (old, next) => {
  const out: Refusal[] = [];
  const type = (o: Obj) => at(o, 'spec', 'type') ?? 'ClusterIP';
  if (type(old) !== 'ExternalName' && type(next) !== 'ExternalName') {
    const primary = (o: Obj): unknown => at(o, 'spec', 'clusterIP') ?? (at(o, 'spec', 'clusterIPs') as unknown[] | undefined)?.[0];
    const [a, b] = [primary(old), primary(next)];
    if (b !== undefined && b !== '' && a !== b) {
      const headless = a === 'None' || b === 'None';
      out.push({
        field: at(next, 'spec', 'clusterIP') !== undefined ? 'spec.clusterIP' : 'spec.clusterIPs',
        reason: `a Service's cluster IP may not change once set${headless ? ' (a headless Service, clusterIP: None, cannot become a normal one or the other way round)' : ''}${a === undefined ? '; the old Service had one allocated' : ''}`,
      });
    }
  }
  // validateUpgradeDowngradeIPFamilies: the primary family of a Service that is not headless, set in both manifests.
  const family = (o: Obj): unknown => (at(o, 'spec', 'ipFamilies') as unknown[] | undefined)?.[0];
  const headless = (o: Obj) => at(o, 'spec', 'clusterIP') === 'None';
  if (type(old) !== 'ExternalName' && type(next) !== 'ExternalName' && !headless(old) && !headless(next) && family(old) !== undefined && family(next) !== undefined && family(old) !== family(next)) {
    out.push({ field: 'spec.ipFamilies', reason: 'a Service\'s primary IP family may not change once set' });
  }
  if (type(old) === 'LoadBalancer' && type(next) === 'LoadBalancer' && !deepEqual(at(old, 'spec', 'loadBalancerClass'), at(next, 'spec', 'loadBalancerClass'))) {
    out.push({ field: 'spec.loadBalancerClass', reason: 'a LoadBalancer Service\'s loadBalancerClass may not change once set' });
  }
  return out;
};

/**
 * ValidatePersistentVolumeClaimUpdate: the spec is immutable after creation except
 * resources.requests (a bound claim may grow; it may never shrink) and volumeAttributesClassName;
 * a storage class may be set where there was none only while the claim still has none (the
 * DefaultStorageClass admission writes the cluster default's name at creation, so a cluster with
 * a default refuses it).
 */
const persistentVolumeClaim: Rule = (old, next) => {
  const out: Refusal[] = [];
  const spec = (o: Obj): Obj => ({ ...(isMap(o.spec) ? o.spec : {}) });
  const [a, b] = [spec(old), spec(next)];
  const storage = (s: Obj): unknown => at(s, 'resources', 'requests', 'storage');
  const [sa, sb] = [quantity(storage(a)), quantity(storage(b))];
  if (sa !== undefined && sb !== undefined && sb < sa) out.push({ field: 'spec.resources.requests.storage', reason: 'a PersistentVolumeClaim may not shrink' });
  for (const s of [a, b]) {
    if (isMap(s.resources) && isMap(s.resources.requests)) {
      const { storage: _storage, ...rest } = s.resources.requests;
      s.resources = { ...s.resources, requests: rest };
    }
    delete s.volumeAttributesClassName;
  }
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (deepEqual(a[key], b[key])) continue;
    const fromNone = key === 'storageClassName' && a[key] === undefined;
    out.push({
      field: `spec.${key}`,
      reason: fromNone
        ? 'a PersistentVolumeClaim\'s storage class may be set only while the claim has none; a cluster with a default StorageClass wrote its name into the claim when it was created'
        : 'a PersistentVolumeClaim\'s spec is immutable after creation, except a larger storage request',
    });
  }
  const annotation = (o: Obj) => at(o, 'metadata', 'annotations', 'volume.beta.kubernetes.io/storage-class');
  if (annotation(old) !== annotation(next)) out.push({ field: 'metadata.annotations["volume.beta.kubernetes.io/storage-class"]', reason: 'the storage class annotation of a claim is immutable' });
  return out;
};

/** ValidateSecretUpdate, ValidateConfigMapUpdate: a Secret's type; the data of an object marked immutable. */
const dataHolder = (kind: 'Secret' | 'ConfigMap'): Rule => (old, next) => {
  const out: Refusal[] = [];
  if (kind === 'Secret' && (old.type ?? 'Opaque') !== (next.type ?? 'Opaque')) out.push({ field: 'type', reason: 'a Secret\'s type may not change' });
  if (old.immutable === true) {
    if (next.immutable !== true) out.push({ field: 'immutable', reason: `an immutable ${kind} may not be made mutable again` });
    const fields = kind === 'Secret' ? ['data', 'stringData'] : ['data', 'binaryData'];
    for (const f of fields) if (!deepEqual(old[f], next[f])) out.push({ field: f, reason: `the ${f} of a ${kind} marked immutable: true may not change` });
  }
  return out;
};

/** ValidateRoleBindingUpdate, ValidateClusterRoleBindingUpdate. */
const binding: Rule = (old, next) => (deepEqual(old.roleRef, next.roleRef) ? [] : [{ field: 'roleRef', reason: 'a binding\'s roleRef may not change (it could grant another role\'s rights without the escalate check)' }]);

/**
 * ValidateCustomResourceDefinitionSpecUpdate: scope and names.kind once the CRD is established,
 * group and names.plural always (those two are also in its name, so they make another object).
 */
const crd: Rule = (old, next) =>
  (['scope', 'names.kind', 'group', 'names.plural'] as const)
    .filter((f) => !deepEqual(at(old, 'spec', ...f.split('.')), at(next, 'spec', ...f.split('.'))))
    .map((f) => ({ field: `spec.${f}`, reason: `a CustomResourceDefinition's spec.${f} may not change once it is established` }));

const RULES: Record<string, Rule> = {
  'apps/Deployment': selectorOnly('Deployment'),
  'apps/ReplicaSet': selectorOnly('ReplicaSet'),
  'apps/DaemonSet': selectorOnly('DaemonSet'),
  'apps/StatefulSet': statefulSet,
  'batch/Job': job,
  '/Service': service,
  '/PersistentVolumeClaim': persistentVolumeClaim,
  '/Secret': dataHolder('Secret'),
  '/ConfigMap': dataHolder('ConfigMap'),
  'rbac.authorization.k8s.io/RoleBinding': binding,
  'rbac.authorization.k8s.io/ClusterRoleBinding': binding,
  'apiextensions.k8s.io/CustomResourceDefinition': crd,
};

/** The changes from `old` to `next` the API server refuses on update; empty when an apply can update the object. */
export function refusedUpdates(id: Pick<ObjectId, 'group' | 'kind'>, old: Obj, next: Obj): Refusal[] {
  return RULES[`${id.group}/${id.kind}`]?.(old, next) ?? [];
}

/** The kinds `refusedUpdates` knows, as `group/Kind` (core group empty). */
export const KINDS_WITH_IMMUTABLE_FIELDS: readonly string[] = Object.keys(RULES);

const SUFFIX: Record<string, number> = {
  '': 1, n: 1e-9, u: 1e-6, m: 1e-3, k: 1e3, M: 1e6, G: 1e9, T: 1e12, P: 1e15, E: 1e18,
  Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, Pi: 2 ** 50, Ei: 2 ** 60,
};

/** A Kubernetes quantity (`500Mi`, `1G`, `1e3`, `2`) as a number, or undefined when it is not one. */
export function quantity(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v !== 'string') return undefined;
  const m = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))(?:([eE][+-]?\d+)|([KMGTPE]i|[numkMGTPE])?)$/.exec(v.trim());
  if (!m) return undefined;
  return m[2] !== undefined ? Number(`${m[1]}${m[2]}`) : Number(m[1]) * SUFFIX[m[3] ?? '']!;
}
