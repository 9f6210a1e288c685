// Loads generated validator code (dist/generated/*.cjs: self-contained CommonJS scripts) with a
// V8 code cache, so a run compiles none of it. Used by the modules the build generates in place of
// src/lint/schema-validators.ts and src/crds/crd-validators.ts; never in development.
//
// A code cache is accepted only in a process like the one that made it: the same V8 flags (a run
// from a snapshot sets some, src/cli/tiering.ts) and, since V8 12 (Node 22), the same start-up
// snapshot. So each script has one cache per way of starting: `<file>.bundle.cache` (made by the
// build) and `<file>.<snapshot>.cache` (made by a run from that snapshot with
// AGENTPLAT_BUILD_CODE_CACHE=1, see scripts/snapshot.mjs). A cache V8 rejects, or none, only means
// the code is compiled: the results are the same.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { Script } from 'node:vm';

/** The function a script's CommonJS text is wrapped in (the build makes its caches the same way). */
export const SCRIPT_WRAPPER = ['(function (module, exports) {', '\n})'] as const;

/** `agentplat-b` when this process started from dist/agentplat-b.blob, else `bundle`. */
export function codeCacheTag(): string {
  const i = process.execArgv.indexOf('--snapshot-blob');
  return i >= 0 ? String(process.execArgv[i + 1]).split(/[\\/]/).pop()!.replace(/\.blob$/, '') : 'bundle';
}

/** Runs the script at `file` (a path) and returns its module.exports. */
export function loadWithCodeCache(file: string): unknown {
  const cacheFile = `${file}.${codeCacheTag()}.cache`;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(cacheFile);
  } catch {
    // no cache: compiled below
  }
  const script = new Script(SCRIPT_WRAPPER[0] + readFileSync(file, 'utf8') + SCRIPT_WRAPPER[1], { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (m: { exports: unknown }, e: unknown) => void)(module, module.exports);
  if ((!cachedData || script.cachedDataRejected) && process.env.AGENTPLAT_BUILD_CODE_CACHE === '1') {
    // At exit, after the run used the code: the functions that ran are in the cache compiled.
    process.once('exit', () => {
      try {
        writeFileSync(`${cacheFile}.tmp`, script.createCachedData());
        renameSync(`${cacheFile}.tmp`, cacheFile);
      } catch {
        // a read-only package folder: runs compile the code, only slower
      }
    });
  }
  return module.exports;
}
