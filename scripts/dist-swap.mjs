// Build step: puts a finished build in place of dist/ in one step. The build writes everything
// into dist.next/; then dist/ is renamed aside and dist.next/ renamed to dist/, and the old tree
// is deleted. A CLI that starts at any moment finds either the old build or the new one, whole:
// never a bundle without its chunks, data files of two builds, or a snapshot without its code.
// Only for the instant between the two renames is there no dist/ (a CLI started exactly then
// says it is not built). A build that fails or is stopped leaves dist/ as it was; its dist.next/
// and any dist.old-PID/ of a build that died are removed by the next build.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Removes the dist.old-PID/ folders that a build stopped between its renames left behind. */
export function removeStaleBuilds(dist) {
  const prefix = `${basename(dist)}.old-`;
  for (const e of readdirSync(dirname(dist))) if (e.startsWith(prefix)) rmSync(join(dirname(dist), e), { recursive: true, force: true });
}

/** Replaces `dist` with the finished build in `next`. */
export function swapIn(next, dist) {
  const old = `${dist}.old-${process.pid}`;
  const had = existsSync(dist);
  if (had) renameSync(dist, old);
  renameSync(next, dist);
  if (had) rmSync(old, { recursive: true, force: true });
}
