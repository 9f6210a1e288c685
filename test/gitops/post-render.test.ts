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
    const [d] = postRenderer([{ images: [], patches: [{ type: 'strategic-merge', at: AT, patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ap-controller' }, spec: { template: { spec: { containers: [{ name: 'controller', env: [{ name: 'B', value: '2' }] }] } } } } }] }])([deployment()]).docs;
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
    expect(r.problems[0]!.message).toMatch(/^HelmRelease flux-system\/ap: spec\.postRenderers\[0\]\.kustomize\.patches\[0\]: no rendered object is the patch's own target \(kind Deployment, group apps, version v1, name absent\)/);
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
