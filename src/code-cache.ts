// Runs the package's CommonJS scripts (the CLI bundle dist/cli.cjs, the ajv standalone validators
// of dist/generated/) with V8's code cache: the first run compiles a script and, as it exits,
// writes the code V8 compiled for it into the user's cache folder; later runs hand that code back
// to V8 (`vm.Script` `cachedData`, public API on every Node this package supports) instead of
// parsing and compiling the script again. On Node 20 nothing else caches compiled code.
//
// The cache can never serve code of another script: a cache file's name holds the script's
// content hash (the build writes it on the script's first line), its size and modification time,
// the Node version, the architecture and Node's options; V8 itself refuses code of another V8 version or other
// flags (`cachedDataRejected`), and the script then runs compiled from its text and writes a new
// cache. Writes are atomic (a temporary file renamed into place), and any failure to read or write
// the cache (a read-only or missing home, a full disk) only costs speed: nothing is reported.
import { isAscii } from 'node:buffer';
import { closeSync, existsSync, fstatSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { constants as vmConstants, Script } from 'node:vm';

/** The first line the build writes on each script it ships: `// agentplat-content-hash <hex>`. */
export const CONTENT_HASH_PREFIX = '// agentplat-content-hash ';

/**
 * The folder the caches go to: `$XDG_CACHE_HOME/agentplat`, else the system's per-user cache
 * folder (`~/.cache/agentplat`, `~/Library/Caches/agentplat` on macOS, `%LOCALAPPDATA%\agentplat\Cache`
 * on Windows). Undefined when there is no home to put it in.
 */
export function codeCacheDir(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | undefined {
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, 'agentplat');
  if (platform === 'win32' && env.LOCALAPPDATA) return join(env.LOCALAPPDATA, 'agentplat', 'Cache');
  let home: string;
  try {
    home = homedir();
  } catch {
    return undefined;
  }
  if (!home) return undefined;
  return platform === 'darwin' ? join(home, 'Library', 'Caches', 'agentplat') : join(home, '.cache', 'agentplat');
}

/**
 * The name of the cache file of `file` under `name`: the name, then the key (content hash, size,
 * modification time, Node version, architecture, Node's options). Undefined when the script carries no content
 * hash (then it is not cached).
 */
export function cacheFileName(name: string, source: string, size: number, mtimeMs: number): string | undefined {
  if (!source.startsWith(CONTENT_HASH_PREFIX)) return undefined;
  const end = source.indexOf('\n');
  const hash = source.slice(CONTENT_HASH_PREFIX.length, end < 0 ? undefined : end).trim();
  if (!/^[0-9a-f]{8,64}$/.test(hash)) return undefined;
  return `${name}--${hash}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}${flagsKey()}.v8`;
}

/**
 * Node's options change V8's flags, and V8 refuses a cache made under other flags: runs with other
 * options (`node --max-old-space-size=… bin/agentplat`, NODE_OPTIONS) keep their own cache rather
 * than replace each other's. A 32-bit FNV-1a hash of the options, or nothing when there are none.
 */
function flagsKey(): string {
  const flags = [...process.execArgv, process.env.NODE_OPTIONS ?? '', v8FlagsSet()].join(' ').trim();
  if (flags === '') return '';
  let h = 0x811c9dc5;
  for (let i = 0; i < flags.length; i++) h = Math.imul(h ^ flags.charCodeAt(i), 0x01000193);
  return `-o${(h >>> 0).toString(16)}`;
}

/**
 * The V8 flags this process set after it started (the launcher does, src/cli/v8-tiers.ts): V8
 * stamps them on a code cache as it does Node's options, so they are part of the key too, or a
 * render and a lint (which set other flags) would each refuse and replace the cache of a script
 * both run. Kept on the global object: the launcher and the CLI bundle each have their own copy
 * of this module.
 */
const V8_FLAGS_SET = Symbol.for('agentplat.v8-flags-set');

export function noteV8FlagsSet(flags: string): void {
  (globalThis as Record<symbol, unknown>)[V8_FLAGS_SET] = flags;
}

function v8FlagsSet(): string {
  const flags = (globalThis as Record<symbol, unknown>)[V8_FLAGS_SET];
  return typeof flags === 'string' ? flags : '';
}

/** How many caches of one name (each of another build, Node version or options) a folder keeps. */
const KEEP_PER_NAME = 4;

/**
 * Runs the CommonJS script `file` (its `require`, `module`, `exports`, `__filename` and
 * `__dirname` as Node gives them) and returns its `module.exports`. `name` tells the cache file
 * apart from those of other runs of the same script (the CLI bundle keeps one per command, since
 * each command compiles other parts of it).
 */
export function runCachedScript(file: string, name: string, cacheDir: string | undefined = codeCacheDir()): unknown {
  let text: Buffer;
  let mtimeMs: number;
  const fd = openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    mtimeMs = st.mtimeMs;
    text = readFileSync(fd);
  } finally {
    closeSync(fd);
  }
  return runCachedText(file, text, mtimeMs, name, cacheDir);
}

