// Where a key of a migrated values layer came from in the file the user wrote: the key a change
// of the migration wrote it from (its `to` paths), or the same key when the migration left it
// alone. `values --computed --show-origin` names it; the positions are the user's, not those
// of the migrated text.

import type { Change } from './changes.ts';
import { joinPath, splitPath } from '../values/merge.ts';
import { deepestLocation } from '../values/origins.ts';
import type { Location, PathSegment, ValuesSource } from '../values/source.ts';

export interface MigratedOrigin {
  /** The key of the original file the value was migrated from; absent when the migration left the key as it was. */
  from?: string;
  /** Where the original layer wrote it: the key itself, else its deepest written parent. */
  location?: Location;
}

/** The origin in `original` of the value at `path` of the layer `changes` made of it. */
export function migratedOrigin(path: readonly PathSegment[], changes: readonly Change[], original: ValuesSource): MigratedOrigin {
  // The last change that wrote this path or one of its parents decides (a value rewritten, then moved).
  for (let i = changes.length - 1; i >= 0; i--) {
    const change = changes[i]!;
    for (let len = path.length; len >= 1; len--) {
      if (!change.to?.includes(joinPath(path.slice(0, len)))) continue;
      // Below the moved key the structure is kept (a renamed map), unless the change reshaped it (a map became a list).
      const below = [...change.path.split('.'), ...path.slice(len)];
      const kept = original.locate(below) !== undefined;
      const from = kept ? joinPath(below) : change.path;
      return { from, ...deepestLocation(original, kept ? below : change.path.split('.')) };
    }
  }
  return deepestLocation(original, path);
}

/** Where the user wrote the key of each change (its deepest written part), in the layer the change names. */
export function changeLocations(changes: readonly (Change & { file: string })[], sources: readonly ValuesSource[]): (Location | undefined)[] {
  const byName = new Map(sources.map((s) => [s.name, s]));
  return changes.map((c) => {
    const source = byName.get(c.file);
    return source ? deepestLocation(source, splitPath(c.path)).location : undefined;
  });
}
