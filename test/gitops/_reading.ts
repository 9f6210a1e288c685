// What the tests of src/gitops/ read objects with: files given as text instead of a folder, and a
// refusal as the one line and hint a user sees.
import type { GitopsReader } from '../../src/gitops/index.ts';
import { UsageError } from '../../src/problems/errors.ts';

/**
 * A reader over files given as text: `beside` as the object's neighbours, `repo` by path from the
 * repository root (its folders listed from those paths, for value file globs).
 */
export function memoryReader(beside: Record<string, string> = {}, repo: Record<string, string> = {}): GitopsReader {
  return {
    neighbours: () => Object.entries(beside).map(([name, text]) => ({ name, text })),
    repoFile: (path) => (repo[path] !== undefined ? { name: path, text: repo[path] } : undefined),
    repoDir: (dir) => {
      const prefix = dir === '' ? '' : `${dir}/`;
      const names = new Map<string, boolean>();
      for (const path of Object.keys(repo)) {
        if (!path.startsWith(prefix)) continue;
        const [name, ...rest] = path.slice(prefix.length).split('/');
        names.set(name!, rest.length > 0 || names.get(name!) === true);
      }
      return names.size > 0 ? [...names].map(([name, isDir]) => ({ name, dir: isDir })) : undefined;
    },
    repoRootText: 'under the test repository',
  };
}

/** The refusal `f` throws, as `message | hint`; an error of another kind, or none, fails the test. */
export function refusal(f: () => unknown): string {
  try {
    f();
  } catch (err) {
    if (err instanceof UsageError) return `${err.message} | ${err.hint ?? ''}`;
    throw err;
  }
  throw new Error('not refused');
}
