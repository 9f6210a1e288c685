// `render --output-dir`: the folder changes all at once or not at all, and after a render it holds
// exactly what was rendered.
//
// The new tree is written whole into a staging folder next to the target (same file system), then
// two renames swap it in: target → old, staging → target; the old tree is deleted afterwards. Both
// renames run in one synchronous stretch while SIGINT/SIGTERM/SIGHUP have listeners, and Node runs
// signal listeners only between turns of the event loop, so those signals never land between them.
// Only an uncatchable end (SIGKILL, a power cut) can: the target is then absent, the previous tree
// sits in `.NAME.agentplat-old-PID-…` next to it, and the next render removes it. A reader never
// sees old and new files mixed.
//
// Renders into one folder are serialised by a lock file next to it, created with O_EXCL and naming
// the holder's pid and host; a lock whose holder is gone (same host, no such process) is stale and
// taken over. Even if two runs ever held it at once, each swap moves a complete tree, and renaming a
// folder onto a non-empty one fails, so the target still holds one whole render.
//
// A folder is agentplat's when it holds the marker file with its exact text, or is empty. Any other
// non-empty folder is refused unless the user passes --overwrite: a render deletes what it replaces.
//
// A render with --show-only is not the release, so it replaces nothing: as `helm template
// --output-dir --show-only` does, it writes the selected files into the folder (creating it when
// missing) and leaves every other file there as it is. Each file is replaced all at once (a
// temporary file beside it renamed over it), under the same lock, and the folder may be any folder:
// writing files deletes nothing (docs/decisions.md).

import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../problems/errors.ts';
import { removeTemp, writeHint, writeTempBeside } from './replace-file.ts';

/** The file that marks a folder as written by `render --output-dir`; no YAML extension, so kubectl and Argo CD skip it. */
export const OUTPUT_MARKER = '.agentplat-output';
export const OUTPUT_MARKER_TEXT = 'This folder is written by `agentplat render --output-dir`; each render replaces it whole.\n';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Until the returned function is called, a SIGINT, SIGTERM or SIGHUP runs `cleanUp`, removes the
 * folders `created` made for the run, and then ends the run by that signal (with no listener left
 * the signal's default action applies, as if it had not been caught).
 */
function cleanUpOnSignals(cleanUp: () => void, created: Parameters<typeof removeEmpty>[0]): () => void {
  const onSignal = (signal: NodeJS.Signals) => {
    cleanUp();
    removeEmpty(created);
    stop();
    process.kill(process.pid, signal);
  };
  const stop = () => {
    for (const sig of SIGNALS) process.removeListener(sig, onSignal);
  };
  for (const sig of SIGNALS) process.on(sig, onSignal);
  return stop;
}
/** How often a waiting render looks at the lock again, and how long it waits for a live holder. */
const LOCK_POLL_MS = 50;
const LOCK_PATIENCE_MS = 120_000;

export interface OutputDir {
  /** As the user wrote it (for messages). */
  readonly shown: string;
  /** The folder to replace: absolute, with a symbolic link to a folder followed (the link stays). */
  readonly path: string;
}

export interface WriteOutputOptions {
  /** Replace a non-empty folder that has no marker (the user said so). */
  overwrite?: boolean;
  /** Told once when another render holds the folder and this one waits. */
  onWait?: (message: string) => void;
}

/** The paths next to the folder that a render uses: staging, old tree, lock. */
function siblings(dir: OutputDir) {
  const parent = dirname(dir.path);
  const name = basename(dir.path);
  return {
    parent,
    lock: join(parent, `.${name}.agentplat-lock`),
    /** `.NAME.agentplat-staging-PID-HEX` and `.NAME.agentplat-old-PID-HEX`, with the pid of their writer. */
    temp: (kind: 'staging' | 'old') => join(parent, `.${name}.agentplat-${kind}-${process.pid}-${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}`),
    tempPid: (entry: string): number | undefined => {
      const prefix = `.${name}.agentplat-`;
      if (!entry.startsWith(prefix)) return undefined;
      const m = /^(?:staging|old)-(\d+)-[0-9a-f]+$/.exec(entry.slice(prefix.length));
      return m ? Number(m[1]) : undefined;
    },
  };
}

function errnoCode(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return errnoCode(err) === 'EPERM';
  }
}

/** A failed write, what the run was doing, and what that left. */
function cannotWrite(shown: string, doing: string, err: unknown, left: string): UsageError {
  const code = errnoCode(err);
  return new UsageError(`--output-dir: cannot write ${shown}: ${doing} failed (${code ?? String(err)})`, `${writeHint(code)}; ${left}`);
}

