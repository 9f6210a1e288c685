// The embedded defaults of each revision: the lowest layer of every lint and render.
import { readPackageFile } from '../package-root.ts';
import type { Revision } from '../chart/revisions.ts';
import { defaultsData, defaultsPositions, defaultsUnsetKeys } from './defaults-data.ts';
import { defaultsLabel } from './defaults-label.ts';
import { joinPath } from './merge.ts';
import type { ValuesSource } from './source.ts';

const cache = new Map<Revision, ValuesSource>();

export function defaultsPath(revision: Revision): string {
  return `values/revision-${revision.toLowerCase()}.yaml`;
}

/** The commented defaults file of a revision, as shipped. */
export function defaultsText(revision: Revision): string {
  return readPackageFile(defaultsPath(revision));
}

/** The defaults as a values layer, with the position of every key the build recorded. */
export function defaultsSource(revision: Revision): ValuesSource {
  let s = cache.get(revision);
  if (!s) {
    // Named after the command that prints this file, whose lines its positions are.
    const name = defaultsLabel(revision);
    s = {
      name,
      chartDefaults: true,
      data: defaultsData(revision),
      unsetKeys: () => defaultsUnsetKeys(revision),
      locate(path) {
        const hit = defaultsPositions(revision)[joinPath(path)];
        return hit ? { file: name, line: hit[0], column: hit[1], excerpt: hit[2] } : undefined;
      },
    };
    cache.set(revision, s);
  }
  return s;
}
