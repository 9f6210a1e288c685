// The preflight of `diff --cluster` (src/diff/live.ts) against an in-memory cluster
// (fake-cluster.ts): what it reports for conflicts, refusals, objects the render dropped, drift,
// --ignore rules and secrets, in which order it asks, and that it only ever sends dry runs.
import { describe, expect, it } from 'vitest';
import { Chalk } from 'chalk';
import { parseIgnoreRule, preflight, type IgnoreRule, type Preflight, type PreflightRequest } from '../../src/diff/live.ts';
import { formatPreflightText, pruneNote, type ClusterInfo } from '../../src/output/diff/live-format.ts';
import { masker } from '../../src/diff/mask.ts';
import { showChanges } from '../../src/diff/shown.ts';
import { redact } from '../../src/problems/secrets.ts';
import { conflict, FakeCluster, type Obj } from './fake-cluster.ts';
import type { ApiRefusal } from '../../src/cluster/client.ts';

const LABELS = { 'app.kubernetes.io/instance': 'agentplat', 'app.kubernetes.io/managed-by': 'agentplat' };

function deployment(replicas: number, image = 'app:1'): Obj {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'agentplat-controller', namespace: 'agentplat', labels: { ...LABELS } },
    spec: { replicas, template: { spec: { containers: [{ name: 'controller', image }] } } },
  };
}

function configMap(name: string, data: Record<string, string>): Obj {
  return { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'agentplat', labels: { ...LABELS } }, data };
}

function secret(name: string, data: Record<string, string>): Obj {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'agentplat', labels: { ...LABELS } }, type: 'Opaque', stringData: data };
}

function cluster(): FakeCluster {
  return new FakeCluster().serve('v1', 'ConfigMap').serve('v1', 'Secret').serve('v1', 'Endpoints').serve('apps/v1', 'Deployment').serve('apiextensions.k8s.io/v1', 'CustomResourceDefinition', false);
}

/** The managedFields entry of one manager owning the given fieldsV1 set. */
function managed(manager: string, operation: 'Apply' | 'Update', fieldsV1: unknown): unknown {
  return { manager, operation, apiVersion: 'v1', time: '2026-11-26T10:00:00Z', fieldsType: 'FieldsV1', fieldsV1 };
}

function rules(...texts: string[]): IgnoreRule[] {
  return texts.map((t) => {
    const r = parseIgnoreRule(t);
    if (typeof r === 'string') throw new Error(r);
    return r;
  });
}

function request(desired: Obj[], extra: Partial<PreflightRequest> = {}, secrets: string[] = []): PreflightRequest {
  const set = new Set(secrets);
  return {
    desired: desired.map((object, i) => ({ source: `agentplat/templates/t${i}.yaml`, object })),
    release: 'agentplat',
    fieldManager: 'agentplat',
    ignore: [],
    mask: masker(set, () => undefined),
    redact: (t) => redact(t, set),
    ...extra,
  };
}

