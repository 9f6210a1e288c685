// The judgement of `agentplat plan`: each update the API server refuses (the rules of
// src/diff/immutable.ts, read from the Kubernetes 1.37 update validation) makes a replacement with
// its reason, the updates it permits do not; CRD changes that tighten the schema or drop versions
// are breaks; and what touches stored data is listed.
import { describe, expect, it } from 'vitest';
import { crdChanges, crdSetChanges } from '../../src/diff/crd-changes.ts';
import { KINDS_WITH_IMMUTABLE_FIELDS, quantity, refusedUpdates } from '../../src/diff/immutable.ts';
import { showChanges } from '../../src/diff/shown.ts';
import { masker } from '../../src/diff/mask.ts';
import { compareObjects, type ManifestObject } from '../../src/diff/objects.ts';
import { buildPlan, deleteCommand, imageMajor, type PlanSides } from '../../src/diff/plan.ts';

type Obj = Record<string, unknown>;

const obj = (apiVersion: string, kind: string, name: string, rest: Obj = {}, namespace: string | undefined = 'default'): Obj => ({
  apiVersion,
  kind,
  metadata: { name, ...(namespace ? { namespace } : {}) },
  ...rest,
});

const selector = (app: string) => ({ matchLabels: { app } });
const template = (image = 'x:1') => ({ metadata: { labels: { app: 'a' } }, spec: { containers: [{ name: 'c', image }] } });

