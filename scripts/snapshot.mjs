// Build step: the V8 start-up snapshot of the CLI (see src/cli/snapshot.ts and bin/agentplat).
// 1. bundles src/cli/snapshot.ts (which, like every entry, installs the built implementation of
//    src/precomputed.ts first) into one minified CommonJS file (the snapshot builder runs a
//    single script);
// 2. runs `node --build-snapshot` on it, which loads everything and runs the warm-up jobs;
// 3. writes the blobs (dist/agentplat-{a,b,validate}.blob), the values validators' code caches
//    for runs from the a and b snapshots, and, last,
//    dist/agentplat.blob.stamp naming the node binary that built them, with its modification time
//    (a snapshot starts only on that exact binary; the launcher checks the stamp).
// Blob and stamp are written under temporary names and renamed, each blob with the node binary's
// modification time, which the launcher checks. If the snapshot cannot be built, the CLI still
// runs from the bundle, only slower.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const STAMP = 'agentplat.blob.stamp';

/**
 * The stamp names the node binary that built the snapshots and carries that binary's
 * modification time (`touch -r`, to the nanosecond): a node reinstalled or upgraded in place has
 * another time, and the launcher (bin/agentplat) then runs the bundle rather than have node reject
 * the snapshot. Comparing times is a shell built-in (`test -nt`/`-ot`): no process is started.
 */
export function writeStamp(file, node) {
  const tmp = `${file}.tmp`;
  writeFileSync(tmp, `${node}\n`);
  return renameWithTimeOf(node, tmp, file);
}

/**
 * Gives `tmp` the modification time of `node` (to the nanosecond) and renames it to `file`.
 * Blobs carry it too: the launcher starts a snapshot only when the blob's time is still the
 * stamp's, so a blob changed after the build (truncated by a full disk or an interrupted copy,
 * rewritten) is never handed to node, which would crash on it (SIGSEGV) rather than refuse it.
 * Equal times are checked by the shell's `test` alone, without reading megabytes or starting a
 * process at every run.
 */
function renameWithTimeOf(node, tmp, file) {
  const r = spawnSync('touch', ['-r', node, tmp]);
  if (r.status !== 0) {
    rmSync(tmp, { force: true });
    return false;
  }
  renameSync(tmp, file);
  return true;
}

/**
 * Rewrites the few non-ASCII characters esbuild leaves in the output (inside regular expression
 * literals, such as the µ of `µs`) as \\u escapes, which mean the same in strings, regular
 * expressions and identifiers. V8 keeps a script's source in memory, and one such character turns
 * a megabyte of one-byte source into a two-byte string: twice the memory, and in the start-up
 * snapshot twice the bytes to deserialise at every run.
 */