describe('diff --cluster preflight', () => {
  it('an object that matches the live one is unchanged; a new one is created; a changed field is listed by path', async () => {
    const c = cluster().put(configMap('same', { a: '1' })).put(deployment(1));
    const p = await preflight(c, request([configMap('same', { a: '1' }), configMap('new', { b: '2' }), deployment(2)]));
    expect(p.comparison.unchanged).toBe(1);
    expect(p.comparison.changes.map((ch) => [ch.status, ch.kind, ch.name])).toEqual([
      ['added', 'ConfigMap', 'new'],
      ['changed', 'Deployment', 'agentplat-controller'],
    ]);
    const shown = showChanges(p.comparison, masker(new Set(), () => undefined));
    expect(shown[1]!.fields.map((f) => [f.path, f.from, f.to])).toEqual([['spec.replicas', 1, 2]]);
    // Server fields (uid, resourceVersion, creationTimestamp) are no change.
    expect(JSON.stringify(shown)).not.toMatch(/resourceVersion|creationTimestamp|"uid"/);
  });

  it('sends every object as a dry run under the field manager, never forced unless the server reported a conflict, CRDs first', async () => {
    const crd: Obj = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'agents.agentplat.dev' }, spec: { group: 'agentplat.dev', names: { kind: 'Agent' } } };
    const c = cluster().put(deployment(1));
    c.refusals.set('apps/Deployment agentplat/agentplat-controller', conflict('ops', '.spec.replicas'));
    await preflight(c, request([configMap('a', {}), deployment(2), crd], { fieldManager: 'team-apply' }));
    const applies = c.requests.filter((r) => r.verb === 'apply');
    expect(applies.map((r) => [r.what, r.force])).toEqual([
      ['apiextensions.k8s.io/CustomResourceDefinition /agents.agentplat.dev', false],
      ['/ConfigMap agentplat/a', false],
      ['apps/Deployment agentplat/agentplat-controller', false],
      ['apps/Deployment agentplat/agentplat-controller', true],
    ]);
    expect(new Set(applies.map((r) => r.fieldManager))).toEqual(new Set(['team-apply']));
  });

  it('conflicts with another server-side apply manager (the release applied as "kubectl") get one note naming --field-manager; an Update manager\'s do not', async () => {
    const applied = (field: string): ApiRefusal => ({ status: 409, reason: 'Conflict', message: `Apply failed with 1 conflict: conflict with "kubectl": ${field}`, causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl"', field }] });
    const c = cluster().put(deployment(3)).put(configMap('a', { x: '1' }));
    c.refusals.set('apps/Deployment agentplat/agentplat-controller', applied('.spec.replicas'));
    c.refusals.set('/ConfigMap agentplat/a', applied('.data.x'));
    const p = await preflight(c, request([deployment(1), configMap('a', { x: '2' })]));
    expect(p.conflicts.map((x) => `${x.name} ${x.manager} ${x.path}`).sort()).toEqual(['a kubectl data.x', 'agentplat-controller kubectl spec.replicas']);
    expect(p.notes).toEqual(['2 conflicts are with fields that "kubectl" applied (server-side apply): if you apply this release as "kubectl" (kubectl apply --server-side without --field-manager), run the preflight with --field-manager kubectl; an apply as "agentplat" is refused on them unless forced']);
    const edited = cluster().put(deployment(3));
    edited.refusals.set('apps/Deployment agentplat/agentplat-controller', conflict('kubectl-edit', '.spec.replicas'));
    expect((await preflight(edited, request([deployment(1)]))).notes).toEqual([]);
  });

  it('a 409 conflict names the manager and the field; the change shown is what --force-conflicts would do', async () => {
    const c = cluster().put(deployment(3));
    c.refusals.set('apps/Deployment agentplat/agentplat-controller', conflict('kube-controller-manager', '.spec.replicas'));
    const p = await preflight(c, request([deployment(1)]));
    expect(p.conflicts).toEqual([{ group: 'apps', kind: 'Deployment', namespace: 'agentplat', name: 'agentplat-controller', manager: 'kube-controller-manager', path: 'spec.replicas', message: 'conflict with "kube-controller-manager" using apps/v1' }]);
    expect(p.comparison.changes.map((ch) => ch.status)).toEqual(['changed']);
    expect(p.rejections).toEqual([]);
  });

  it('an admission refusal is reported per object with the server\'s message, secret values masked, and the other objects still checked', async () => {
    const c = cluster();
    c.refusals.set('/ConfigMap agentplat/bad', { status: 422, reason: 'Invalid', message: 'ConfigMap "bad" is invalid: data[k]: Invalid value: "hunter2-secret": denied by policy', causes: [{ field: 'data[k]', message: 'Invalid value: "hunter2-secret"', reason: 'FieldValueInvalid' }] });
    const p = await preflight(c, request([configMap('bad', { k: 'hunter2-secret' }), configMap('good', {})], {}, ['hunter2-secret']));
    expect(p.rejections).toHaveLength(1);
    expect(p.rejections[0]).toMatchObject({ name: 'bad', code: 422, reason: 'Invalid', causes: [{ field: 'data[k]', message: 'Invalid value: "********"' }] });
    expect(p.rejections[0]!.message).toBe('ConfigMap "bad" is invalid: data[k]: Invalid value: "********": denied by policy');
    expect(p.comparison.changes.map((ch) => ch.name)).toEqual(['good']);
  });

  it('objects of the release in the cluster that the render no longer holds are listed as removed; controllers\' copies and other releases are not', async () => {
    const other = configMap('other-release', {});
    (other.metadata.labels as Record<string, string>)['app.kubernetes.io/instance'] = 'other';
    const endpoints: Obj = { apiVersion: 'v1', kind: 'Endpoints', metadata: { name: 'agentplat-ui', namespace: 'agentplat', labels: { ...LABELS } } };
    const owned = configMap('made-by-a-controller', {});
    owned.metadata.ownerReferences = [{ apiVersion: 'apps/v1', kind: 'Deployment', name: 'x', uid: 'u' }];
    const c = cluster().put(configMap('kept', {})).put(configMap('dropped', {})).put(other).put(endpoints).put(owned);
    const p = await preflight(c, request([configMap('kept', {})]));
    expect(p.comparison.changes.map((ch) => [ch.status, ch.name])).toEqual([['removed', 'dropped']]);
  });

  it('with --applyset the members are found by the set\'s label, and every rendered object but a CRD carries it to the server', async () => {
    const member = configMap('member', {});
    (member.metadata.labels as Record<string, string>)['applyset.kubernetes.io/part-of'] = 'applyset-xyz-v1';
    const c = cluster().put(member).put(configMap('labelled-but-not-member', {}));
    const seen: Obj[] = [];
    const apply = c.applyDryRun.bind(c);
    c.applyDryRun = async (o, opts) => (seen.push(o), apply(o, opts));
    const crd: Obj = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'agents.agentplat.dev' }, spec: { group: 'agentplat.dev', names: { kind: 'Agent' } } };
    const p = await preflight(c, request([configMap('new', {}), crd], { applySetId: 'applyset-xyz-v1' }));
    expect(p.comparison.changes.filter((ch) => ch.status === 'removed').map((ch) => ch.name)).toEqual(['member']);
    expect(seen.map((o) => (o.metadata.labels as Record<string, string> | undefined)?.['applyset.kubernetes.io/part-of'])).toEqual([undefined, 'applyset-xyz-v1']);
  });

  it('with --applyset, objects of the release the render dropped that are no members of the set (applied without it) are named in a note: kubectl --prune leaves them', async () => {
    const member = configMap('member', {});
    (member.metadata.labels as Record<string, string>)['applyset.kubernetes.io/part-of'] = 'applyset-xyz-v1';
    const c = cluster().put(member).put(configMap('kept', {})).put(configMap('installed-before-the-set', {})).put(deployment(1));
    const p = await preflight(c, request([configMap('kept', {})], { applySetId: 'applyset-xyz-v1' }));
    expect(p.comparison.changes.filter((ch) => ch.status === 'removed').map((ch) => ch.name)).toEqual(['member']);
    expect(p.notes).toEqual([
      '2 objects of the release are not in the render and not in the ApplySet (applied without --applyset): kubectl apply --prune --applyset leaves them; delete them by hand, or run the preflight without --applyset to see them as not in the render: ConfigMap agentplat/installed-before-the-set, Deployment.apps agentplat/agentplat-controller',
    ]);
    expect((await preflight(c, request([configMap('kept', {}), configMap('installed-before-the-set', {}), deployment(1)], { applySetId: 'applyset-xyz-v1' }))).notes).toEqual([]);
  });

  it('a kind the user may not list is a note, not a failure', async () => {
    const c = cluster();
    c.forbiddenLists.add('/Secret');
    const p = await preflight(c, request([configMap('a', {})]));
    expect(p.notes).toEqual(['not allowed to list Secret: objects of the release there that the render no longer holds are not shown']);
  });

  it('drift: a field the render sets that another manager changed is reported with that manager; a field still the field manager\'s own is not', async () => {
    const live = deployment(3, 'app:2');
    const c = cluster().put(live, [
      managed('agentplat', 'Apply', { 'f:metadata': { 'f:labels': { 'f:app.kubernetes.io/instance': {}, 'f:app.kubernetes.io/managed-by': {} } }, 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"controller"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } }),
      managed('kubectl-edit', 'Update', { 'f:spec': { 'f:replicas': {} } }),
    ]);
    // The render sets replicas 1 (kubectl-edit made it 3) and image app:1 (agentplat applied app:2 before: a change, not drift).
    const p = await preflight(c, request([deployment(1, 'app:1')]));
    expect(p.drift).toEqual([{ group: 'apps', kind: 'Deployment', namespace: 'agentplat', name: 'agentplat-controller', path: 'spec.replicas', live: 3, render: 1, managers: [{ manager: 'kubectl-edit', operation: 'Update', time: '2026-11-26T10:00:00Z' }] }]);
  });

  it('a quantity the server stores in its canonical form (2 as "2", "1000m" as "1", "1024Mi" as "1Gi") is no drift; another quantity is', async () => {
    const withResources = (limits: Record<string, unknown>, requests: Record<string, unknown>): Obj => {
      const d = deployment(1);
      (d.spec as { template: { spec: { containers: Record<string, unknown>[] } } }).template.spec.containers[0]!.resources = { limits, requests };
      return d;
    };
    // Applied by kubectl's own field manager (not agentplat's), as the server stored it.
    const c = cluster().put(withResources({ cpu: '2', memory: '1Gi', 'nvidia.com/gpu': '1' }, { cpu: '1', memory: '300Mi' }), [
      managed('kubectl', 'Apply', { 'f:spec': { 'f:replicas': {}, 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"controller"}': { 'f:image': {}, 'f:resources': { 'f:limits': { 'f:cpu': {}, 'f:memory': {}, 'f:nvidia.com/gpu': {} }, 'f:requests': { 'f:cpu': {}, 'f:memory': {} } } } } } } } }),
    ]);
    const p = await preflight(c, request([withResources({ cpu: 2, memory: '1024Mi', 'nvidia.com/gpu': 1 }, { cpu: '1000m', memory: '200Mi' })]));
    expect(p.drift.map((d) => [d.path, d.live, d.render])).toEqual([['spec.template.spec.containers[name=controller].resources.requests.memory', '300Mi', '200Mi']]);
  });

  it('drift is measured against what was applied last when the old side is another render', async () => {
    const c = cluster().put(configMap('cm', { mode: 'edited', level: 'info' }), [managed('agentplat', 'Apply', { 'f:data': { 'f:level': {} } }), managed('kubectl-edit', 'Update', { 'f:data': { 'f:mode': {} } })]);
    // Applied last: mode=a. The new render sets mode=b: someone changed a to edited in between.
    const p = await preflight(c, request([configMap('cm', { mode: 'b', level: 'info' })], { lastApplied: [{ source: 'x', object: configMap('cm', { mode: 'a', level: 'info' }) }] }));
    expect(p.drift.map((d) => [d.path, d.live, d.render])).toEqual([['data.mode', 'edited', 'a']]);
  });

  it('a field the render applied last that someone removed by hand is drift with no manager; empty values the server does not store are not', async () => {
    const c = cluster().put(configMap('cm', {}), [managed('agentplat', 'Apply', { 'f:metadata': { 'f:labels': { 'f:app.kubernetes.io/instance': {} } } })]);
    const applied = configMap('cm', { gone: 'x' });
    applied.metadata.annotations = {};
    const p = await preflight(c, request([configMap('cm', { gone: 'y' })], { lastApplied: [{ source: 'x', object: applied }] }));
    expect(p.drift.map((d) => [d.path, d.live, d.render, d.managers])).toEqual([['data.gone', undefined, 'x', []]]);
  });

  it('with one render, a field the render adds that nobody wrote, or whose live value the server defaulted, is a change, not drift: drift is what another manager wrote', async () => {
    // Installed as revision A (agentplat owns what A sets); the render is B, which adds data.new and sets a field the server defaulted.
    const live = deployment(3);
    (live.spec as Record<string, unknown>).strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: '25%' } };
    const c = cluster().put(live, [
      managed('agentplat', 'Apply', { 'f:metadata': { 'f:labels': { 'f:app.kubernetes.io/instance': {}, 'f:app.kubernetes.io/managed-by': {} } }, 'f:spec': { 'f:template': { 'f:spec': { 'f:containers': { 'k:{"name":"controller"}': { '.': {}, 'f:image': {}, 'f:name': {} } } } } } }),
      managed('kubectl', 'Update', { 'f:spec': { 'f:replicas': {} } }),
    ]);
    const desired = deployment(1);
    (desired.spec as Record<string, unknown>).strategy = { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1 } };
    (desired.spec as Record<string, unknown>).minReadySeconds = 5;
    desired.metadata.annotations = { 'example.com/new': 'x' };
    const p = await preflight(c, request([desired]));
    expect(p.drift.map((d) => [d.path, d.live, d.render, d.managers.map((m) => m.manager)])).toEqual([['spec.replicas', 3, 1, ['kubectl']]]);
    expect(p.comparison.changes.map((ch) => ch.status)).toEqual(['changed']);
  });

  it('drift written through the scale subresource (kubectl scale, an autoscaler) names it, and so does the conflict the apply meets', async () => {
    const scale = { manager: 'kubectl', operation: 'Update', apiVersion: 'apps/v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:replicas': {} } }, subresource: 'scale' };
    const c = cluster().put(deployment(3), [scale]);
    c.refusals.set('apps/Deployment agentplat/agentplat-controller', {
      status: 409,
      reason: 'Conflict',
      message: 'Apply failed with 1 conflict: conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas',
      causes: [{ reason: 'FieldManagerConflict', message: 'conflict with "kubectl" with subresource "scale" using apps/v1', field: '.spec.replicas' }],
    });
    const p = await preflight(c, request([deployment(1)]));
    expect(p.drift.map((d) => d.managers)).toEqual([[{ manager: 'kubectl', operation: 'Update', subresource: 'scale' }]]);
    expect(p.conflicts.map((x) => [x.manager, x.subresource, x.path])).toEqual([['kubectl', 'scale', 'spec.replicas']]);
    const text = formatPreflightText([], p, { context: 'c', server: 'https://x', fieldManager: 'agentplat' }, new Chalk({ level: 0 }), { revision: 'B' });
    expect(text).toBe(
      'conflict Deployment.apps agentplat/agentplat-controller: spec.replicas is owned by "kubectl" through the scale subresource: the apply is refused unless forced (--force-conflicts takes the field over)\n' +
        'drift Deployment.apps agentplat/agentplat-controller: spec.replicas: live 3, the render sets 1; written by "kubectl" (Update through the scale subresource)\n',
    );
  });

  it('secrets are masked in changes and in drift: a changed secret shows as changed without its value', async () => {
    // Stored as the server stores a Secret: stringData is write-only, its values land base64 in data.
    const stored = secret('db', {});
    delete stored.stringData;
    stored.data = { password: Buffer.from('old-pass').toString('base64') };
    const c = cluster().put(stored, [managed('kubectl-edit', 'Update', { 'f:data': { 'f:password': {} } })]);
    const p = await preflight(c, request([secret('db', { password: 'new-pass' })], {}, ['new-pass']));
    const shown = showChanges(p.comparison, masker(new Set(['new-pass']), () => undefined));
    const text = JSON.stringify([shown.map((s) => [s.old, s.new, s.fields, s.lines]), p.drift]);
    for (const plain of ['old-pass', 'new-pass']) {
      expect(text).not.toContain(plain);
      expect(text).not.toContain(Buffer.from(plain).toString('base64'));
    }
    expect(p.drift.map((d) => [d.path, d.live, d.render])).toEqual([['data.password', '******** (old value)', '******** (new value)']]);
  });

  it('--ignore KIND/NAME:PATH leaves a field out of changes and drift, globs in the name; a rule that matches nothing gets a note', async () => {
    const c = cluster().put(deployment(3), [managed('hpa', 'Update', { 'f:spec': { 'f:replicas': {} } })]);
    const p = await preflight(c, request([deployment(1)], { ignore: rules('Deployment/agentplat-*:spec.replicas', 'ConfigMap/none:data') }));
    expect(p.drift).toEqual([]);
    expect(p.comparison.changes).toEqual([]);
    expect(p.comparison.unchanged).toBe(1);
    expect(p.notes).toEqual(['--ignore ConfigMap/none:data: matched no field of any object']);
  });

  it('--ignore never hides a conflict on a field the render still sets: the apply meets it, so it is reported with the rule and a note on how to stop setting the field or take it over', async () => {
    const c = cluster().put(deployment(3), [managed('hpa', 'Update', { 'f:spec': { 'f:replicas': {} } })]);
    c.refusals.set('apps/Deployment agentplat/agentplat-controller', conflict('hpa', '.spec.replicas'));
    const p = await preflight(c, request([deployment(1)], { ignore: rules('Deployment/agentplat-*:spec.replicas') }));
    expect(p.conflicts.map((x) => [x.name, x.manager, x.path, x.ignoredBy])).toEqual([['agentplat-controller', 'hpa', 'spec.replicas', ['Deployment/agentplat-*:spec.replicas']]]);
    expect(p.drift).toEqual([]);
    expect(p.notes).toEqual([
      '--ignore Deployment/agentplat-*:spec.replicas leaves out changes and drift, not conflicts: the render still sets spec.replicas of Deployment.apps agentplat/agentplat-controller (owned by "hpa"; the render sets 1), so kubectl apply --server-side refuses that object; make the render leave the field out, or apply with --force-conflicts to take the field over (it is then set to the render\'s value)',
    ]);
  });

  it('conflicts, changes and drift spell a field one way, the server\'s dotted keys read against the object; --ignore takes either spelling for each', async () => {
    const cm = (v: string): Obj => configMap('ui', { 'config.json': v });
    const edited = managed('hand', 'Update', { 'f:data': { 'f:config.json': {} } });
    const server = conflict('hand', '.data.config.json');
    const run = async (...ignore: string[]) => {
      const c = cluster().put(cm('{}'), [edited]);
      c.refusals.set('/ConfigMap agentplat/ui', server);
      return preflight(c, request([cm('{"a":1}')], { ignore: rules(...ignore) }));
    };
    const p = await run();
    const shown = showChanges(p.comparison, masker(new Set(), () => undefined));
    expect([p.conflicts.map((x) => x.path), p.drift.map((d) => d.path), shown.flatMap((s) => s.fields.map((f) => f.path))]).toEqual([['data["config.json"]'], ['data["config.json"]'], ['data["config.json"]']]);
    for (const spelling of ['data.config.json', 'data["config.json"]', '.data.config.json', 'data']) {
      const q = await run(`ConfigMap/ui:${spelling}`);
      expect([q.drift, q.comparison.changes, q.conflicts.map((x) => x.ignoredBy)], spelling).toEqual([[], [], [[`ConfigMap/ui:${spelling}`]]]);
    }
    const other = await run('ConfigMap/ui:data.config');
    expect([other.drift.length, other.conflicts[0]!.ignoredBy]).toEqual([1, undefined]);
  });

  it('an ignored field is left out of a changed object\'s diff, the other changes stay', async () => {
    const c = cluster().put(deployment(3, 'app:1'));
    const p = await preflight(c, request([deployment(1, 'app:2')], { ignore: rules('Deployment.apps/*:spec.replicas') }));
    const shown = showChanges(p.comparison, masker(new Set(), () => undefined));
    expect(shown.map((s) => s.fields.map((f) => f.path))).toEqual([['spec.template.spec.containers[name=controller].image']]);
  });

  it('a custom resource whose CRD this apply creates is not checked yet (named with its CRD); a kind nobody defines is refused', async () => {
    const crd: Obj = { apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'agents.agentplat.dev' }, spec: { group: 'agentplat.dev', names: { kind: 'Agent' } } };
    const agent: Obj = { apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name: 'a', namespace: 'agentplat', labels: { ...LABELS } } };
    const stray: Obj = { apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w', namespace: 'agentplat' } };
    const p = await preflight(cluster(), request([agent, crd, stray]));
    expect(p.unchecked).toEqual([{ group: 'agentplat.dev', kind: 'Agent', namespace: 'agentplat', name: 'a', crd: 'agents.agentplat.dev' }]);
    expect(p.rejections.map((r) => [r.kind, r.message])).toEqual([['Widget', 'the cluster does not serve example.com/v1 Widget, and no CustomResourceDefinition of the render defines it']]);
    expect(p.comparison.changes.map((ch) => [ch.status, ch.kind])).toEqual([['added', 'CustomResourceDefinition']]);
  });
});

