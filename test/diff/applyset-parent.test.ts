// `diff --cluster --applyset`: the ApplySet parent checked as `kubectl apply --prune --applyset`
// checks it before it applies anything (src/diff/applyset-parent.ts), against an in-memory cluster
// (fake-cluster.ts). kubectl's checks and their order, its words, the parent's update it writes
// (the superset when it skips the prune) and the members it really prunes. The same scenarios run
// against a real API server and kubectl in test/cluster/applyset-parent.test.ts.
import { createHash } from 'node:crypto';
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { applySetPreflight, resolveParent, type ApplySetPreflight, type ParentRef } from '../../src/diff/applyset-parent.ts';
import { preflight, type PreflightRequest } from '../../src/diff/live.ts';
import { formatPreflightJson, formatPreflightText, preflightClean, preflightSummaryLine, pruneNote, pruneSkipped, summarizePreflight, type ClusterInfo } from '../../src/output/diff/live-format.ts';
import { masker } from '../../src/diff/mask.ts';
import { showChanges } from '../../src/diff/shown.ts';
import { FakeCluster, type Obj } from './fake-cluster.ts';

const LABELS = { 'app.kubernetes.io/instance': 'agentplat', 'app.kubernetes.io/managed-by': 'agentplat' };
const ID_LABEL = 'applyset.kubernetes.io/id';
const PART_OF = 'applyset.kubernetes.io/part-of';
const TOOLING = 'applyset.kubernetes.io/tooling';
const KINDS = 'applyset.kubernetes.io/contains-group-kinds';
const NAMESPACES = 'applyset.kubernetes.io/additional-namespaces';

/** The id kubectl computes for a parent (KEP-3659), written out here independently of src/. */
const kubectlId = (name: string, namespace: string, kind: string, group: string): string => `applyset-${createHash('sha256').update(`${name}.${namespace}.${kind}.${group}`).digest('base64url')}-v1`;
const ID = kubectlId('agentplat', 'agentplat', 'Secret', '');

