// Where a values path (as `migrate` reports it: `controller.auth.mode`, `ui.env.LOG_LEVEL`) was
// written in one layer: the key itself, else its deepest parent that this layer writes.
import { splitPath } from '../values/merge.ts';
import type { Location, ValuesSource } from '../values/source.ts';

export function locateValuesPath(source: ValuesSource, dotted: string): Location | undefined {
  const path = splitPath(dotted);
  for (let len = path.length; len >= 1; len--) {
    const at = source.locate(path.slice(0, len));
    if (at) return at;
  }
  return undefined;
}
