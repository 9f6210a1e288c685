// What the no-effect tests hold lint's verdicts to: the chart's output for one values file, and
// that file without one key (the definition: remove the key, keep the rest).
import { renderChart, type ChartRenderOptions } from '../../src/render/render.ts';
import { toYaml } from '../../src/render/manifests.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { layerRelease } from '../../src/values/replace.ts';
import { dataSource, type PathSegment } from '../../src/values/source.ts';
import type { Values } from '../../src/values/merge.ts';

/** The release the tests render: `agentplat` in `default`, no API versions declared. */
export const OPTIONS = (revision: Revision): ChartRenderOptions => ({ revision, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: [] });

/** The output of the chart for `data` as the user's one values file; undefined when it does not render. */
export function rendered(revision: Revision, data: Values): string | undefined {
  try {
    return toYaml(renderChart(layerRelease(defaultsSource(revision), [dataSource('values.yaml', data)]).values, OPTIONS(revision)));
  } catch {
    return undefined;
  }
}

/** `data` without the leaf at `path` (a copy). */
export function withoutLeaf(data: Values, path: readonly PathSegment[]): Values {
  const copy = structuredClone(data);
  let cur = copy;
  for (const seg of path.slice(0, -1)) cur = cur[String(seg)] as Values;
  delete cur[String(path[path.length - 1])];
  return copy;
}
