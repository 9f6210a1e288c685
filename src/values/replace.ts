// The values of a release, made once: the revision defaults under the user's layers (Helm's
// layering, ./merge.ts), with the keys the user replaces as a whole rather than merging into the
// default: a probe written with `exec` must not keep the default `httpGet` (the spec: "setting a
// value replaces the default entirely"). The linter computes this one value (lintValues), checks
// it, and the renderer renders that same value, so what the linter checks is what the chart
// renders.

import { getPath, isPlainMap, layerValues, mergeMaps, type LayeredValues, type Values } from './merge.ts';
import type { ValuesSource } from './source.ts';

/** Values paths whose user value replaces the default instead of merging into it. */
export const REPLACE_NOT_MERGE: readonly string[] = [
  'controller.readinessProbe',
  'controller.startupProbe',
  'ui.readinessProbe',
  'ui.startupProbe',
  'controller.metrics.serviceMonitor.tlsConfig',
];

/**
 * `defaults` and the user's `layers` merged in order, with every REPLACE_NOT_MERGE path the user
 * wrote set to the user's layers merged among themselves at that path, without the default
 * underneath. Positions and origins are those of the layers.
 */
export function layerRelease(defaults: ValuesSource, layers: readonly ValuesSource[]): LayeredValues {
  const merged = layerValues([defaults, ...layers]);
  let values = merged.values;
  for (const path of REPLACE_NOT_MERGE) {
    const segs = path.split('.');
    // Only the keys on the way to the path and the tree under it decide its merged value: each
    // layer is cut down to them, so no layer is merged as a whole a second time.
    // The layers combine as layerValues combines them: files merge map by map (a null is a
    // value), flags edit the tree below them.
    let user: Values = {};
    for (const l of layers) user = l.apply ? l.apply(user) : mergeMaps(user, alongPath(l.data, segs) as Values);
    // A null removes the key, as on every other key: the merged tree has it removed already.
    const value = getPath(user, segs);
    if (value !== undefined && value !== null) values = setIn(values, segs, value);
  }
  return { ...merged, values };
}

/** `data` with only the keys along `segs` kept at each level, and the whole value at the end. */
function alongPath(data: unknown, segs: readonly string[]): unknown {
  if (segs.length === 0 || !isPlainMap(data)) return data;
  const [head, ...rest] = segs as [string, ...string[]];
  return Object.prototype.hasOwnProperty.call(data, head) ? { [head]: alongPath(data[head], rest) } : {};
}

function setIn(tree: Values, segs: readonly string[], value: unknown): Values {
  const [head, ...rest] = segs as [string, ...string[]];
  const copy: Values = { ...tree };
  copy[head] = rest.length === 0 ? value : setIn(isPlainMap(tree[head]) ? (tree[head] as Values) : {}, rest, value);
  return copy;
}
