// Where each value of a release came from: every leaf of the merged values (a scalar, a null, an
// empty map or list) with the layer that wrote it and the position it was written at. Read from
// the one merge (LayeredValues of layerRelease), never by merging again.

import { isPlainMap, type LayeredValues } from './merge.ts';
import type { Location, PathSegment, ValuesSource } from './source.ts';

export interface LeafOrigin {
  path: PathSegment[];
  value: unknown;
  /** The layer whose value this is: the latest layer that wrote the leaf (or, for a list filler, its nearest written parent). */
  source?: ValuesSource;
  /** Where that layer wrote it: the leaf itself, else its deepest written parent in that same layer. */
  location?: Location;
}

/** Every leaf of `layered.values`, in document order, with its origin. */
export function leafOrigins(layered: LayeredValues): LeafOrigin[] {
  const out: LeafOrigin[] = [];
  const walk = (v: unknown, path: PathSegment[]): void => {
    const children: [PathSegment, unknown][] = Array.isArray(v) ? v.map((x, i) => [i, x]) : isPlainMap(v) ? Object.entries(v) : [];
    if (children.length === 0) {
      out.push({ path, value: v, ...originOfLeaf(layered, path) });
      return;
    }
    for (const [k, x] of children) walk(x, [...path, k]);
  };
  walk(layered.values, []);
  return out;
}

function originOfLeaf(layered: LayeredValues, path: readonly PathSegment[]): { source?: ValuesSource; location?: Location } {
  // The latest layer that wrote the path itself; a leaf no layer wrote (the nulls helm fills a
  // list with up to a --set index) belongs to the layer that wrote its nearest parent.
  for (let len = path.length; len >= 1; len--) {
    const source = layered.originOf(path.slice(0, len));
    if (!source) continue;
    // Positions are asked of that layer only: another layer's parent key is not where this value was written.
    return { source, ...deepestLocation(source, path.slice(0, len)) };
  }
  return {};
}

/** Where `source` wrote `path`, else its deepest parent that `source` wrote. */
export function deepestLocation(source: ValuesSource, path: readonly PathSegment[]): { location?: Location } {
  for (let at = path.length; at >= 1; at--) {
    const location = source.locate(path.slice(0, at));
    if (location) return { location };
  }
  return {};
}
