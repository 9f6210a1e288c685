// Flux's Kustomize post-renderers over rendered objects: strategic merge by the built-in kinds'
// merge keys, JSON 6902 operations, image overrides, and the failure when a patch targets nothing.
import { describe, expect, it } from 'vitest';
import { postRenderer, type PatchPlace } from '../../src/gitops/post-render.ts';

const AT: PatchPlace = { file: 'hr.yaml', line: 20, column: 11, label: 'HelmRelease flux-system/ap: spec.postRenderers[0].kustomize.patches[0]', path: 'spec.postRenderers[0].kustomize.patches[0]' };

const deployment = () => ({
  source: 'agentplat/templates/controller-deployment.yaml',
  object: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'ap-controller', namespace: 'agents', labels: { app: 'controller' } },
    spec: { template: { spec: { containers: [{ name: 'controller', image: 'ghcr.io/x/controller:0.11.0', env: [{ name: 'A', value: '1' }] }, { name: 'sidecar', image: 'busybox' }] } } },
  },
});

describe('Flux post-renderers', () => {
  it('a strategic merge patch merges containers by name and their env by name, leaving the other container', () => {
    const [d] = postRenderer([{ images: [], patches: [{ type: 'strategic-merge', at: AT, patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ap-controller', namespace: 'agents' }, spec: { template: { spec: { containers: [{ name: 'controller', env: [{ name: 'B', value: '2' }] }] } } } } }] }])([deployment()]).docs;
    const containers = (d!.object as ReturnType<typeof deployment>['object']).spec.template.spec.containers;
    expect(containers.map((c) => c.name)).toEqual(['controller', 'sidecar']);
    expect(containers[0]!.env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    expect(containers[0]!.image).toBe('ghcr.io/x/controller:0.11.0');
  });

  it('a JSON 6902 patch with a target selecting by label adds to every object it selects', () => {
    const [d] = postRenderer([{ images: [], patches: [{ type: 'json6902', at: AT, target: { kind: 'Deployment', labelSelector: 'app=controller' }, patch: [{ op: 'add', path: '/metadata/annotations', value: { a: 'b' } }] }] }])([deployment()]).docs;
    expect((d!.object as { metadata: { annotations?: unknown } }).metadata.annotations).toEqual({ a: 'b' });
  });

  it('images sets a new name and tag, or a digest, on the containers of that image only', () => {
    const [d] = postRenderer([{ patches: [], images: [{ name: 'ghcr.io/x/controller', newName: 'mirror.local/controller', newTag: '0.11.1' }, { name: 'busybox', digest: 'sha256:abc' }] }])([deployment()]).docs;
    const containers = (d!.object as ReturnType<typeof deployment>['object']).spec.template.spec.containers;
    expect(containers.map((c) => c.image)).toEqual(['mirror.local/controller:0.11.1', 'busybox@sha256:abc']);
  });

  it('a patch without a target whose own kind and name match no rendered object is an error at the patch: Kustomize fails, so Flux fails the release', () => {
    const r = postRenderer([{ images: [], patches: [{ type: 'strategic-merge', at: AT, patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'absent' } } }] }])([deployment()]);
    expect(r.problems).toEqual([expect.objectContaining({ severity: 'error', rule: 'gitops/patch-no-match', file: 'hr.yaml', line: 20, column: 11, path: 'spec.postRenderers[0].kustomize.patches[0]' })]);
    expect(r.problems[0]!.message).toMatch(/^HelmRelease flux-system\/ap: spec\.postRenderers\[0\]\.kustomize\.patches\[0\]: no rendered object is the patch's own target \(kind Deployment, group apps, version v1, name absent, no namespace\)/);
  });

  it('a strategic-merge patch without a namespace does not merge into an object rendered in a namespace: an error naming the namespace to add, as Kustomize fails', () => {
    const r = postRenderer([{ images: [], patches: [{ type: 'strategic-merge', at: AT, patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ap-controller' }, spec: { replicas: 4 } } }] }])([deployment()]);
    expect(r.problems).toEqual([expect.objectContaining({ severity: 'error', rule: 'gitops/patch-no-match', line: 20 })]);
    expect(r.problems[0]!.message).toContain('the patch names no namespace, and Kustomize merges it only into an object without one (or in default); Deployment ap-controller is rendered in namespace agents');
    expect(r.problems[0]!.hint).toBe('add metadata.namespace: agents to the patch');
    // Without a namespace it still merges into an object rendered without one, or in default.
    for (const namespace of [undefined, 'default']) {
      const o = deployment();
      o.object.metadata = { ...o.object.metadata, namespace: namespace as string };
      if (namespace === undefined) delete (o.object.metadata as { namespace?: string }).namespace;
      const ok = postRenderer([{ images: [], patches: [{ type: 'strategic-merge', at: AT, patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ap-controller' }, spec: { replicas: 4 } } }] }])([o]);
      expect(ok.problems).toEqual([]);
      expect((ok.docs[0]!.object as { spec: { replicas?: number } }).spec.replicas).toBe(4);
    }
  });

  it('a JSON 6902 add under metadata.annotations works on an object rendered without annotations (Kustomize keeps its own there while it patches), and under a missing labels map it fails', () => {
    const bare = () => { const o = deployment(); o.object.metadata = { name: 'ap-controller', namespace: 'agents' } as typeof o.object.metadata; return o; };
    const add = (path: string) => postRenderer([{ images: [], patches: [{ type: 'json6902', at: AT, target: { kind: 'Deployment' }, patch: [{ op: 'add', path, value: 'yes' }] }] }])([bare()]);
    const annotated = add('/metadata/annotations/patched');
    expect(annotated.problems).toEqual([]);
    expect((annotated.docs[0]!.object as { metadata: unknown }).metadata).toEqual({ name: 'ap-controller', namespace: 'agents', annotations: { patched: 'yes' } });
    expect(add('/metadata/labels/patched').problems.map((p) => p.rule)).toEqual(['gitops/json-patch']);
    // A patch that adds no annotation leaves no empty annotations behind.
    const other = postRenderer([{ images: [], patches: [{ type: 'json6902', at: AT, target: { kind: 'Deployment' }, patch: [{ op: 'add', path: '/spec/paused', value: true }] }] }])([bare()]);
    expect((other.docs[0]!.object as { metadata: unknown }).metadata).toEqual({ name: 'ap-controller', namespace: 'agents' });
  });

  it('a patch whose explicit target selects no object is a warning and changes nothing, as Kustomize patches the empty selection', () => {
    const r = postRenderer([{ images: [], patches: [{ type: 'json6902', at: AT, target: { kind: 'Deployment', name: 'absent' }, patch: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }] }])([deployment()]);
    expect(r.problems).toEqual([expect.objectContaining({ severity: 'warning', rule: 'gitops/patch-target-empty', file: 'hr.yaml', line: 20, column: 11 })]);
    expect(r.docs.map((d) => d.object)).toEqual([deployment().object]);
  });

  it('a JSON 6902 patch without a target, or an operation on a path that does not exist, is an error at the patch', () => {
    const noTarget = postRenderer([{ images: [], patches: [{ type: 'json6902', at: AT, patch: [{ op: 'add', path: '/metadata/labels/x', value: 'y' }] }] }])([deployment()]);
    expect(noTarget.problems.map((p) => [p.severity, p.rule])).toEqual([['error', 'gitops/json-patch']]);
    const noPath = postRenderer([{ images: [], patches: [{ type: 'json6902', at: AT, target: { kind: 'Deployment' }, patch: [{ op: 'replace', path: '/spec/nothing/here', value: 1 }] }] }])([deployment()]);
    expect(noPath.problems.map((p) => [p.severity, p.rule, p.line])).toEqual([['error', 'gitops/json-patch', 20]]);
    expect(noPath.problems[0]!.message).toContain('operation 0 (replace /spec/nothing/here) on Deployment ap-controller: the path does not exist');
  });

  it('the objects passed in are not changed', () => {
    const input = deployment();
    postRenderer([{ patches: [], images: [{ name: 'busybox', newTag: '1' }] }])([input]);
    expect(input.object.spec.template.spec.containers[1]!.image).toBe('busybox');
  });
});