/** One case per rule: an update the API server refuses, with the field it names. */
const REFUSED: { name: string; kind: string; apiVersion: string; old: Obj; next: Obj; field: string }[] = [
  { name: 'a Deployment\'s selector', apiVersion: 'apps/v1', kind: 'Deployment', old: { spec: { selector: selector('a'), template: template() } }, next: { spec: { selector: selector('b'), template: template() } }, field: 'spec.selector' },
  { name: 'a ReplicaSet\'s selector', apiVersion: 'apps/v1', kind: 'ReplicaSet', old: { spec: { selector: selector('a') } }, next: { spec: { selector: selector('b') } }, field: 'spec.selector' },
  { name: 'a DaemonSet\'s selector', apiVersion: 'apps/v1', kind: 'DaemonSet', old: { spec: { selector: selector('a') } }, next: { spec: { selector: selector('b') } }, field: 'spec.selector' },
  { name: 'a StatefulSet\'s selector', apiVersion: 'apps/v1', kind: 'StatefulSet', old: { spec: { selector: selector('a') } }, next: { spec: { selector: selector('b') } }, field: 'spec.selector' },
  {
    name: 'a StatefulSet\'s volumeClaimTemplates',
    apiVersion: 'apps/v1',
    kind: 'StatefulSet',
    old: { spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '1Gi' } } } }] } },
    next: { spec: { volumeClaimTemplates: [{ metadata: { name: 'data' }, spec: { resources: { requests: { storage: '2Gi' } } } }] } },
    field: 'spec.volumeClaimTemplates',
  },
  { name: 'a StatefulSet\'s serviceName', apiVersion: 'apps/v1', kind: 'StatefulSet', old: { spec: { serviceName: 'a' } }, next: { spec: { serviceName: 'b' } }, field: 'spec.serviceName' },
  { name: 'a StatefulSet\'s podManagementPolicy', apiVersion: 'apps/v1', kind: 'StatefulSet', old: {}, next: { spec: { podManagementPolicy: 'Parallel' } }, field: 'spec.podManagementPolicy' },
  { name: 'a Job\'s template', apiVersion: 'batch/v1', kind: 'Job', old: { spec: { template: template('x:1') } }, next: { spec: { template: template('x:2') } }, field: 'spec.template' },
  { name: 'a Job\'s selector', apiVersion: 'batch/v1', kind: 'Job', old: { spec: { selector: selector('a') } }, next: { spec: { selector: selector('b') } }, field: 'spec.selector' },
  { name: 'a Job\'s completions', apiVersion: 'batch/v1', kind: 'Job', old: { spec: { completions: 1 } }, next: { spec: { completions: 2 } }, field: 'spec.completions' },
  { name: 'a Service\'s clusterIP', apiVersion: 'v1', kind: 'Service', old: { spec: { clusterIP: '10.0.0.1' } }, next: { spec: { clusterIP: '10.0.0.2' } }, field: 'spec.clusterIP' },
  { name: 'a Service made headless', apiVersion: 'v1', kind: 'Service', old: { spec: { ports: [] } }, next: { spec: { clusterIP: 'None', ports: [] } }, field: 'spec.clusterIP' },
  { name: 'a Service\'s clusterIPs', apiVersion: 'v1', kind: 'Service', old: { spec: { clusterIPs: ['10.0.0.1'] } }, next: { spec: { clusterIPs: ['10.0.0.3'] } }, field: 'spec.clusterIPs' },
  { name: 'a Service\'s primary IP family', apiVersion: 'v1', kind: 'Service', old: { spec: { ipFamilies: ['IPv4'] } }, next: { spec: { ipFamilies: ['IPv6'] } }, field: 'spec.ipFamilies' },
  { name: 'a LoadBalancer Service\'s loadBalancerClass', apiVersion: 'v1', kind: 'Service', old: { spec: { type: 'LoadBalancer', loadBalancerClass: 'a/b' } }, next: { spec: { type: 'LoadBalancer', loadBalancerClass: 'a/c' } }, field: 'spec.loadBalancerClass' },
  { name: 'a claim\'s storage class', apiVersion: 'v1', kind: 'PersistentVolumeClaim', old: { spec: { storageClassName: 'a', resources: { requests: { storage: '1Gi' } } } }, next: { spec: { storageClassName: 'b', resources: { requests: { storage: '1Gi' } } } }, field: 'spec.storageClassName' },
  { name: 'a claim\'s access modes', apiVersion: 'v1', kind: 'PersistentVolumeClaim', old: { spec: { accessModes: ['ReadWriteOnce'] } }, next: { spec: { accessModes: ['ReadWriteMany'] } }, field: 'spec.accessModes' },
  { name: 'a smaller claim', apiVersion: 'v1', kind: 'PersistentVolumeClaim', old: { spec: { resources: { requests: { storage: '1Gi' } } } }, next: { spec: { resources: { requests: { storage: '500Mi' } } } }, field: 'spec.resources.requests.storage' },
  { name: 'a Secret\'s type', apiVersion: 'v1', kind: 'Secret', old: { type: 'Opaque' }, next: { type: 'kubernetes.io/tls' }, field: 'type' },
  { name: 'the data of an immutable Secret', apiVersion: 'v1', kind: 'Secret', old: { immutable: true, data: { a: 'MQ==' } }, next: { immutable: true, data: { a: 'Mg==' } }, field: 'data' },
  { name: 'the data of an immutable ConfigMap', apiVersion: 'v1', kind: 'ConfigMap', old: { immutable: true, data: { a: '1' } }, next: { immutable: true, data: { a: '2' } }, field: 'data' },
  { name: 'an immutable ConfigMap made mutable', apiVersion: 'v1', kind: 'ConfigMap', old: { immutable: true, data: { a: '1' } }, next: { data: { a: '1' } }, field: 'immutable' },
  { name: 'a RoleBinding\'s roleRef', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', old: { roleRef: { kind: 'Role', name: 'a' } }, next: { roleRef: { kind: 'Role', name: 'b' } }, field: 'roleRef' },
  { name: 'a ClusterRoleBinding\'s roleRef', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', old: { roleRef: { kind: 'ClusterRole', name: 'a' } }, next: { roleRef: { kind: 'ClusterRole', name: 'b' } }, field: 'roleRef' },
  { name: 'a CRD\'s scope', apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', old: { spec: { scope: 'Namespaced' } }, next: { spec: { scope: 'Cluster' } }, field: 'spec.scope' },
  { name: 'a CRD\'s kind', apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', old: { spec: { names: { kind: 'A' } } }, next: { spec: { names: { kind: 'B' } } }, field: 'spec.names.kind' },
];

/** Updates the API server accepts, on the same kinds. */
const PERMITTED: { name: string; kind: string; apiVersion: string; old: Obj; next: Obj }[] = [
  { name: 'a Deployment\'s template and replicas', apiVersion: 'apps/v1', kind: 'Deployment', old: { spec: { replicas: 1, selector: selector('a'), template: template('x:1') } }, next: { spec: { replicas: 2, selector: selector('a'), template: template('x:2') } } },
  { name: 'a StatefulSet\'s replicas, template, updateStrategy, retention policy, minReadySeconds and ordinals', apiVersion: 'apps/v1', kind: 'StatefulSet', old: { spec: { replicas: 1, template: template('x:1') } }, next: { spec: { replicas: 3, template: template('x:2'), updateStrategy: { type: 'OnDelete' }, persistentVolumeClaimRetentionPolicy: { whenDeleted: 'Delete' }, minReadySeconds: 5, ordinals: { start: 1 } } } },
  { name: 'a larger claim', apiVersion: 'v1', kind: 'PersistentVolumeClaim', old: { spec: { storageClassName: 'a', resources: { requests: { storage: '500Mi' } } } }, next: { spec: { storageClassName: 'a', resources: { requests: { storage: '1Gi' } } } } },
  { name: 'a Service\'s ports and type without a cluster IP in the manifest', apiVersion: 'v1', kind: 'Service', old: { spec: { ports: [{ port: 80 }] } }, next: { spec: { type: 'NodePort', ports: [{ port: 8080 }] } } },
  { name: 'a headless Service that changes IP family', apiVersion: 'v1', kind: 'Service', old: { spec: { clusterIP: 'None', ipFamilies: ['IPv4'] } }, next: { spec: { clusterIP: 'None', ipFamilies: ['IPv6'] } } },
  { name: 'a Service that becomes an ExternalName', apiVersion: 'v1', kind: 'Service', old: { spec: { clusterIP: '10.0.0.1' } }, next: { spec: { type: 'ExternalName', externalName: 'x.example' } } },
  { name: 'a mutable Secret\'s data', apiVersion: 'v1', kind: 'Secret', old: { data: { a: 'MQ==' } }, next: { data: { a: 'Mg==' } } },
  { name: 'a ConfigMap made immutable', apiVersion: 'v1', kind: 'ConfigMap', old: { data: { a: '1' } }, next: { immutable: true, data: { a: '1' } } },
  { name: 'a RoleBinding\'s subjects', apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', old: { roleRef: { kind: 'Role', name: 'a' }, subjects: [] }, next: { roleRef: { kind: 'Role', name: 'a' }, subjects: [{ kind: 'User', name: 'u' }] } },
  { name: 'a Job\'s parallelism', apiVersion: 'batch/v1', kind: 'Job', old: { spec: { parallelism: 1, template: template() } }, next: { spec: { parallelism: 2, template: template() } } },
];

const groupOf = (apiVersion: string) => (apiVersion.includes('/') ? apiVersion.split('/')[0]! : '');

/** A values change within revision B, rendered by `agentplat render --revision B -f old.yaml`. */
const WITHIN_B: PlanSides = { from: 'B', to: 'B', migrated: false, renderOld: 'agentplat render --revision B -f old.yaml' };

function planOf(oldObjects: Obj[], newObjects: Obj[], sides: PlanSides = WITHIN_B, source: (o: Obj) => string = () => 'test.yaml') {
  const wrap = (list: Obj[]): ManifestObject[] => list.map((object) => ({ source: source(object), object }));
  const comparison = compareObjects(wrap(oldObjects), wrap(newObjects));
  const shown = showChanges(comparison, masker(new Set(), () => undefined));
  return buildPlan(comparison, shown, wrap(oldObjects), wrap(newObjects), [], sides);
}

describe('plan: updates the API server refuses become replacements', () => {
  it.each(REFUSED)('$name: replaced, the refused field named with its reason and the delete command', ({ apiVersion, kind, old, next, field }) => {
    const plan = planOf([obj(apiVersion, kind, 'x', old)], [obj(apiVersion, kind, 'x', next)]);
    expect(plan.objects).toHaveLength(1);
    const [p] = plan.objects;
    expect(p!.action).toBe('replace');
    expect(p!.replacement!.refused.map((r) => r.field)).toContain(field);
    for (const r of p!.replacement!.refused) expect(r.reason).toMatch(/\w{4,}/);
    expect(p!.replacement!.deleteFirst).toBe(deleteCommand({ group: groupOf(apiVersion), kind, namespace: 'default', name: 'x' }));
    expect(plan.summary.attention).toBe(true);
  });

  it.each(PERMITTED)('$name: an update, nothing to re-create', ({ apiVersion, kind, old, next }) => {
    const plan = planOf([obj(apiVersion, kind, 'x', old)], [obj(apiVersion, kind, 'x', next)]);
    expect(plan.objects.map((o) => o.action)).toEqual(['update']);
    expect(plan.summary.replace).toBe(0);
  });

  it('every kind the table knows has a refused case here', () => {
    const covered = new Set(REFUSED.map((c) => `${groupOf(c.apiVersion)}/${c.kind}`));
    expect([...KINDS_WITH_IMMUTABLE_FIELDS].sort()).toEqual([...covered].sort());
  });

  it('a claim whose storage class is set where it had none is a replacement that says when a cluster accepts it', () => {
    const refused = refusedUpdates({ group: '', kind: 'PersistentVolumeClaim' }, { spec: {} }, { spec: { storageClassName: 'fast' } });
    expect(refused).toEqual([{ field: 'spec.storageClassName', reason: expect.stringContaining('default StorageClass') }]);
  });

  it('the delete command spells the resource as kubectl takes it, namespaced or not', () => {
    expect(deleteCommand({ group: 'apps', kind: 'Deployment', namespace: 'ns', name: 'd' })).toBe('kubectl delete deployment.apps/d -n ns');
    expect(deleteCommand({ group: '', kind: 'PersistentVolumeClaim', namespace: 'ns', name: 'c' })).toBe('kubectl delete persistentvolumeclaim/c -n ns');
    expect(deleteCommand({ group: 'rbac.authorization.k8s.io', kind: 'ClusterRoleBinding', namespace: '', name: 'b' })).toBe('kubectl delete clusterrolebinding.rbac.authorization.k8s.io/b');
  });

  it('quantities compare by value across suffixes', () => {
    expect(quantity('1Gi')).toBe(2 ** 30);
    expect(quantity('500Mi')! < quantity('1G')!).toBe(true);
    expect(quantity('1e3')).toBe(1000);
    expect(quantity('250m')).toBe(0.25);
    expect(quantity('lots')).toBeUndefined();
  });
});

describe('plan: created, updated and deleted objects', () => {
  it('sorts each object into create, update or delete, and counts what is unchanged', () => {
    const cm = (name: string, v: string) => obj('v1', 'ConfigMap', name, { data: { v } });
    const plan = planOf([cm('same', '1'), cm('changed', '1'), cm('gone', '1')], [cm('same', '1'), cm('changed', '2'), cm('new', '1')]);
    expect(plan.objects.map((o) => `${o.action} ${o.name}`).sort()).toEqual(['create new', 'delete gone', 'update changed']);
    expect(plan.objects.find((o) => o.name === 'changed')!.changes).toEqual([{ path: 'data.v', op: 'replace', from: '1', to: '2' }]);
    expect(plan.summary).toMatchObject({ create: 1, update: 1, delete: 1, replace: 0, unchanged: 1 });
  });

  it('creations and updates alone need no attention', () => {
    const cm = (name: string, v: string) => obj('v1', 'ConfigMap', name, { data: { v } });
    const plan = planOf([cm('same', '1'), cm('changed', '1')], [cm('same', '1'), cm('changed', '2'), cm('new', '1')]);
    expect(plan.deletions).toEqual([]);
    expect(plan.summary).toMatchObject({ create: 1, update: 1, delete: 0, attention: false });
  });
});

describe('plan: deleted objects always need attention, with why and how to keep them', () => {
  const AGENT_SOURCE = 'agentplat/charts/rollouts-agent/templates/agent.yaml';
  const agent = (name: string) => obj('agentplat.dev/v1alpha2', 'Agent', name, { spec: { type: 'Declarative' } });
  const cm = (name: string) => obj('v1', 'ConfigMap', name, { data: { a: '1' } });
  const UPGRADE: PlanSides = { from: 'A', to: 'B', migrated: true, renderOld: 'agentplat render --revision A -f values.yaml' };

  it('a bundled agent revision B does not ship: deleted because of the revision, kept by applying its render of A yourself', () => {
    const plan = planOf([agent('rollouts-agent'), cm('kept')], [cm('kept')], UPGRADE, (o) => ((o.kind === 'Agent') ? AGENT_SOURCE : 'agentplat/templates/x.yaml'));
    expect(plan.summary).toMatchObject({ delete: 1, decisions: 0, dataChanges: 0, crdBreaks: 0, replace: 0, attention: true });
    expect(plan.deletions).toEqual([
      {
        group: 'agentplat.dev', kind: 'Agent', namespace: 'default', name: 'rollouts-agent',
        reason: 'revision',
        why: `revision B bundles no agents: nothing in revision B renders ${AGENT_SOURCE}, whatever the values`,
        keep: expect.stringContaining('apply it yourself after the upgrade, outside the release: agentplat render --revision A -f values.yaml --show-only charts/rollouts-agent/templates/agent.yaml | kubectl apply --server-side --field-manager agentplat -f -'),
      },
    ]);
    expect(plan.deletions[0]!.keep).toContain('kubectl get agent.agentplat.dev/rollouts-agent -n default -o yaml');
  });

  it('any kind the values turn off (a ConfigMap, a cluster-scoped ClusterRole): deleted because of the values, with how to keep it', () => {
    const role = obj('rbac.authorization.k8s.io/v1', 'ClusterRole', 'reader', { rules: [] }, undefined);
    const plan = planOf([cm('gone'), role], []);
    expect(plan.summary).toMatchObject({ delete: 2, attention: true });
    expect(plan.deletions.map((d) => [d.kind, d.reason])).toEqual([['ConfigMap', 'values'], ['ClusterRole', 'values']]);
    for (const d of plan.deletions) {
      expect(d.why).toBe("the new side's values do not render it (test.yaml renders it with the old side's)");
      expect(d.keep).toContain('agentplat render --revision B -f old.yaml --show-only test.yaml | kubectl apply --server-side --field-manager agentplat -f -');
    }
    // An upgrade whose migrated values turn an object off says so.
    expect(planOf([cm('gone')], [], UPGRADE).deletions[0]!.why).toMatch(/^the values migrated to revision B do not render it/);
  });

  it('an object the new side renders under another name from the same source is a deletion that names its successor', () => {
    const plan = planOf([cm('old-name'), cm('other')], [cm('new-name'), cm('other')]);
    expect(plan.summary).toMatchObject({ create: 1, delete: 1, attention: true });
    expect(plan.deletions).toEqual([expect.objectContaining({ name: 'old-name', reason: 'renamed', renamedTo: 'new-name', why: 'renamed: the new side renders ConfigMap default/new-name from test.yaml in its place' })]);
    expect(plan.deletions[0]!.keep).toMatch(/^point what refers to old-name by name .* at new-name/);
  });

  it('a migration decision alone still needs attention', () => {
    const cm2 = obj('v1', 'ConfigMap', 'same', { data: { a: '1' } });
    const wrap = [{ source: 'test.yaml', object: cm2 }];
    const comparison = compareObjects(wrap, wrap);
    const plan = buildPlan(comparison, showChanges(comparison, masker(new Set(), () => undefined)), wrap, wrap, [{ file: 'v.yaml', path: 'rollouts-agent', kind: 'decide', what: 'removed', why: 'x' }], UPGRADE);
    expect(plan.summary).toMatchObject({ delete: 0, decisions: 1, attention: true });
  });

  it('an object re-created because an update is refused is a replacement, not a deletion', () => {
    const claim = (cls: string) => obj('v1', 'PersistentVolumeClaim', 'c', { spec: { storageClassName: cls } });
    const plan = planOf([claim('a')], [claim('b')]);
    expect(plan.summary).toMatchObject({ replace: 1, delete: 0 });
    expect(plan.deletions).toEqual([]);
  });
});

describe('plan: changes that touch data', () => {
  const db = (rest: Obj, kind = 'Deployment', apiVersion = 'apps/v1') => ({ ...obj(apiVersion, kind, 'db'), ...rest, metadata: { name: 'db', namespace: 'default', labels: { 'app.kubernetes.io/component': 'database' } } });
  const pod = (image: string, claim = 'db') => ({ spec: { selector: selector('db'), template: { spec: { volumes: [{ name: 'data', persistentVolumeClaim: { claimName: claim } }], containers: [{ name: 'postgresql', image }] } } } });

  it('a new major version of the bundled database\'s image is a data change; a minor one is not', () => {
    expect(planOf([db(pod('postgres:17.5'))], [db(pod('postgres:18.3-alpine'))]).data.map((d) => d.what)).toEqual(['image major version 17 → 18 (postgresql)']);
    expect(planOf([db(pod('postgres:18.1'))], [db(pod('postgres:18.3'))]).data).toEqual([]);
  });

  it('the bundled database moved to another volume is a data change', () => {
    expect(planOf([db(pod('postgres:18', 'db'))], [db(pod('postgres:18', 'db-2'))]).data.map((d) => d.what)).toEqual(['volumes changed']);
  });

  it('changed credentials of the bundled database are a data change, and the Secret is masked in the plan', () => {
    const plan = planOf([db({ data: { POSTGRES_PASSWORD: 'YQ==' } }, 'Secret', 'v1')], [db({ data: { POSTGRES_PASSWORD: 'Yg==' } }, 'Secret', 'v1')]);
    expect(plan.data.map((d) => d.what)).toEqual(['credentials changed']);
    expect(JSON.stringify(plan.objects)).not.toMatch(/YQ==|Yg==/);
  });

  it('a re-created or deleted claim, and a re-created StatefulSet with claim templates, touch data', () => {
    const claim = (cls: string) => obj('v1', 'PersistentVolumeClaim', 'c', { spec: { storageClassName: cls } });
    expect(planOf([claim('a')], [claim('b')]).data.map((d) => `${d.kind} ${d.what}`)).toEqual(['PersistentVolumeClaim re-created']);
    expect(planOf([claim('a')], []).data.map((d) => `${d.kind} ${d.what}`)).toEqual(['PersistentVolumeClaim deleted']);
    const sts = (svc: string) => obj('apps/v1', 'StatefulSet', 's', { spec: { serviceName: svc, volumeClaimTemplates: [{ metadata: { name: 'data' } }] } });
    expect(planOf([sts('a')], [sts('b')]).data.map((d) => `${d.kind} ${d.what}`)).toEqual(['StatefulSet re-created']);
  });

  it('image major versions are read from the tag', () => {
    expect(imageMajor('docker.io/library/postgres:18.3-alpine')).toBe(18);
    expect(imageMajor('registry:5000/pg:v16@sha256:abc')).toBe(16);
    expect(imageMajor('postgres')).toBeUndefined();
  });
});

describe('plan: CRD changes', () => {
  const crd = (versions: Obj[], extra: Obj = {}): Obj =>
    obj('apiextensions.k8s.io/v1', 'CustomResourceDefinition', 'things.example.dev', { spec: { group: 'example.dev', scope: 'Namespaced', names: { kind: 'Thing', plural: 'things' }, versions, ...extra } }, undefined);
  const version = (name: string, schema: Obj, flags: Obj = { served: true, storage: true }) => ({ name, ...flags, schema: { openAPIV3Schema: schema } });
  const spec = (props: Obj, extra: Obj = {}) => ({ type: 'object', properties: { spec: { type: 'object', properties: props, ...extra } } });

  it('a removed storage version is a break that names the stored objects and storedVersions', () => {
    const changes = crdChanges(crd([version('v1', spec({})), version('v2', spec({}), { served: true, storage: false })]), crd([version('v2', spec({}))]));
    const removed = changes.find((c) => c.change === 'version v1 removed')!;
    expect(removed.severity).toBe('break');
    expect(removed.breaks).toMatch(/stored at v1.*storedVersions/);
    expect(changes.find((c) => c.change.startsWith('storage version'))).toMatchObject({ change: 'storage version v1 → v2', severity: 'note' });
  });

  it('a version no longer served is a break; an added one is a note', () => {
    const changes = crdChanges(crd([version('v1', spec({}))]), crd([version('v1', spec({}), { served: false, storage: true }), version('v2', spec({}), { served: true, storage: false })]));
    expect(changes.map((c) => [c.change, c.severity])).toEqual([
      ['version v1 no longer served', 'break'],
      ['version v2 added', 'note'],
    ]);
  });

  it('tightened schemas are breaks at their field: removed field, type, enum, bounds, pattern, required, new CEL rule', () => {
    const before = spec({ a: { type: 'string' }, b: { type: 'string' }, c: { type: 'string', enum: ['x', 'y'] }, d: { type: 'integer', maximum: 10 }, e: { type: 'string' }, f: { type: 'string' }, g: { type: 'array', items: { type: 'string' } } });
    const after = spec(
      { b: { type: 'integer' }, c: { type: 'string', enum: ['x'] }, d: { type: 'integer', maximum: 5 }, e: { type: 'string', pattern: '^[a-z]+$' }, f: { type: 'string' }, g: { type: 'array', items: { type: 'string', maxLength: 3 } } },
      { required: ['f'], 'x-kubernetes-validations': [{ rule: 'self.f != self.e' }] },
    );
    const changes = crdChanges(crd([version('v1', before)]), crd([version('v1', after)]));
    expect(changes.map((c) => `${c.path}: ${c.change}`)).toEqual([
      'spec.f: now required',
      'spec: new CEL rule: self.f != self.e',
      'spec.a: field removed',
      'spec.b: type "string" → "integer"',
      'spec.c: enum values removed: "y"',
      'spec.d: maximum lowered: 10 → 5',
      'spec.e: pattern added: ^[a-z]+$',
      'spec.g[]: maxLength 3 added',
    ]);
    expect(changes.every((c) => c.severity === 'break' && c.kind === 'Thing' && c.version === 'v1')).toBe(true);
  });

  it('loosened schemas and new optional fields break nothing', () => {
    const before = spec({ a: { type: 'string', enum: ['x'] }, d: { type: 'integer', maximum: 5 } }, { required: ['a'] });
    const after = spec({ a: { type: 'string', enum: ['x', 'y'] }, d: { type: 'integer', maximum: 10 }, z: { type: 'string' } });
    expect(crdChanges(crd([version('v1', before)]), crd([version('v1', after)]))).toEqual([]);
  });

  it('a CRD break alone makes the plan need attention', () => {
    const plan = planOf([crd([version('v1', spec({ a: { type: 'string' } }))])], [crd([version('v1', spec({}))])]);
    expect(plan.objects.map((o) => o.action)).toEqual(['update']);
    expect(plan.summary).toMatchObject({ crdBreaks: 1, replace: 0, dataChanges: 0, attention: true });
  });

  it('a CRD removed from the set is a break: its resources go with it', () => {
    const changes = crdSetChanges([crd([version('v1', spec({}))])], []);
    expect(changes).toEqual([expect.objectContaining({ crd: 'things.example.dev', change: 'CustomResourceDefinition removed', severity: 'break' })]);
  });

  it('a CRD whose scope changes is replaced, and deleting it loses every resource of its kind', () => {
    const plan = planOf([crd([version('v1', spec({}))])], [crd([version('v1', spec({}))], { scope: 'Cluster' })]);
    expect(plan.objects[0]!.action).toBe('replace');
    expect(plan.objects[0]!.replacement!.data).toMatch(/every Thing in the cluster is deleted/);
    expect(plan.data.map((d) => d.what)).toEqual(['re-created']);
  });
});
