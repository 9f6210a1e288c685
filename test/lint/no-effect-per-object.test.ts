// values/no-effect decides a key by rendering again only what read it (issue 35, "it is fast"):
// the authentication proxy records its reads per object, so a key one object reads renders that
// object again, not the whole proxy; and the render context is built once for every key the
// context itself did not read, while what it reads when a part asks reads the values being judged.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { breathing } from '../helpers/breathe.ts';
import { fcParams, seedTitle } from '../hardening/_seed.ts';
import { toYaml } from '../../src/render/manifests.ts';
import { judgeUserKeys, partAlike, readTree, userLeaves } from '../../src/pipeline/no-effect.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { lintRelease } from '../../src/pipeline/render.ts';
import { renderChart, renderChartWithReads, renderSomeParts, type ChartRenderOptions, type PartMade } from '../../src/render/render.ts';
import { watchModels } from '../../src/model/revisions/index.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { joinPath, splitPath, type Values } from '../../src/values/merge.ts';
import { layerRelease } from '../../src/values/replace.ts';
import { dataSource, type PathSegment } from '../../src/values/source.ts';
import { ROOT } from '../cli/binary.ts';
import { OPTIONS, rendered, withoutLeaf } from './_effects.ts';

const PROXY = parse(readFileSync(join(ROOT, 'fixtures', 'subcharts', 'authproxy-production.values.yaml'), 'utf8')) as Values;

/** The owners of the read record (parts, pieces, the context) that read `key` in the render of `data`. */
function readersOf(revision: Revision, data: Values, key: string) {
  const values = layerRelease(defaultsSource(revision), [dataSource('values.yaml', data)]).values;
  const render = renderChartWithReads(values, OPTIONS(revision));
  const owners = [...render.reads].filter(([, reads]) => readTree(reads).touches(splitPath(key))).map(([id]) => id);
  return { values, render, owners };
}

/** The verdict on each key of `data` (one values file), as lint makes it; the revision models built meanwhile counted. */
function judged(revision: Revision, data: Values) {
  const layers = [dataSource('values.yaml', data)];
  const { problems, layered } = lintRelease({ revision, layers, namespace: 'default', releaseName: 'agentplat', apiVersions: [] });
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  const render = renderChartWithReads(layered.values, OPTIONS(revision));
  let models = 0;
  watchModels({ asked: () => undefined, building: () => void models++, built: () => undefined });
  try {
    const verdicts = judgeUserKeys({ revision, layers, layered, render, options: OPTIONS(revision), reported: [] });
    return { verdicts, models };
  } finally {
    watchModels(undefined);
  }
}