/**
 * Checks --output-dir before anything is rendered: what it names must be a folder or not exist; for
 * a full render (one that replaces the folder) it must not be (or hold) the working directory, and
 * when it has files they must be agentplat's (or the user passed --overwrite). With `selected` (a
 * --show-only render, which only writes files) any folder will do. Nothing is created here.
 */
export function resolveOutputDir(shown: string, cwd: string, opts: { overwrite?: boolean; selected?: boolean } = {}): OutputDir {
  let path = resolve(cwd, shown);
  let st;
  try {
    st = lstatSync(path);
  } catch (err) {
    if (errnoCode(err) === 'ENOTDIR') throw new UsageError(`--output-dir: cannot create ${shown}: a folder above it is a file`, 'name a folder whose parents are folders');
    if (errnoCode(err) !== 'ENOENT') throw new UsageError(`--output-dir: cannot read ${shown} (${errnoCode(err) ?? String(err)})`, 'name a folder agentplat can read and write');
  }
  if (st?.isSymbolicLink()) {
    try {
      path = realpathSync(path);
      st = statSync(path);
    } catch {
      throw new UsageError(`--output-dir: ${shown} is a symbolic link to nothing`, 'point the link at a folder, or name another folder');
    }
  }
  if (st && !st.isDirectory()) throw new UsageError(`--output-dir: ${shown} exists and is not a directory`, 'name a directory (it is created when missing)');
  const dir = { shown, path };
  if (st && opts.selected !== true) {
    let here = resolve(cwd);
    try {
      here = realpathSync(here);
    } catch {
      // a working directory that is gone cannot be inside the target
    }
    if (here === path || here.startsWith(path.endsWith(sep) ? path : path + sep)) {
      throw new UsageError(`--output-dir: ${shown} is the working directory or holds it, and a render replaces the whole folder`, 'name a folder of its own, e.g. --output-dir manifests');
    }
    assertReplaceable(dir, opts.overwrite === true);
  }
  return dir;
}

/** The folder is empty, or carries the marker, or the user passed --overwrite. */
function assertReplaceable(dir: OutputDir, overwrite: boolean): void {
  if (overwrite) return;
  const entries = readdirSync(dir.path);
  if (entries.length === 0) return;
  if (entries.includes(OUTPUT_MARKER)) {
    try {
      if (readFileSync(join(dir.path, OUTPUT_MARKER), 'utf8') === OUTPUT_MARKER_TEXT) return;
    } catch {
      // unreadable: not ours
    }
  }
  throw new UsageError(
    `--output-dir: ${dir.shown} holds files agentplat did not write (it has no ${OUTPUT_MARKER} file); a render replaces the whole folder`,
    'name a new or empty folder, or pass --overwrite to replace this one and everything in it',
  );
}

/** Creates the missing folders above `dir` one level at a time (node's recursive mkdir loops on /proc). Returns those created, outermost first. */
function createParents(path: string, shown: string): string[] {
  const missing: string[] = [];
  let d = path;
  for (;;) {
    let st;
    try {
      st = statSync(d);
    } catch (err) {
      const up = dirname(d);
      if (errnoCode(err) !== 'ENOENT' || up === d) throw cannotWrite(shown, `reading ${d}`, err, 'nothing was written');
      missing.push(d);
      d = up;
      continue;
    }
    if (!st.isDirectory()) throw new UsageError(`--output-dir: cannot create ${shown}: ${d} is a file`, 'name a folder whose parents are folders; nothing was written');
    break;
  }
  const created: string[] = [];
  for (const m of missing.reverse()) {
    try {
      mkdirSync(m);
      created.push(m);
    } catch (err) {
      if (errnoCode(err) === 'EEXIST') continue;
      removeEmpty(created);
      throw cannotWrite(shown, `creating ${m}`, err, 'nothing was written');
    }
  }
  return created;
}

/** Removes folders this run created, innermost first, if they are still empty. */
function removeEmpty(created: readonly string[]): void {
  for (const d of [...created].reverse()) {
    try {
      rmdirSync(d);
    } catch {
      // not empty (another run wrote there) or gone: leave it
    }
  }
}