export function asciiOnly(file) {
  const text = readFileSync(file, 'utf8');
  if (!/[^\x00-\x7f]/.test(text)) return;
  writeFileSync(file, text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/**
 * The snapshots, one per profile: `a` and `b` serve every command but validate for revision A or
 * B, `validate` serves validate (bin/agentplat picks the blob from the command and --revision).
 * Each holds only what its runs use, which keeps the blob small: a run spends about 3 to 6 ms per
 * megabyte of snapshot deserialising it. What a profile leaves out still works, loaded from dist/
 * when first needed: validate's code, and the values validators, which only runs with values
 * files use (scripts/gen-validators.mjs: read with their V8 code cache).
 */
export const PROFILES = {
  a: { blob: 'agentplat-a.blob', entry: 'agentplat-snapshot-a.cjs' },
  b: { blob: 'agentplat-b.blob', entry: 'agentplat-snapshot-b.cjs' },
  validate: { blob: 'agentplat-validate.blob', entry: 'agentplat-snapshot-validate.cjs' },
};

/** Replaces a module with one that requires `file` (in dist/) when first used: its code stays out of the snapshot. */
const fromDist = (name, filter, file) => ({
  name: `agentplat-${name}-from-dist`,
  setup(b) {
    b.onResolve({ filter }, () => ({ path: name, namespace: `agentplat-${name}-from-dist` }));
    b.onLoad({ filter: /.*/, namespace: `agentplat-${name}-from-dist` }, () => ({
      contents: `module.exports = require('node:module').createRequire(__agentplatModule.url)('./${file}');`,
      loader: 'js',
    }));
  },
});

/** src/crds/validate.ts from dist/agentplat-validate.cjs. */
const validateFromDist = fromDist('validate', /[\\/]crds[\\/]validate\.ts$/, 'agentplat-validate.cjs');
/** Shell completion (the tab library and its scripts) from dist/agentplat-completion.cjs: no other command uses it. */
const completionFromDist = fromDist('completion', /[\\/]shell-completion\.ts$/, 'agentplat-completion.cjs');

const common = (define) => ({
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  // Every byte of source stays in the snapshot (V8 keeps it for functions not yet compiled),
  // and a larger snapshot takes longer to deserialise at every start. AGENTPLAT_SNAPSHOT_READABLE=1
  // keeps names and layout, for reading a CPU profile.
  minify: !process.env.AGENTPLAT_SNAPSHOT_READABLE,
  legalComments: 'none',
  // The generated modules find dist/generated/ from import.meta.url. In a run from the snapshot
  // that is the blob named by --snapshot-blob (in dist/, wherever the package is now), while it
  // is built (or in agentplat-validate.cjs) the file itself (also in dist/).
  define: { ...define, 'import.meta.url': '__agentplatModule.url' },
  banner: {
    js:
      'var __agentplatModule = { get url() { var a = process.execArgv, i = a.indexOf("--snapshot-blob"); ' +
      'return require("node:url").pathToFileURL(require("node:path").resolve(i >= 0 && !require("node:v8").startupSnapshot.isBuildingSnapshot() ? a[i + 1] : __filename)).href; } };',
  },
  logLevel: 'warning',
});

/** `crdKinds`: every kind's apiVersion and kind (for the validate snapshot's code caches). */
export async function buildSnapshots({ root, dist, define, crdKinds = [] }) {
  const stamp = join(dist, STAMP);
  rmSync(stamp, { force: true });
  for (const p of Object.values(PROFILES)) rmSync(join(dist, p.blob), { force: true });
  // validate's code for a run of the a or b profile that reaches it (see validateFromDist).
  const validateLib = join(dist, 'agentplat-validate.cjs');
  // Its own bundle, so it installs the built implementation in its own copy of the seam.
  await build({
    ...common(define),
    stdin: { contents: `import './src/pipeline/use-built.ts';\nexport * from './src/crds/validate.ts';`, resolveDir: root, loader: 'ts', sourcefile: 'agentplat-validate-entry.ts' },
    outfile: validateLib,
  });
  asciiOnly(validateLib);
  const completionLib = join(dist, 'agentplat-completion.cjs');
  await build({ ...common(define), entryPoints: [join(root, 'src', 'cli', 'shell-completion.ts')], outfile: completionLib });
  asciiOnly(completionLib);
  const plugins = {
    a: [validateFromDist, completionFromDist],
    b: [validateFromDist, completionFromDist],
    validate: [completionFromDist],
  };
  const built = [];
  for (const [profile, p] of Object.entries(PROFILES)) {
    const entry = join(dist, p.entry);
    await build({
      ...common({ ...define, __AGENTPLAT_SNAPSHOT_PROFILE__: JSON.stringify(profile) }),
      entryPoints: [join(root, 'src', 'cli', 'snapshot.ts')],
      outfile: entry,
      plugins: plugins[profile],
    });
    asciiOnly(entry);
    const blob = join(dist, p.blob);
    const tmp = `${blob}.tmp-${process.pid}`;
    // The builder warns that some built-in modules are "not yet fully verified" in snapshots;
    // the tests run every command from the snapshots and compare the output with the bundle's.
    const r = spawnSync(process.execPath, ['--no-warnings', '--snapshot-blob', tmp, '--build-snapshot', entry], { cwd: dist, encoding: 'utf8' });
    if (r.status !== 0) {
      rmSync(tmp, { force: true });
      return { ok: false, reason: `node --build-snapshot (${profile}) exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}` };
    }
    if (!renameWithTimeOf(process.execPath, tmp, blob)) return { ok: false, reason: `cannot copy the modification time of ${process.execPath} (touch -r)` };
    built.push(blob);
  }
  // The validators' code caches for runs from each snapshot (src/code-cache.ts; a cache made in a
  // process started from another snapshot is rejected since V8 12): a run from the snapshot that
  // uses them, with AGENTPLAT_BUILD_CODE_CACHE=1, writes them when it ends. For the values
  // validators a lint of the revision's defaults as a values file; for the CRD validators a
  // validate of one document per kind with a field no schema has (so ajv runs for each).
  const documents = join(dist, `.code-cache-documents-${process.pid}.yaml`);
  writeFileSync(documents, crdKinds.map(({ apiVersion, kind }) => `apiVersion: ${apiVersion}\nkind: ${kind}\nmetadata:\n  name: x\nspec:\n  unknownField: true\n`).join('---\n'));
  const runs = [
    ['a', ['lint', '-r', 'A', '-f', join(root, 'values', 'revision-a.yaml')]],
    ['b', ['lint', '-r', 'B', '-f', join(root, 'values', 'revision-b.yaml')]],
    ['validate', ['validate', documents]],
  ];
  try {
    for (const [profile, args] of runs) {
      const r = spawnSync(process.execPath, ['--snapshot-blob', join(dist, PROFILES[profile].blob), '--', ...args], {
        cwd: root,
        encoding: 'utf8',
        env: { ...process.env, AGENTPLAT_BUILD_CODE_CACHE: '1', NO_COLOR: '1' },
      });
      if (r.status !== 0 && r.status !== 1) return { ok: false, reason: `the code cache run of ${PROFILES[profile].blob} exited with ${r.status}: ${r.stderr.trim().split('\n').slice(-3).join(' / ')}` };
    }
  } finally {
    rmSync(documents, { force: true });
  }
  if (!writeStamp(stamp, process.execPath)) return { ok: false, reason: `cannot copy the modification time of ${process.execPath} (touch -r)` };
  return { ok: true, blobs: built };
}

