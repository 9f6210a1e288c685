// What the project's ESLint rules read besides the file they lint, as one fingerprint:
// eslint.config.mjs puts it in every file's settings, and ESLint's cache (`npm run lint`) keeps a
// file's result only while its settings are unchanged. agentplat/comment-references reads which
// repository files exist, agentplat/public-entry-points the installed packages' manifests (fixed by
// package-lock.json), and both are eslint/plugin.mjs's code.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The folders a comment may name a file of (agentplat/comment-references). */
const NAMED_FOLDERS = ['src', 'test', 'scripts', 'bench', 'docs', 'fixtures', 'templates'];

function filesUnder(root, dir) {
  if (!existsSync(join(root, dir))) return [];
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(root, `${dir}/${e.name}`) : [`${dir}/${e.name}`]));
}

/** The fingerprint of the repository at `root`: its file list, the rules' code and the lock file. */
export function lintInputs(root) {
  const hash = createHash('sha256').update(NAMED_FOLDERS.flatMap((d) => filesUnder(root, d)).sort().join('\n'));
  for (const file of ['eslint/plugin.mjs', 'package-lock.json']) hash.update(`\0${file}\0`).update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '');
  return hash.digest('hex');
}
