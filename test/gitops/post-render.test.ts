// Flux's Kustomize post-renderers over rendered objects: strategic merge by the built-in kinds'
// merge keys, JSON 6902 operations, image overrides, and the failure when a patch targets nothing.
import { describe, expect, it } from 'vitest';
import { postRenderer, PostRenderFailure } from '../../src/gitops/post-render.ts';

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
    const [d] = postRenderer([{ images: [], patches: [{ type: 'strategic-merge', where: 'x', patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'ap-controller' }, spec: { template: { spec: { containers: [{ name: 'controller', env: [{ name: 'B', value: '2' }] }] } } } } }] }])([deployment()]);
    const containers = (d!.object as ReturnType<typeof deployment>['object']).spec.template.spec.containers;
    expect(containers.map((c) => c.name)).toEqual(['controller', 'sidecar']);
    expect(containers[0]!.env).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    expect(containers[0]!.image).toBe('ghcr.io/x/controller:0.11.0');
  });

  it('a JSON 6902 patch with a target selecting by label adds to every object it selects', () => {
    const [d] = postRenderer([{ images: [], patches: [{ type: 'json6902', where: 'x', target: { kind: 'Deployment', labelSelector: 'app=controller' }, patch: [{ op: 'add', path: '/metadata/annotations', value: { a: 'b' } }] }] }])([deployment()]);
    expect((d!.object as { metadata: { annotations?: unknown } }).metadata.annotations).toEqual({ a: 'b' });
  });

  it('images sets a new name and tag, or a digest, on the containers of that image only', () => {
    const [d] = postRenderer([{ patches: [], images: [{ name: 'ghcr.io/x/controller', newName: 'mirror.local/controller', newTag: '0.11.1' }, { name: 'busybox', digest: 'sha256:abc' }] }])([deployment()]);
    const containers = (d!.object as ReturnType<typeof deployment>['object']).spec.template.spec.containers;
    expect(containers.map((c) => c.image)).toEqual(['mirror.local/controller:0.11.1', 'busybox@sha256:abc']);
  });

  it('a patch whose target matches no object fails, naming where the patch is written', () => {
    const run = () => postRenderer([{ images: [], patches: [{ type: 'strategic-merge', where: 'hr.yaml:20:11: spec.postRenderers[0].kustomize.patches[0]', patch: { apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'absent' } } }] }])([deployment()]);
    expect(run).toThrow(PostRenderFailure);
    expect(run).toThrow(/^hr\.yaml:20:11: spec\.postRenderers\[0\]\.kustomize\.patches\[0\]: the patch's target \(kind Deployment, group apps, version v1, name absent\) matches no object/);
  });

  it('the objects passed in are not changed', () => {
    const input = deployment();
    postRenderer([{ patches: [], images: [{ name: 'busybox', newTag: '1' }] }])([input]);
    expect(input.object.spec.template.spec.containers[1]!.image).toBe('busybox');
  });
});
