// One image precedence for the chart's pods and the sub-charts' pods (docs/decisions.md): the
// revision model's policy. Rendered here without the linter, so revision A values can carry the
// `global` block the schema would refuse: it reaches no pod in A, chart or sub-chart.
import { describe, expect, it } from 'vitest';
import { AUTHPROXY_INLINE, ctxFor, find, renderAll } from './helpers.ts';
import { uiComponent } from '../../src/render/components/ui.ts';
import type { Revision } from '../../src/chart/revisions.ts';

const GLOBAL = { imageRegistry: 'mirror.example.com', imagePullPolicy: 'Always', imagePullSecrets: [{ name: 'global' }] };

function pods(revision: Revision) {
  const ctx = ctxFor(revision, { authproxy: AUTHPROXY_INLINE, imagePullSecrets: [{ name: 'local' }], global: GLOBAL });
  const docs = [...uiComponent.render(ctx), ...renderAll(ctx)];
  return {
    chart: find(docs, 'Deployment', 'agentplat-ui').spec.template.spec,
    subchart: find(docs, 'Deployment', 'agentplat-authproxy').spec.template.spec,
  };
}

describe('image-precedence-one-policy', () => {
  it('[B] the chart and its sub-charts take the global mirror, pull policy and pull secrets alike', () => {
    const { chart, subchart } = pods('B');
    for (const spec of [chart, subchart]) {
      expect(spec.containers[0].image.startsWith('mirror.example.com/')).toBe(true);
      expect(spec.containers[0].imagePullPolicy).toBe('Always');
      expect(spec.imagePullSecrets).toEqual([{ name: 'local' }, { name: 'global' }]);
    }
  });

  it('[A] has no global keys: neither the chart nor a sub-chart reads them', () => {
    const { chart, subchart } = pods('A');
    expect(chart.containers[0].image.startsWith('ghcr.io/')).toBe(true);
    expect(subchart.containers[0].image).toBe('quay.io/oauth2-proxy/oauth2-proxy:v7.15.3');
    for (const spec of [chart, subchart]) {
      expect(spec.containers[0].imagePullPolicy).toBe('IfNotPresent');
      expect(spec.imagePullSecrets).toEqual([{ name: 'local' }]);
    }
  });
});