const configMap = (name: string, extraLabels: Record<string, string> = {}): Obj => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'agentplat', labels: { ...LABELS, ...extraLabels } }, data: { a: '1' } });
const deployment = (name: string): Obj => ({ apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name, namespace: 'agentplat', labels: { ...LABELS } }, spec: { replicas: 1 } });
const role = (name: string): Obj => ({ apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', metadata: { name, labels: { ...LABELS } }, rules: [] });

function secretParent(annotations: Record<string, string> | undefined, labels: Record<string, string> | undefined, name = 'agentplat'): Obj {
  return { apiVersion: 'v1', kind: 'Secret', metadata: { name, namespace: 'agentplat', ...(labels ? { labels } : {}), ...(annotations ? { annotations } : {}) }, type: 'Opaque' };
}

function cluster(): FakeCluster {
  return new FakeCluster().serve('v1', 'ConfigMap').serve('v1', 'Secret').serve('apps/v1', 'Deployment').serve('rbac.authorization.k8s.io/v1', 'ClusterRole', false).serve('apiextensions.k8s.io/v1', 'CustomResourceDefinition', false);
}

function request(desired: Obj[]): PreflightRequest {
  return {
    desired: desired.map((object, i) => ({ source: `agentplat/templates/t${i}.yaml`, object })),
    release: 'agentplat',
    fieldManager: 'agentplat',
    applySetId: ID,
    ignore: [],
    mask: masker(new Set(), () => undefined),
    redact: (t) => t,
  };
}

const SECRET: ParentRef = { group: '', version: 'v1', kind: 'Secret', resource: 'secrets', namespace: 'agentplat', name: 'agentplat', builtin: true };
const INFO: ClusterInfo = { context: 'fake', server: 'https://fake.invalid', fieldManager: 'agentplat', applySet: ID };

/** The preflight of `desired` with --applyset agentplat (a Secret parent in namespace agentplat). */
async function run(c: FakeCluster, desired: Obj[], parent: ParentRef = SECRET, id = ID): Promise<ApplySetPreflight> {
  const req = { ...request(desired), applySetId: id };
  return applySetPreflight(c, parent, id, desired, await preflight(c, req));
}

const text = (p: ApplySetPreflight): string => formatPreflightText(showChanges(p.comparison, masker(new Set(), () => undefined)), p, INFO, new Chalk({ level: 0 }), { revision: 'B' });

describe('diff --cluster --applyset: the parent as kubectl checks it', () => {
  it('a parent Secret of another tool (its tooling annotation names helm): refused with kubectl\'s reason, nothing applied or pruned, exit 1', async () => {
    const c = cluster().put(secretParent({ [TOOLING]: 'helm/v3', [KINDS]: 'ConfigMap' }, { [ID_LABEL]: ID })).put(configMap('gone', { [PART_OF]: ID }));
    const p = await run(c, [configMap('kept')]);
    expect(p.applySet).toMatchObject({ status: 'refused', kind: 'Secret', namespace: 'agentplat', name: 'agentplat', changes: [] });
    expect(p.applySet!.message).toBe('ApplySet parent object "secrets./agentplat" already exists and is managed by tooling "helm" instead of "kubectl"');
    expect(p.applySet!.hint).toMatch(/name another --applyset parent/);
    const out = text(p);
    expect(out).toContain('refused ApplySet parent Secret agentplat/agentplat: kubectl apply --prune --applyset stops before it applies any object: ApplySet parent object "secrets./agentplat" already exists and is managed by tooling "helm" instead of "kubectl"\n');
    // No object is created and nothing is pruned: the headers say so, and a note says why.
    expect(out).toContain('not created ConfigMap agentplat/kept\n');
    expect(out).toContain('not pruned ConfigMap agentplat/gone\n');
    expect(pruneNote(p, INFO)).toMatch(/refuses the whole apply when the ApplySet parent fails its checks/);
    expect([preflightClean(p), pruneSkipped(p, INFO)]).toEqual([false, true]);
    expect(preflightSummaryLine(summarizePreflight(p), INFO, p.applySet)).toMatch(/; ApplySet parent Secret agentplat\/agentplat refused: kubectl applies nothing$/);
    // Nothing but dry runs, and no dry run of the parent: kubectl never gets that far.
    expect(c.requests.filter((r) => r.verb === 'apply').map((r) => r.what)).toEqual(['/ConfigMap agentplat/kept']);
  });

  it('an ordinary Secret named as the parent (no ApplySet annotation or label): refused as kubectl refuses it, missing the tooling annotation', async () => {
    const c = cluster().put(secretParent(undefined, { app: 'mine' }));
    const p = await run(c, [configMap('kept')]);
    expect(p.applySet!.status).toBe('refused');
    expect(p.applySet!.message).toBe('ApplySet parent object "secrets./agentplat" already exists and is missing required annotation "applyset.kubernetes.io/tooling"');
    expect(p.applySet!.hint).toMatch(/^Secret agentplat\/agentplat is not an ApplySet parent/);
  });

  it('kubectl\'s own parent: the tooling name is what comes before the last "/" (kubectl/v1.37.2 and kubectl are both kubectl\'s)', async () => {
    for (const tooling of ['kubectl/v1.37.2', 'kubectl']) {
      const c = cluster().put(secretParent({ [TOOLING]: tooling, [KINDS]: 'ConfigMap', [NAMESPACES]: '' }, { [ID_LABEL]: ID })).put(configMap('kept', { [PART_OF]: ID }));
      const p = await run(c, [configMap('kept')]);
      expect(p.applySet!.status, tooling).toBe('unchanged');
      expect(preflightClean(p)).toBe(true);
    }
    const nested = cluster().put(secretParent({ [TOOLING]: 'kubectl/plugin/v1', [KINDS]: '' }, { [ID_LABEL]: ID }));
    expect((await run(nested, [configMap('kept')])).applySet!.message).toMatch(/managed by tooling "kubectl\/plugin" instead of "kubectl"$/);
  });

  it('kubectl\'s checks in its order: the id label missing, then an id of another parent, then the kinds annotation', async () => {
    const noId = await run(cluster().put(secretParent({ [TOOLING]: 'kubectl/v1', [KINDS]: '' }, undefined)), [configMap('a')]);
    expect(noId.applySet!.message).toBe('ApplySet parent object "secrets./agentplat" exists and does not have required label applyset.kubernetes.io/id');
    const other = kubectlId('agentplat', 'other', 'Secret', '');
    const wrongId = await run(cluster().put(secretParent({ [TOOLING]: 'kubectl/v1', [KINDS]: '' }, { [ID_LABEL]: other })), [configMap('a')]);
    expect(wrongId.applySet!.message).toBe(`ApplySet parent object "secrets./agentplat" exists and has incorrect value for label "applyset.kubernetes.io/id" (got: ${other}, want: ${ID})`);
    const noKinds = await run(cluster().put(secretParent({ [TOOLING]: 'kubectl/v1' }, { [ID_LABEL]: ID })), [configMap('a')]);
    expect(noKinds.applySet!.message).toBe('parsing ApplySet annotation on "secrets./agentplat": kubectl requires the "applyset.kubernetes.io/contains-group-kinds" annotation to be set on all ApplySet parent objects');
    const gone = await run(cluster().put(secretParent({ [TOOLING]: 'kubectl/v1', [KINDS]: 'ConfigMap,Widget.example.com' }, { [ID_LABEL]: ID })), [configMap('a')]);
    expect(gone.applySet!.message).toBe('parsing ApplySet annotation on "secrets./agentplat": could not find mapping for kind in "applyset.kubernetes.io/contains-group-kinds" annotation: no matches for kind "Widget" in group "example.com"');
    // The older resources annotation stands in for the kinds, read through discovery.
    const older = await run(cluster().put(secretParent({ [TOOLING]: 'kubectl/v1', 'applyset.kubernetes.io/contains-group-resources': 'configmaps,deployments.apps' }, { [ID_LABEL]: ID })), [configMap('a')]);
    expect(older.applySet!.status).toBe('changed');
  });

  it('no parent yet: kubectl creates it (field manager kubectl-applyset) with the id, the render\'s kinds and its other namespaces; the preflight shows each label and annotation', async () => {
    const c = cluster();
    const other = { ...configMap('elsewhere'), metadata: { ...configMap('elsewhere').metadata, namespace: 'team-a' } };
    const p = await run(c, [configMap('a'), other, deployment('d'), role('r')]);
    expect(p.applySet!.status).toBe('created');
    expect(p.applySet!.changes).toEqual([
      { path: 'metadata.labels["applyset.kubernetes.io/id"]', new: ID },
      { path: 'metadata.annotations["applyset.kubernetes.io/additional-namespaces"]', new: 'team-a' },
      { path: 'metadata.annotations["applyset.kubernetes.io/contains-group-kinds"]', new: 'ClusterRole.rbac.authorization.k8s.io,ConfigMap,Deployment.apps' },
      { path: 'metadata.annotations["applyset.kubernetes.io/tooling"]', new: 'kubectl/<kubectl version>' },
    ]);
    const parentApply = c.requests.find((r) => r.verb === 'apply' && r.what === '/Secret agentplat/agentplat');
    expect(parentApply).toEqual({ verb: 'apply', what: '/Secret agentplat/agentplat', force: true, fieldManager: 'kubectl-applyset' });
    expect(text(p)).toContain('created ApplySet parent Secret agentplat/agentplat (by kubectl, as field manager kubectl-applyset): metadata.labels["applyset.kubernetes.io/id"], ');
    expect(text(p)).toContain(`    metadata.labels["applyset.kubernetes.io/id"]: (absent) → "${ID}"\n`);
    const json = JSON.parse(formatPreflightJson([], p, { tool: { name: 'agentplat', version: '0' }, cluster: INFO, to: { kind: 'render', revision: 'B', values: [] } })) as { applySet: unknown; equal: boolean };
    expect(json.applySet).toEqual(p.applySet);
    expect(json.equal).toBe(false);
  });

  it('a good parent: kubectl rewrites its kinds to the render\'s, or to the superset of both when it skips the prune (an object refused)', async () => {
    const parent = secretParent({ [TOOLING]: 'kubectl/v1.37.2', [KINDS]: 'ConfigMap,Deployment.apps', [NAMESPACES]: '' }, { [ID_LABEL]: ID });
    const c = cluster().put(parent).put({ ...deployment('old'), metadata: { ...deployment('old').metadata, labels: { ...LABELS, [PART_OF]: ID } } });
    const p = await run(c, [configMap('a')]);
    expect(p.applySet!.status).toBe('changed');
    expect(p.applySet!.changes).toEqual([{ path: 'metadata.annotations["applyset.kubernetes.io/contains-group-kinds"]', live: 'ConfigMap,Deployment.apps', new: 'ConfigMap' }]);
    expect(p.comparison.changes.map((x) => [x.status, x.name])).toEqual([['added', 'a'], ['removed', 'old']]);
    // An object the server refuses: kubectl skips the prune and leaves the parent with both sets of kinds.
    c.refusals.set('/ConfigMap agentplat/a', { status: 422, reason: 'Invalid', message: 'ConfigMap "a" is invalid', causes: [] });
    c.forcedRefusals.set('/ConfigMap agentplat/a', { status: 422, reason: 'Invalid', message: 'ConfigMap "a" is invalid', causes: [] });
    const skipped = await run(c, [configMap('a'), role('r')]);
    expect(skipped.applySet!.changes).toEqual([{ path: 'metadata.annotations["applyset.kubernetes.io/contains-group-kinds"]', live: 'ConfigMap,Deployment.apps', new: 'ClusterRole.rbac.authorization.k8s.io,ConfigMap,Deployment.apps' }]);
  });

  it('members kubectl does not look for (a kind or namespace the parent does not list, or no parent yet) are named in a note, not shown as pruned', async () => {
    const member = (o: Obj): Obj => ({ ...o, metadata: { ...o.metadata, labels: { ...(o.metadata.labels as Record<string, string>), [PART_OF]: ID } } });
    const parent = secretParent({ [TOOLING]: 'kubectl/v1', [KINDS]: 'ConfigMap', [NAMESPACES]: '' }, { [ID_LABEL]: ID });
    const c = cluster().put(parent).put(member(configMap('listed'))).put(member(deployment('unlisted'))).put(member({ ...configMap('other-ns'), metadata: { ...configMap('other-ns').metadata, namespace: 'team-a' } }));
    const p = await run(c, [configMap('kept')]);
    expect(p.comparison.changes.filter((x) => x.status === 'removed').map((x) => x.name)).toEqual(['listed']);
    expect(p.notes).toContain(
      '2 members of the ApplySet are not in the render, but the parent does not list their kind or namespace (applyset.kubernetes.io/contains-group-kinds, applyset.kubernetes.io/additional-namespaces): kubectl apply --prune --applyset does not look there and leaves them; delete them by hand: ConfigMap team-a/other-ns, Deployment.apps agentplat/unlisted',
    );
    const fresh = await run(cluster().put(member(configMap('orphan'))), [configMap('kept')]);
    expect(fresh.comparison.changes.filter((x) => x.status === 'removed')).toEqual([]);
    expect(fresh.notes.join('\n')).toMatch(/^1 member of the ApplySet is not in the render, but the parent does not exist yet to list its kind/m);
  });

  it('a custom-resource parent: refused when its CRD lacks the parent-type label or when it does not exist (kubectl creates only Secrets and ConfigMaps)', async () => {
    const c = cluster().serve('platform.example.com/v1', 'ApplySet', false);
    const ref = await resolveParent({ resource: 'applysets', group: 'platform.example.com', name: 'agentplat', namespace: 'agentplat' }, 'applysets.platform.example.com/agentplat', c);
    expect(ref).toEqual({ group: 'platform.example.com', version: 'v1', kind: 'ApplySet', resource: 'applysets', namespace: '', name: 'agentplat', builtin: false });
    const id = kubectlId('agentplat', '', 'ApplySet', 'platform.example.com');
    const crd = (labels: Record<string, string>): Obj => ({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'applysets.platform.example.com', labels } });
    c.put(crd({}));
    expect((await run(c, [configMap('a')], ref, id)).applySet!.message).toBe('resource "platform.example.com/v1, Resource=applysets" is not permitted as an ApplySet parent');
    c.put(crd({ 'applyset.kubernetes.io/is-parent-type': 'true' }));
    expect((await run(c, [configMap('a')], ref, id)).applySet!.message).toBe('custom resource ApplySet parents cannot be created automatically');
    c.put({ apiVersion: 'platform.example.com/v1', kind: 'ApplySet', metadata: { name: 'agentplat', labels: { [ID_LABEL]: id }, annotations: { [TOOLING]: 'kubectl/v1', [KINDS]: '' } } });
    const ok = await run(c, [configMap('a')], ref, id);
    expect(ok.applySet).toMatchObject({ status: 'changed', changes: [
      { path: 'metadata.annotations["applyset.kubernetes.io/additional-namespaces"]', new: 'agentplat' },
      { path: 'metadata.annotations["applyset.kubernetes.io/contains-group-kinds"]', live: '', new: 'ConfigMap' },
    ] });
  });

  it('the server refuses the parent\'s update (RBAC, a webhook): refused as kubectl reports it', async () => {
    const c = cluster();
    c.forcedRefusals.set('/Secret agentplat/agentplat', { status: 403, reason: 'Forbidden', message: 'secrets "agentplat" is forbidden: User "dev" cannot patch resource "secrets"', causes: [] });
    const p = await run(c, [configMap('a')]);
    expect(p.applySet).toMatchObject({ status: 'refused', message: 'failed to update ApplySet: secrets "agentplat" is forbidden: User "dev" cannot patch resource "secrets"' });
  });
});