/**
 * runCachedScript of a script's bytes read elsewhere (the single executable's assets, which have
 * no modification time: `mtimeMs` 0, the content hash alone names the build). `file` is the
 * script's name in stack traces, its `__filename`, and where its `require` resolves from.
 */
export function runCachedText(file: string, text: Buffer, mtimeMs: number, name: string, cacheDir: string | undefined = codeCacheDir()): unknown {
  const size = text.length;
  // The build writes the scripts in ASCII (scripts/build.mjs), which latin1 reads as it is and
  // fastest; any other text is read as UTF-8.
  const source = isAscii(text) ? text.toString('latin1') : text.toString('utf8');
  const cacheName = cacheDir === undefined ? undefined : cacheFileName(name, source, size, mtimeMs);
  const cachePath = cacheName === undefined ? undefined : join(cacheDir!, cacheName);
  let cachedData: Buffer | undefined;
  if (cachePath !== undefined) {
    try {
      cachedData = readFileSync(cachePath);
    } catch {
      // no cache yet (or unreadable): compile from the text
    }
  }
  const script = new Script(commonJsWrapper(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (cachePath !== undefined && (cachedData === undefined || script.cachedDataRejected)) {
    // Written as the process exits, so the cache holds the code of every function this run
    // compiled, not only the script's top level; only by a run that ended as runs do (0 or 1),
    // not by a usage error or a crash.
    if (pending.length === 0) process.once('exit', writePending);
    pending.push({ dir: cacheDir!, name, cacheName: cacheName!, script });
  }
  const module = { exports: {} as unknown };
  (script.runInThisContext() as (...args: unknown[]) => void).call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return module.exports;
}

/** A CommonJS script's text as the function Node makes of it (offsets in it are the source's plus the head's length). */
export function commonJsWrapper(source: string): string {
  return `${COMMONJS_HEAD}${source}\n})`;
}

export const COMMONJS_HEAD = '(function (exports, require, module, __filename, __dirname) {';

/** The caches this process writes as it exits (one listener for all of them). */
const pending: { dir: string; name: string; cacheName: string; script: Script }[] = [];

function writePending(code: number): void {
  if (code > 1) return;
  for (const p of pending.splice(0)) writeCache(p.dir, p.name, p.cacheName, p.script);
}

/**
 * Makes a folder and the missing ones above it, one mkdir each, failing at the first refusal.
 * Not mkdirSync's `recursive`: where the system refuses a child of a folder that exists as
 * missing (a cache folder under /proc), Node's recursive mkdir tries again forever.
 */
function makeFolder(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d); d = dirname(d)) {
    missing.push(d);
    if (dirname(d) === d) break;
  }
  for (const d of missing.reverse()) mkdirSync(d);
}

function writeCache(dir: string, name: string, cacheName: string, script: Script): void {
  const tmp = join(dir, `.${cacheName}.${process.pid}.tmp`);
  try {
    const data = script.createCachedData();
    makeFolder(dir);
    writeFileSync(tmp, data);
    renameSync(tmp, join(dir, cacheName));
    // The caches of earlier builds or other Node versions under this name: the newest few stay
    // (two installed versions used in turn must not delete each other's), older ones go.
    const others = readdirSync(dir)
      .filter((f) => f !== cacheName && f.startsWith(`${name}--`) && f.endsWith('.v8'))
      .map((f) => ({ f, t: statSync(join(dir, f)).mtimeMs }))
      .sort((a, b) => b.t - a.t);
    for (const { f } of others.slice(KEEP_PER_NAME - 1)) unlinkSync(join(dir, f));
  } catch {
    // a cache that cannot be written only costs the next run its speed; a half-written
    // temporary file (a full disk) goes
    try {
      unlinkSync(tmp);
    } catch {
      // there was none
    }
  }
}