describe('values/no-effect renders again only what read the key', () => {
  it('a key the proxy reads for its Deployment alone is recorded under the Deployment, and only the Deployment renders again without it', () => {
    const { values, render, owners } = readersOf('B', PROXY, 'authproxy.image.registry');
    expect(owners).toEqual(['authproxy#deployment.yaml']);
    const data = structuredClone(PROXY);
    delete ((data.authproxy as Values).image as Values).registry;
    const without = layerRelease(defaultsSource('B'), [dataSource('values.yaml', data)]).values;
    const again = [...renderSomeParts(without, OPTIONS('B'), new Set(owners), render.reuse)];
    expect(again.map((p) => [p.id, p.made.map((d) => d.object.kind)])).toEqual([['authproxy#deployment.yaml', ['Deployment']]]);
    // What it made is what a render from scratch makes of that object.
    const scratch = renderChart(without, OPTIONS('B')).find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-authproxy');
    expect(again[0]!.printed(again[0]!.made[0]!).object).toEqual(scratch!.object);
    expect(values).toBeDefined();
  });

  it('a key that decides which of the proxy\'s objects render is read by the proxy as a whole, so every piece of it is reached', () => {
    expect(readersOf('B', PROXY, 'authproxy.ingress.enabled').owners).toEqual(['authproxy']);
  });

  it('the render context is built once for all the keys of the proxy\'s file, not once per key', () => {
    const { verdicts, models } = judged('B', PROXY);
    expect(verdicts.length).toBeGreaterThan(30);
    expect(models).toBe(1);
  });

  it('a key the context reads only when a part asks (env.a2a: controller.a2aGatewayUrl) is judged on the values without it, not on the values the context was built with', () => {
    const { verdicts } = judged('B', { controller: { a2aGatewayUrl: 'https://a2a.example.com' }, ui: { replicas: 2 } });
    expect(verdicts.map((v) => [v.path.join('.'), v.verdict.effect])).toEqual([
      ['controller.a2aGatewayUrl', true],
      ['ui.replicas', true],
    ]);
    // Its verdict holds against renders: the URL is in the output with it and not without it.
    const text = (data: Values) => JSON.stringify(renderChart(layerRelease(defaultsSource('B'), [dataSource('values.yaml', data)]).values, OPTIONS('B')));
    expect(text({ controller: { a2aGatewayUrl: 'https://a2a.example.com' } })).toContain('https://a2a.example.com');
    expect(text({})).not.toContain('https://a2a.example.com');
  });

  it('parts rendered again of values that differ where the context read (the telemetry endpoint) print what a render from scratch prints: the recorded context serves only when the caller says the context read nothing that changed', () => {
    const first = layerRelease(defaultsSource('A'), []).values;
    const recorded = renderChartWithReads(first, OPTIONS('A'));
    const again = layerRelease(defaultsSource('A'), [dataSource('values.yaml', { otel: { logging: { exporter: { otlp: { endpoint: 'collector:4317' } } } } })]).values;
    const ids = new Set(['controller']);
    const text = (parts: Iterable<{ made: readonly { object: unknown }[] }>) => JSON.stringify([...parts].map((p) => p.made.map((d) => d.object)));
    const scratch = text(renderSomeParts(again, OPTIONS('A'), ids));
    expect(scratch).toContain('collector:4317');
    expect(text(renderSomeParts(again, OPTIONS('A'), ids, recorded.reuse))).toBe(scratch);
  });
});


/** Each key of `data` judged as lint judges it, and held to the render without it: the keys reported inert. */
function heldToRenders(revision: Revision, data: Values): string[] {
  const { verdicts } = judged(revision, data);
  const full = rendered(revision, data);
  const inert: string[] = [];
  for (const { path, verdict } of verdicts) {
    const key = joinPath(path);
    expect(rendered(revision, withoutLeaf(data, path)) === full, verdict.effect ? `${key}: lint says it has an effect` : `${key}: lint says it has no effect`).toBe(!verdict.effect);
    if (!verdict.effect) inert.push(key);
  }
  return inert;
}

describe('a key the proxy decides all its objects by is judged object by object', () => {
  // Such a key (authproxy.ingress.enabled, customLabels, autoscaling.enabled) reaches every piece of
  // the proxy: the pieces are made again one at a time, those that read fewest values first, and
  // the first that differs from the recorded one decides; a piece that made objects and is gone is
  // a difference before anything is made.
  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] every key of the proxy's production file: each verdict is the render's without it`, () => {
      // The file sets keys the proxy's shared part reads (so every piece is reached), one of them
      // inert: the ServiceMonitor switch without its API.
      for (const key of ['authproxy.ingress.enabled', 'authproxy.customLabels.cost-center', 'authproxy.metrics.serviceMonitor.enabled']) expect(readersOf(revision, PROXY, key).owners).toContain('authproxy');
      expect(heldToRenders(revision, PROXY)).toContain('authproxy.metrics.serviceMonitor.enabled');
    });
  }

  it(`parts of the production file (keys left out at random): each verdict is the render's without the key ${seedTitle(380, 6)}`, async () => {
    const leaves = userLeaves([dataSource('values.yaml', PROXY)]);
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('A' as const, 'B' as const),
        fc.shuffledSubarray(leaves, { minLength: 1, maxLength: 12 }),
        breathing((revision: Revision, dropped: PathSegment[][]) => {
          const data = dropped.reduce((d, p) => withoutLeaf(d, p), PROXY);
          if (rendered(revision, data) === undefined) return;
          const { problems } = lintRelease({ revision, layers: [dataSource('values.yaml', data)], namespace: 'default', releaseName: 'agentplat', apiVersions: [] });
          if (problems.some((p) => p.severity === 'error')) return;
          heldToRenders(revision, data);
        }),
      ),
      fcParams(380, 6),
    );
  });
});