describe('--ignore rules and field paths', () => {
  it('parses KIND/NAME:PATH and refuses what is not one, saying how to write it', () => {
    expect(parseIgnoreRule('Deployment/x:spec.replicas')).toMatchObject({ path: 'spec.replicas' });
    expect(parseIgnoreRule('Deployment:spec.replicas')).toMatch(/KIND\/NAME:PATH/);
    expect(parseIgnoreRule('Deployment/x:')).toMatch(/may not be empty/);
    expect(parseIgnoreRule('Deployment/[x:spec')).toMatch(/not a valid pattern/);
  });

});

describe('drift inside lists', () => {
  it('a field the server defaults inside an unnamed list entry is no drift; a changed value in it is, owned by whoever wrote it', async () => {
    const svc = (port: number): Obj => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'agentplat', labels: { ...LABELS } }, spec: { ports: [{ port }] } });
    const live = svc(81);
    (live.spec as { ports: Record<string, unknown>[] }).ports[0]!.protocol = 'TCP';
    const c = new FakeCluster().serve('v1', 'Service').put(live, [managed('kubectl-edit', 'Update', { 'f:spec': { 'f:ports': { 'k:{"port":81,"protocol":"TCP"}': { '.': {}, 'f:port': {}, 'f:protocol': {} } } } })]);
    const p = await preflight(c, request([svc(80)]));
    expect(p.drift.map((d) => [d.path, d.live, d.render, d.managers.map((m) => m.manager)])).toEqual([['spec.ports[0].port', 81, 80, ['kubectl-edit']]]);
    const same = new FakeCluster().serve('v1', 'Service').put(live, [managed('kubectl-edit', 'Update', { 'f:spec': { 'f:ports': {} } })]);
    expect((await preflight(same, request([svc(81)]))).drift).toEqual([]);
  });
});

