// Image precedence as rendered, as documented and as linted: the top-level `tag` wins over the
// controller's and the UI's own tag (not over the agent images'), and [B] global.imageRegistry
// wins over every registry. The descriptions the values file, docs, explain and the schema show
// must say what the render does, and lint warns, naming both keys, when a set key is shadowed.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Problem } from '../../src/problems/problem.ts';
import { describeKey } from '../../src/chart/values-model.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { dataSource } from '../../src/values/source.ts';
import { get, render } from '../render/_render.ts';

const lint = (rev: Revision, values: Record<string, unknown>): Problem[] => lintValues({ revision: rev, layers: [dataSource('values.yaml', values)] }).problems;
const image = (rev: Revision, values: Record<string, unknown>, name: string) => get(render(rev, values), 'Deployment', name).spec.template.spec.containers[0].image as string;
const agentTag = (rev: Revision, values: Record<string, unknown>) =>
  render(rev, values)
    .map((d) => (d.object.kind === 'ConfigMap' ? (d.object.data as Record<string, string> | undefined)?.IMAGE_TAG : undefined))
    .find((t) => t !== undefined);

describe.each(['A', 'B'] as const)('revision %s: the top-level tag wins over the controller and UI tags', (rev) => {
  const values = { tag: '0.11.0', controller: { image: { tag: 'hotfix1' }, agentImage: { tag: 'agent1' } }, ui: { image: { tag: 'hotfix2' } } };

  it('renders the top-level tag for the controller and the UI, the own tag for the agent image', () => {
    expect(image(rev, values, 'agentplat-controller')).toMatch(/\/agentplat\/controller:0\.11\.0$/);
    expect(image(rev, values, 'agentplat-ui')).toMatch(/\/agentplat\/ui:0\.11\.0$/);
    expect(agentTag(rev, values)).toBe('agent1');
  });

  it('the descriptions say so (values file, docs, explain and schema all show them)', () => {
    for (const key of ['controller.image.tag', 'ui.image.tag']) expect(describeKey(rev, key)!.description).toMatch(/top-level tag wins over it/);
    expect(describeKey(rev, 'controller.agentImage.tag')!.description).toMatch(/^Image tag; empty uses the top-level tag/);
    expect(describeKey(rev, 'tag')!.description).toMatch(/wins over controller\.image\.tag and ui\.image\.tag/);
  });

  it('values/image-tag-shadowed: a warning at each shadowed tag naming both keys; none for the agent image or an equal tag', () => {
    const found = lint(rev, values).filter((p) => p.rule === 'values/image-tag-shadowed');
    expect(found.map((p) => [p.severity, p.path])).toEqual([
      ['warning', 'controller.image.tag'],
      ['warning', 'ui.image.tag'],
    ]);
    expect(found[0]!.message).toMatch(/`controller\.image\.tag` \("hotfix1"\).*top-level `tag` \("0\.11\.0"\)/);
    expect(lint(rev, { controller: { image: { tag: 'hotfix1' } } }).filter((p) => p.rule === 'values/image-tag-shadowed')).toEqual([]);
    expect(lint(rev, { tag: 'x', controller: { image: { tag: 'x' } } }).filter((p) => p.rule === 'values/image-tag-shadowed')).toEqual([]);
  });
});

describe('revision B: global.imageRegistry replaces every registry', () => {
  const values = { registry: 'quay.io', global: { imageRegistry: 'mirror.local' }, ui: { image: { registry: 'ghcr.io' } }, controller: { agentImage: { registry: 'example.com' } } };

  it('renders the mirror for images whose registry was set', () => {
    expect(image('B', values, 'agentplat-ui')).toBe('mirror.local/agentplat/ui:0.11.0');
    expect(image('B', values, 'agentplat-controller')).toMatch(/^mirror\.local\//);
  });

  it('values/image-registry-shadowed: a warning at each registry key set, naming global.imageRegistry', () => {
    const found = lint('B', values).filter((p) => p.rule === 'values/image-registry-shadowed');
    expect(found.map((p) => p.path).sort()).toEqual(['controller.agentImage.registry', 'registry', 'ui.image.registry']);
    expect(found.every((p) => p.message.includes('`global.imageRegistry` ("mirror.local")'))).toBe(true);
    expect(describeKey('B', 'ui.image.registry')!.description).toMatch(/global\.imageRegistry .*replaces it/);
    expect(lint('B', { ui: { image: { registry: 'ghcr.io' } } }).filter((p) => p.rule === 'values/image-registry-shadowed')).toEqual([]);
  });
});

describe('revision B: global.tag wins over the tools image tag, and lint says so', () => {
  const values = { global: { tag: 'v0.3.0' }, 'agentplat-tools': { tools: { image: { tag: 'v0.3.1' } }, image: { tag: 'v0.3.2' } } };

  it('renders global.tag for the tools server', () => {
    expect(image('B', values, 'agentplat-tools')).toMatch(/\/agentplat\/tools:v0\.3\.0$/);
  });

  it('values/image-tag-shadowed: a warning at each shadowed tools tag naming global.tag; none for an equal tag', () => {
    const found = lint('B', values).filter((p) => p.rule === 'values/image-tag-shadowed');
    expect(found.map((p) => [p.severity, p.path])).toEqual([
      ['warning', 'agentplat-tools.image.tag'],
      ['warning', 'agentplat-tools.tools.image.tag'],
    ]);
    expect(found[1]!.message).toMatch(/`agentplat-tools\.tools\.image\.tag` \("v0\.3\.1"\) is never used: `global\.tag` \("v0\.3\.0"\) wins over it/);
    const equal = { global: { tag: 'v0.3.0' }, 'agentplat-tools': { tools: { image: { tag: 'v0.3.0' } } } };
    expect(lint('B', equal).filter((p) => p.rule === 'values/image-tag-shadowed')).toEqual([]);
  });
});