/** Takes the lock next to the folder, waiting while a live render holds it (for a bounded time). */
async function acquireLock(lock: string, shown: string, onWait: ((message: string) => void) | undefined): Promise<void> {
  const me = `${process.pid} ${hostname()}\n`;
  let waited = 0;
  let told = false;
  for (;;) {
    try {
      writeFileSync(lock, me, { flag: 'wx' });
      return;
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw cannotWrite(shown, `creating the lock ${lock}`, err, `${shown} was not changed`);
    }
    let holder = '';
    try {
      holder = readFileSync(lock, 'utf8');
    } catch {
      continue; // released between our two looks
    }
    const [pidText, host] = holder.trim().split(' ');
    const pid = Number(pidText);
    const sameHost = host === hostname();
    if (sameHost && Number.isInteger(pid) && pid > 0 && !isAlive(pid)) {
      // The holder is gone: remove its lock, unless another run already replaced it.
      try {
        if (readFileSync(lock, 'utf8') === holder) unlinkSync(lock);
      } catch {
        // already removed
      }
      continue;
    }
    const who = sameHost ? `process ${pid}` : `process ${pidText} on ${host ?? 'another host'}`;
    if (waited >= LOCK_PATIENCE_MS) {
      throw new UsageError(`--output-dir: another agentplat render (${who}) has been writing ${shown} for ${LOCK_PATIENCE_MS / 1000} s`, `if no render is running, delete ${lock}; ${shown} was not changed`);
    }
    if (!told) {
      onWait?.(`agentplat: waiting for another render (${who}) to finish writing ${shown}\n`);
      told = true;
    }
    await new Promise((r) => setTimeout(r, LOCK_POLL_MS));
    waited += LOCK_POLL_MS;
  }
}

/** Deletes staging and old folders next to the target whose writer is no longer running. */
function removeStale(dir: OutputDir): void {
  const s = siblings(dir);
  let entries: string[];
  try {
    entries = readdirSync(s.parent);
  } catch {
    return;
  }
  for (const e of entries) {
    const pid = s.tempPid(e);
    if (pid !== undefined && pid !== process.pid && !isAlive(pid)) rmSync(join(s.parent, e), { recursive: true, force: true });
  }
}

/**
 * Replaces the folder with exactly `files` (source path → text) and the marker, all at once (see
 * the top of this file). Returns the paths written. Throws a UsageError that says whether the
 * folder changed.
 */
export async function writeOutputDir(dir: OutputDir, files: ReadonlyMap<string, string>, opts: WriteOutputOptions = {}): Promise<string[]> {
  const s = siblings(dir);
  const created = createParents(s.parent, dir.shown);
  let staging: string | undefined;
  let lockHeld = false;
  // Undo what this run made and has not handed over; the target itself is never touched here.
  const cleanUp = () => {
    if (staging) rmSync(staging, { recursive: true, force: true });
    staging = undefined;
    if (lockHeld) rmSync(s.lock, { force: true });
    lockHeld = false;
  };
  const stopHandling = cleanUpOnSignals(cleanUp, created);
  let swapped = false;
  try {
    staging = s.temp('staging');
    try {
      mkdirSync(staging);
      writeFileSync(join(staging, OUTPUT_MARKER), OUTPUT_MARKER_TEXT);
    } catch (err) {
      staging = undefined;
      throw cannotWrite(dir.shown, `creating a folder in ${s.parent}`, err, `the new tree is written next to the folder and swapped in, so ${s.parent} must be writable; nothing was written`);
    }
    const written: string[] = [];
    for (const [source, text] of files) {
      const target = join(staging, ...source.split('/'));
      const rel = relative(staging, target);
      if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..') throw new Error(`refusing to write outside the output directory: ${source}`);
      try {
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, text);
      } catch (err) {
        throw cannotWrite(dir.shown, `writing ${source}`, err, `${dir.shown} was not changed`);
      }
      written.push(join(dir.path, ...source.split('/')));
    }

    await acquireLock(s.lock, dir.shown, opts.onWait);
    lockHeld = true;
    removeStale(dir);
    // Under the lock: what is there now is what gets replaced, so check it again.
    let exists = true;
    try {
      if (!lstatSync(dir.path).isDirectory()) throw new UsageError(`--output-dir: ${dir.shown} exists and is not a directory`, `name a directory; ${dir.shown} was not changed`);
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      exists = false;
    }
    if (exists) assertReplaceable(dir, opts.overwrite === true);

    const old = s.temp('old');
    if (exists) {
      try {
        renameSync(dir.path, old);
      } catch (err) {
        throw cannotWrite(dir.shown, 'moving the previous render aside', err, `${dir.shown} was not changed`);
      }
    }
    try {
      renameSync(staging, dir.path);
    } catch (err) {
      if (exists) {
        try {
          renameSync(old, dir.path);
        } catch {
          throw new UsageError(
            `--output-dir: cannot write ${dir.shown}: moving the new render in failed (${errnoCode(err) ?? String(err)}), and so did moving the previous render back`,
            `the previous render is in ${old}; move it back by hand`,
          );
        }
      }
      throw cannotWrite(dir.shown, 'moving the new render in', err, `${dir.shown} was not changed`);
    }
    staging = undefined;
    swapped = true;
    // The new tree is in place; the old one is only garbage now (a later render removes what stays).
    if (exists) {
      try {
        rmSync(old, { recursive: true, force: true });
      } catch {
        // what stays is removed by the next render into this folder (its writer is gone by then)
      }
    }
    return written;
  } finally {
    cleanUp();
    if (!swapped) removeEmpty(created);
    stopHandling();
  }
}