describe('the preflight in text', () => {
  const info = { context: 'c', server: 'https://x', fieldManager: 'agentplat' };
  async function report(refused: boolean) {
    const c = cluster().put(configMap('dropped', {})).put(configMap('kept', {}));
    if (refused) c.refusals.set('/ConfigMap agentplat/kept', { status: 422, reason: 'Invalid', message: 'ConfigMap "kept" is invalid: data: Too long\nsecond line', causes: [] });
    return preflight(c, request([configMap('kept', {})]));
  }
  const text = (p: Preflight, i: ClusterInfo) => formatPreflightText(showChanges(p.comparison, masker(new Set(), () => undefined)), p, i, new Chalk({ level: 0 }), { brief: true, revision: 'B' });

  it('an object the render dropped is "not in the render", "pruned" with --applyset, and "not pruned" with a note when an object fails, as kubectl skips the prune', async () => {
    const clean = await report(false);
    expect(text(clean, info)).toBe('not in the render ConfigMap agentplat/dropped\n');
    expect(text(clean, { ...info, applySet: 'id' })).toBe('pruned ConfigMap agentplat/dropped\n');
    expect(pruneNote(clean, { ...info, applySet: 'id' })).toBeUndefined();
    const failing = await report(true);
    expect(text(failing, { ...info, applySet: 'id' })).toBe('not pruned ConfigMap agentplat/dropped\nrefused ConfigMap agentplat/kept: 422 Invalid: ConfigMap "kept" is invalid: data: Too long\n    second line\n');
    expect(pruneNote(failing, { ...info, applySet: 'id' })).toMatch(/skips the prune when any object of the apply fails/);
    expect(pruneNote(failing, info)).toBeUndefined();
  });
});
