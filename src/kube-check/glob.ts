// The folders `agentplat validate` reads: every resource file under a folder argument, in the
// same order and with the same hidden-file rule as the patterns of src/glob.ts.

import { joinEntry, resolveFrom } from '../fs-path.ts';
import { dirEntries, isDirectory, isFile } from '../glob.ts';

export const RESOURCE_FILE = /\.ya?ml$/;

/**
 * Every *.yaml and *.yml file under `dir` (a path as the user wrote it), recursively, sorted by
 * path; hidden files and folders are left out, as the glob expansion does. `undefined` when
 * `dir` is not a directory.
 */
export function walkResourceDir(dir: string, cwd: string): string[] | undefined {
  if (!isDirectory(resolveFrom(cwd, dir))) return undefined;
  const out: string[] = [];
  const visit = (rel: string): void => {
    for (const e of dirEntries(resolveFrom(cwd, rel))) {
      if (e.name.startsWith('.')) continue;
      const child = joinEntry(rel, e.name);
      if (e.dir) visit(child);
      // The entry's type says "file" for regular files; links and the rest are asked with stat.
      else if (RESOURCE_FILE.test(e.name) && (e.file || isFile(resolveFrom(cwd, child)))) out.push(child);
    }
  };
  visit(dir);
  return out.sort();
}
