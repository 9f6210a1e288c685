// The embedded defaults of each revision: the lowest layer of every lint and render.
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-root.ts';
import { perInstall } from '../precomputed.ts';
import type { Revision } from '../spec/revisions.ts';
import { defaultsData, defaultsPositions } from './defaults-data.ts';
import { defaultsLabel } from './defaults-label.ts';
import { joinPath } from './merge.ts';
import { parseValuesText, type ValuesSource } from './source.ts';

// Made from the defaults members of the precomputed seam: made again when another is installed.
const cache = perInstall(() => new Map<Revision, ValuesSource>());

export function defaultsPath(revision: Revision): string {
  return `values/revision-${revision.toLowerCase()}.yaml`;
}

/** The commented defaults file of a revision, as shipped. */
export function defaultsText(revision: Revision): string {
  return readFileSync(packageFile(defaultsPath(revision)), 'utf8');
}

/** The defaults as a values layer. Positions are computed only when a finding points into them. */
export function defaultsSource(revision: Revision): ValuesSource {
  let s = cache().get(revision);
  if (!s) {
    // Named after the command that prints this file, whose lines its positions are.
    const name = defaultsLabel(revision);
    let located: ValuesSource | undefined;
    const positions = defaultsPositions(revision);
    s = {
      name,
      chartDefaults: true,
      data: defaultsData(revision),
      locate(path) {
        if (positions) {
          const hit = positions[joinPath(path)];
          return hit ? { file: name, line: hit[0], column: hit[1], excerpt: hit[2] } : undefined;
        }
        located ??= parseValuesText(defaultsText(revision), name).source;
        return located?.locate(path);
      },
    };
    cache().set(revision, s);
  }
  return s;
}
