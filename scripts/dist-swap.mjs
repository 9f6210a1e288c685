// Build step: puts a finished build in place of dist/ without a moment when a file is missing.
// The build writes everything into dist.next/; then each of its files is renamed over its copy in
// dist/ (one rename(2) each, so a reader sees the old file or the new one, whole), shared chunks
// and data first and the entry points (agentplat.mjs, api.mjs, snapshots, the stamp) last, so a
// CLI that starts meanwhile never loads an entry point whose chunks are not there yet. A CLI that
// started on the previous entry point and imports one of its chunks later still finds it: files
// the new build no longer has stay until the build after it. A build that fails or is stopped
// before the swap leaves dist/ as it was; its dist.next/ is removed by the next build.
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';

/** Removes what a build stopped before its swap left behind (dist.next/, and dist.old-PID/ of older builds). */
export function removeStaleBuilds(dist) {
  const prefix = `${basename(dist)}.old-`;
  for (const e of readdirSync(dirname(dist))) if (e.startsWith(prefix)) rmSync(join(dirname(dist), e), { recursive: true, force: true });
}

/** Every file below `dir`, as paths relative to it. */
function filesBelow(dir, rel = '') {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesBelow(dir, path) : [path];
  });
}

/** Entry points go last (the stamp, which says the snapshots are usable, very last). */
function rank(path) {
  if (path.includes('/') || basename(path).startsWith('chunk-')) return 0;
  if (path.endsWith('.stamp')) return 2;
  return 1;
}

/** The files of the build now in place, so the next build knows what it may remove. */
const MANIFEST = '.build-files';

function readManifest(dist) {
  try {
    return readFileSync(join(dist, MANIFEST), 'utf8').split('\n').filter(Boolean);
  } catch {
    return undefined;
  }
}

/**
 * Replaces the contents of `dist` with the finished build in `next`, file by file. Files of the
 * previous build that this one does not have stay one build longer: a CLI that started on the
 * previous build may still import one of its chunks. Older leftovers are removed.
 */
export function swapIn(next, dist) {
  const incoming = filesBelow(next).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  mkdirSync(dist, { recursive: true });
  const previous = readManifest(dist) ?? filesBelow(dist);
  for (const path of incoming) {
    mkdirSync(dirname(join(dist, path)), { recursive: true });
    renameSync(join(next, path), join(dist, path));
  }
  writeFileSync(join(dist, `${MANIFEST}.tmp`), incoming.join('\n') + '\n');
  renameSync(join(dist, `${MANIFEST}.tmp`), join(dist, MANIFEST));
  const keep = new Set([...incoming, ...previous, MANIFEST]);
  for (const path of filesBelow(dist)) if (!keep.has(path)) rmSync(join(dist, path), { force: true });
  removeEmptyDirs(dist);
  rmSync(next, { recursive: true, force: true });
}

function removeEmptyDirs(dir) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const sub = join(dir, e.name);
    removeEmptyDirs(sub);
    if (readdirSync(sub).length === 0) rmSync(sub, { recursive: true, force: true });
  }
}