/**
 * Writes `files` (source path → text) into the folder and touches nothing else there (`render
 * --output-dir --show-only`, as helm does): the folder and the folders inside it are created when
 * missing, and each file is replaced all at once. Every new text is first written to a temporary
 * file beside its target; only when all are written are they renamed over their targets, in one
 * synchronous stretch a signal cannot split. The marker is added when the folder held nothing
 * before, so that a later full render may replace it; a folder with other files stays unmarked.
 * Returns the paths written. Throws a UsageError that says whether the folder changed.
 */
export async function writeSelectedFiles(dir: OutputDir, files: ReadonlyMap<string, string>, opts: Pick<WriteOutputOptions, 'onWait'> = {}): Promise<string[]> {
  const s = siblings(dir);
  const created = createParents(s.parent, dir.shown);
  let lockHeld = false;
  const temps: string[] = [];
  // Undo what this run made that has not replaced a file; the folder's own files are never touched here.
  const cleanUp = () => {
    for (const t of temps.splice(0)) removeTemp(t);
    if (lockHeld) rmSync(s.lock, { force: true });
    lockHeld = false;
  };
  const stopHandling = cleanUpOnSignals(cleanUp, created);
  let renamed = 0;
  try {
    await acquireLock(s.lock, dir.shown, opts.onWait);
    lockHeld = true;
    removeStale(dir);
    // From here on the run is synchronous: no signal listener runs until it returns.
    let empty = false;
    try {
      if (!statSync(dir.path).isDirectory()) throw new UsageError(`--output-dir: ${dir.shown} exists and is not a directory`, `name a directory; ${dir.shown} was not changed`);
      empty = readdirSync(dir.path).length === 0;
    } catch (err) {
      if (errnoCode(err) !== 'ENOENT') throw err;
      try {
        mkdirSync(dir.path);
      } catch (err2) {
        throw cannotWrite(dir.shown, `creating ${dir.path}`, err2, 'nothing was written');
      }
      created.push(dir.path);
      empty = true;
    }
    const all = new Map(files);
    if (empty) all.set(OUTPUT_MARKER, OUTPUT_MARKER_TEXT);
    const moves: { temp: string; target: string; source: string }[] = [];
    for (const [source, text] of all) {
      const target = join(dir.path, ...source.split('/'));
      const rel = relative(dir.path, target);
      if (rel === '' || rel.startsWith(`..${sep}`) || rel === '..') throw new Error(`refusing to write outside the output directory: ${source}`);
      let st;
      try {
        st = lstatSync(target);
      } catch {
        // a new file
      }
      if (st?.isDirectory()) throw new UsageError(`--output-dir: ${join(dir.shown, rel)} is a folder, and the render writes the file ${source} there`, `move or remove that folder; no file in ${dir.shown} was changed`);
      try {
        makeFolders(dir.path, dirname(rel), created);
        // A file keeps its permission bits; a new one (or a symbolic link, which is replaced, never
        // followed out of the folder) gets the default mode, less the umask.
        const mode = st?.isFile() ? st.mode & 0o7777 : 0o666;
        const temp = writeTempBeside(target, text, mode);
        temps.push(temp);
        moves.push({ temp, target, source });
      } catch (err) {
        throw cannotWrite(dir.shown, `writing ${source}`, err, `no file in ${dir.shown} was changed`);
      }
    }
    for (const m of moves) {
      try {
        renameSync(m.temp, m.target);
      } catch (err) {
        const done = moves.slice(0, renamed).map((d) => d.source);
        throw cannotWrite(dir.shown, `replacing ${m.source}`, err, done.length === 0 ? `no file in ${dir.shown} was changed` : `these files were written: ${done.join(', ')}; the others were not changed`);
      }
      temps.splice(temps.indexOf(m.temp), 1);
      renamed++;
    }
    return [...files.keys()].map((source) => join(dir.path, ...source.split('/')));
  } finally {
    cleanUp();
    if (renamed === 0) removeEmpty(created);
    stopHandling();
  }
}

/** Creates the folders of `rel` (a relative folder path) under `root` that are missing, adding each to `created` (outermost first). */
function makeFolders(root: string, rel: string, created: string[]): void {
  if (rel === '' || rel === '.') return;
  let d = root;
  for (const part of rel.split(sep)) {
    d = join(d, part);
    try {
      mkdirSync(d);
      created.push(d);
    } catch (err) {
      if (errnoCode(err) !== 'EEXIST') throw err;
    }
  }
}
