// One value per release: the defaults and the user's layers merged once, the replace-not-merge
// rule applied once (src/values/replace.ts), linted and rendered as that same value; a
// --show-only miss leaves the pipeline as the one UsageError the CLI and the API report.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { renderRelease } from '../../src/pipeline/render.ts';
import { UsageError } from '../../src/problems/errors.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { getPath, isPlainMap, layerValues, type Values } from '../../src/values/merge.ts';
import { layerRelease, REPLACE_NOT_MERGE } from '../../src/values/replace.ts';
import { dataSource } from '../../src/values/source.ts';

const release = { revision: 'B' as const, releaseName: 'agentplat', namespace: 'default', apiVersions: [] };

/** The rule as the spec says it, built here from whole merges: each replaced path takes the user's layers merged among themselves. */
function reference(defaults: Values, layers: Values[]): Values {
  let out = layerValues([dataSource('d', defaults), ...layers.map((l, i) => dataSource(`l${i}`, l))]).values;
  const user = layerValues(layers.map((l, i) => dataSource(`l${i}`, l))).values;
  for (const path of REPLACE_NOT_MERGE) {
    const segs = path.split('.');
    const value = getPath(user, segs);
    if (value === undefined) continue;
    const set = (tree: Values, [head, ...rest]: string[]): Values => ({ ...tree, [head!]: rest.length === 0 ? value : set(isPlainMap(tree[head!]) ? (tree[head!] as Values) : {}, rest) });
    out = set(out, segs);
  }
  return out;
}

describe('the values of a release', () => {
  it('a probe written over two layers replaces the default as the two layers merged, and render renders exactly what lint checked', () => {
    const layers = [dataSource('a.yaml', { controller: { readinessProbe: { exec: { command: ['true'] } } } }), dataSource('--set', { controller: { readinessProbe: { periodSeconds: 7 } } })];
    const lint = lintValues({ revision: 'B', layers });
    expect(lint.layered.values.controller).toMatchObject({ readinessProbe: { exec: { command: ['true'] }, periodSeconds: 7 } });
    expect((lint.layered.values.controller as Values).readinessProbe).not.toHaveProperty('httpGet');
    const { docs } = renderRelease({ ...release, layers, skipCrds: true });
    const controller = docs!.find((d) => d.object.kind === 'Deployment' && d.object.metadata.name === 'agentplat-controller')!;
    const containers = (controller.object as unknown as { spec: { template: { spec: { containers: { name: string; readinessProbe?: unknown }[] } } } }).spec.template.spec.containers;
    expect(containers.find((c) => c.name === 'controller')!.readinessProbe).toEqual((lint.layered.values.controller as Values).readinessProbe);
  });

  it('cutting each layer down to the replaced paths gives what merging the whole layers gives (nulls, scalars and maps on the way)', () => {
    const value = fc.oneof(fc.constant(null), fc.integer(), fc.constant('x'), fc.dictionary(fc.constantFrom('exec', 'httpGet', 'periodSeconds'), fc.oneof(fc.constant(null), fc.integer()), { maxKeys: 3 }));
    const layer = fc.record(
      {
        controller: fc.oneof(fc.constant(null), fc.constant(3), fc.record({ readinessProbe: value, startupProbe: value, metrics: fc.record({ serviceMonitor: fc.record({ tlsConfig: value }, { requiredKeys: [] }) }, { requiredKeys: [] }) }, { requiredKeys: [] })),
        ui: fc.record({ readinessProbe: value, replicas: fc.integer() }, { requiredKeys: [] }),
      },
      { requiredKeys: [] },
    );
    const defaults = defaultsSource('B').data;
    fc.assert(
      fc.property(fc.array(layer, { maxLength: 3 }), (layers) => {
        const got = layerRelease(dataSource('d', defaults), layers.map((l, i) => dataSource(`l${i}`, l as Values))).values;
        expect(got).toEqual(reference(defaults, layers as Values[]));
      }),
      { seed: 20261126, numRuns: 300 },
    );
  });

  it('a --show-only source that matches nothing is the UsageError renderRelease throws, naming the flag that left it out', () => {
    const miss = () => renderRelease({ ...release, layers: [], skipCrds: true, showOnly: ['crds/agents.agentplat.dev.yaml'] });
    expect(miss).toThrow(UsageError);
    expect(miss).toThrow(/--show-only "crds\/agents.agentplat.dev.yaml": no rendered object comes from that source/);
    try {
      miss();
    } catch (err) {
      expect((err as UsageError).hint).toMatch(/CustomResourceDefinitions, which --skip-crds leaves out/);
    }
  });
});
