// The embedded defaults of each revision: the lowest layer of every lint and render.
import { readFileSync } from 'node:fs';
import { packageFile } from '../package-root.ts';
import type { Revision } from '../spec/revisions.ts';
import { parseValuesText, type ValuesSource } from './source.ts';

const cache = new Map<Revision, ValuesSource>();

export function defaultsPath(revision: Revision): string {
  return `values/revision-${revision.toLowerCase()}.yaml`;
}

export function defaultsText(revision: Revision): string {
  return readFileSync(packageFile(defaultsPath(revision)), 'utf8');
}

/** The defaults as a values layer; problems in them are bugs, so they throw. */
export function defaultsSource(revision: Revision): ValuesSource {
  let s = cache.get(revision);
  if (!s) {
    const parsed = parseValuesText(defaultsText(revision), `${defaultsPath(revision)} (defaults)`);
    if (!parsed.source) throw new Error(`defaults of revision ${revision} do not parse: ${parsed.problems[0]?.message}`);
    s = parsed.source;
    cache.set(revision, s);
  }
  return s;
}