describe('a key the render context reads renders every part again on a context built anew', () => {
  // Every object rests on the context (names, images, telemetry): each part is made again on a
  // context built from the values without the key, compared with what it made, the first that
  // differs ending it; template runs given the data they had are reused.
  const files: Values[] = [
    { nameOverride: 'platform' },
    { otel: { traces: { endpoint: 'http://collector.example:4317' } } },
    { otel: { traces: { enabled: true, endpoint: 'http://collector.example:4317' } }, ui: { replicas: 2 } },
    { fullnameOverride: 'agentplat' },
  ];
  for (const data of files) {
    it(`[B] ${JSON.stringify(data)}: each verdict is the render's without the key`, () => {
      for (const path of userLeaves([dataSource('values.yaml', data)]).filter((p) => p[0] !== 'ui')) expect(readersOf('B', data, joinPath(path)).owners).toContain('context');
      heldToRenders('B', data);
    });
  }

  it('objects a part makes again in another order print the same: the render orders them', () => {
    const doc = (name: string, data: string): RenderedDoc => ({ source: 'agentplat/templates/extra-manifests.yaml', object: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { k: data } } });
    const made = (docs: RenderedDoc[]) => ({ id: 'extra-objects', made: docs, printed: (d: RenderedDoc) => d });
    const [a, b] = [doc('a', '1'), doc('b', '2')];
    expect(partAlike(made([b, a]), [a, b])).toBe(true);
    expect(partAlike(made([doc('b', '3'), a]), [a, b])).toBe(false);
    expect(partAlike(made([a]), [a, b])).toBe(false);
  });
});

describe('a sub-chart the values switch off is judged by the first of its objects that renders without the switch', () => {
  // mcpop, dashboards-mcp and agentplat-tools make their objects in pieces, one per source file
  // (render/subcharts/workload.ts, subchartFiles): without `<chart>.enabled: false` the first
  // piece that makes an object decides, and the rest of the sub-chart is not rendered.
  const off: Values = { mcpop: { enabled: false }, 'dashboards-mcp': { enabled: false }, 'agentplat-tools': { enabled: false } };

  it('without `mcpop.enabled: false` one piece of the operator is made, and it differs', () => {
    const { render } = readersOf('B', off, 'mcpop.enabled');
    const without = layerRelease(defaultsSource('B'), [dataSource('values.yaml', withoutLeaf(off, ['mcpop', 'enabled']))]).values;
    const first = renderSomeParts(without, OPTIONS('B'), new Set(['mcpop']), render.reuse).next();
    expect(first.done).toBe(false);
    const part = first.value as PartMade;
    expect(part.id.startsWith('mcpop#')).toBe(true);
    expect(part.made.length).toBeGreaterThan(0);
    // Every object it made is of the one source the piece declares.
    expect(new Set(part.made.map((d) => d.source)).size).toBe(1);
  });

  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] the three sub-charts switched off, and keys inside them: each verdict is the render's without the key`, () => {
      expect(heldToRenders(revision, { ...off, ui: { replicas: 2 } })).toEqual([]);
      heldToRenders(revision, {
        mcpop: { serviceAccount: { create: false }, rbac: { create: false }, controller: { metrics: { enabled: false } }, nameOverride: 'op' },
        'dashboards-mcp': { grafana: { secretRef: 'grafana-token' }, serviceAccount: { create: false }, replicas: 1 },
        'agentplat-tools': { useDefaultServiceAccount: true, rbac: { readOnly: true }, replicaCount: 1 },
      });
    });
  }
});
