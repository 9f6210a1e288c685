// Keys whose value the user replaces as a whole rather than merging into the default: a probe
// written with `exec` must not keep the default `httpGet` (the spec: "setting a value replaces
// the default entirely"). Lint and render both see values with this applied, so what the
// linter checks is what the chart renders.

import { isPlainMap, type Values } from './merge.ts';

/** Values paths whose user value replaces the default instead of merging into it. */
export const REPLACE_NOT_MERGE: readonly string[] = [
  'controller.readinessProbe',
  'controller.startupProbe',
  'ui.readinessProbe',
  'ui.startupProbe',
  'controller.metrics.serviceMonitor.tlsConfig',
];

/**
 * `values` (defaults and user layers merged) with every REPLACE_NOT_MERGE path the user wrote
 * set to the user's layers merged among themselves, without the default underneath.
 */
export function applyReplaceNotMerge(values: Values, userValues: Values | undefined): Values {
  if (!userValues) return values;
  let out = values;
  for (const path of REPLACE_NOT_MERGE) {
    const segs = path.split('.');
    let user: unknown = userValues;
    for (const s of segs) user = isPlainMap(user) ? user[s] : undefined;
    if (user === undefined) continue;
    out = setIn(out, segs, user);
  }
  return out;
}

function setIn(tree: Values, segs: string[], value: unknown): Values {
  const [head, ...rest] = segs as [string, ...string[]];
  const copy: Values = { ...tree };
  copy[head] = rest.length === 0 ? value : setIn(isPlainMap(tree[head]) ? (tree[head] as Values) : {}, rest, value);
  return copy;
}
