// `npm pack` runs this twice: as `prepack` (build dist/, then write package.json without its
// scripts) and as `postpack` (put the repository's package.json back).
//
// Why: the repository needs its `prepare` script, so that `npm ci` in a checkout builds dist/. The
// package must not carry it: scripts/ is not in the package, and npm 11 warns on every install of
// a package that declares a lifecycle script (`prepare: node scripts/build.mjs`, "install scripts
// not yet covered by allowScripts"). npm puts package.json into the tarball as it is on disk after
// `prepack`, so the package's manifest is the repository's without `scripts`
// (docs/decisions.md, "The package declares no scripts").
//
// The repository's package.json is kept byte for byte in PACKING while the pack runs. A pack that
// stopped between the two steps (npm runs no `postpack` after a failure) leaves it there: the
// next `prepack` or `postpack` puts it back when package.json is still the stripped copy, and
// stops with a message naming both files when package.json was changed since.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const MANIFEST = join(root, 'package.json');
const PACKING = join(root, '.package.json.packing');

/** The manifest the package ships: the repository's without `scripts`, in npm's layout. */
function packedManifest(text) {
  const { scripts: _scripts, ...rest } = JSON.parse(text);
  return `${JSON.stringify(rest, null, 2)}\n`;
}

/** Puts the repository's package.json back from PACKING, when a pack left it there. */
function restore() {
  if (!existsSync(PACKING)) return;
  const kept = readFileSync(PACKING, 'utf8');
  if (readFileSync(MANIFEST, 'utf8') !== packedManifest(kept)) {
    fail(`${PACKING} holds package.json as it was before an npm pack that did not finish, and package.json was changed since`, `compare the two, keep the one you want as package.json and delete ${PACKING}`);
  }
  renameSync(PACKING, MANIFEST);
}

function fail(message, hint) {
  process.stderr.write(`scripts/pack.mjs: ${message}\n  hint: ${hint}\n`);
  process.exit(1);
}

function prepack() {
  restore();
  const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) fail('the build failed; nothing was packed', 'fix what the build printed above and run npm pack again');
  const text = readFileSync(MANIFEST, 'utf8');
  // The original first (a copy), then the stripped manifest written aside and renamed over it:
  // package.json is at every moment whole, and the original is never only in memory.
  writeFileSync(PACKING, text);
  const staged = `${MANIFEST}.next`;
  writeFileSync(staged, packedManifest(text));
  renameSync(staged, MANIFEST);
}

const step = process.argv[2];
if (step === 'prepack') prepack();
else if (step === 'postpack') restore();
else if (step !== undefined) fail(`unknown step "${step}"`, 'run it as prepack or postpack (npm pack does)');
