// Reads the user's layers (-f files, stdin, the --set family) into ValuesSources, with the
// limits that keep bad input from hanging or crashing the tool.

import type { ValuesInput } from './input.ts';
import { close, closeSync, constants as fsConstants, fstatSync, open, openSync, readdirSync, readFileSync, readSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';
import { isUtf8 } from 'node:buffer';
import { resolveFrom } from '../fs-path.ts';
import type { Problem } from '../problems/problem.ts';
import { UsageError } from '../problems/errors.ts';
import { parseValuesText, YAML_LIMITS, type Location, type PathSegment, type ValueOrigin, type ValuesSource } from './source.ts';
import { applyParsed, applySetArgument, maskSetArgument, maskSetLiteralArgument, parseSetFileArgument, SetSyntaxError, type ParsedAssignment, type SetAssignment, type SetKind } from './set-parser.ts';
import { maskSpans, type Masked } from '../problems/secrets.ts';
import { cloneTree, type Values } from './merge.ts';

/** Values files larger than this are refused before reading (a chart's values are kilobytes). */
export const MAX_VALUES_FILE_BYTES = YAML_LIMITS.maxTextLength;

/**
 * Files or streams of custom resources larger than this are refused: `kubectl kustomize` of a
 * whole environment is megabytes, while the YAML library needs several hundred times the text's
 * size in memory for the worst inputs.
 */
export const MAX_RESOURCE_STREAM_BYTES = 16 * 1024 * 1024;

/** What a user input is, for its size limit and for the words of a refusal. */
export interface InputKind {
  /** `values file`, `resource file`: what a named file is. */
  what: string;
  /** What standard input is, when it differs from a file (`a stream of custom resources`). */
  stdinWhat?: string;
  maxBytes: number;
  /** The fix hint of a refusal for size. */
  sizeHint: string;
}

export const VALUES_INPUT: InputKind = {
  what: 'values file',
  maxBytes: MAX_VALUES_FILE_BYTES,
  sizeHint: 'a values file of this chart is a few kilobytes; check that you passed the right file',
};

export const SET_FILE_INPUT: InputKind = { ...VALUES_INPUT, what: '--set-file file', sizeHint: 'a --set-file value is a file of a few kilobytes (a certificate, a script); check the path' };

export const RESOURCES_INPUT: InputKind = {
  what: 'resource file',
  stdinWhat: 'stream of custom resources',
  maxBytes: MAX_RESOURCE_STREAM_BYTES,
  sizeHint: `validate reads at most ${MAX_RESOURCE_STREAM_BYTES / 1024 / 1024} MiB per file or stream; split the resources into several files (or a folder) and pass those`,
};

/** How long reading a values file from a URL (`-f https://…`) may take in all before it is given up. */
export const URL_TIMEOUT_MS = 30_000;

/** How long a named FIFO may go without a writer before the read is given up. */
export const FIFO_WAIT_MS = 10_000;


/** A layer already read: one value source of a GitOps object (src/gitops/), passed where -f files go. */
export interface ReadLayer {
  name: string;
  source: ValuesSource;
}

/** The user's layers, described as data: what -f and the --set family give, in Helm's order. */
export interface LayerOptions {
  values?: readonly (ValuesInput | ReadLayer)[];
  set?: readonly string[];
  setString?: readonly string[];
  setJson?: readonly string[];
  setFile?: readonly string[];
  setLiteral?: readonly string[];
}

export interface InputReader {
  cwd: string;
  /**
   * All of standard input, or undefined as soon as it holds more than `maxBytes` bytes (reading
   * stops there). Bytes are checked as a file's are (checkedText); a string is taken as text.
   */
  readStdin(maxBytes: number): Promise<Uint8Array | string | undefined>;
  /** Overrides FIFO_WAIT_MS (tests). */
  fifoWaitMs?: number;
  /** Overrides URL_TIMEOUT_MS (tests). */
  urlTimeoutMs?: number;
}

/**
 * Reads a text input named by the user; `-` is standard input. Throws UsageError (exit 2) for
 * input that cannot be read as text: missing, a directory, no permission, too large, not UTF-8.
 * The size is checked on the open file before reading, and reading stops at the limit, so
 * neither a huge file nor an endless device (`-f /dev/zero`) nor a flood on standard input is
 * read in full. A named FIFO that no process opens for writing is given up after FIFO_WAIT_MS.
 */
export async function readUserFile(path: string, reader: InputReader, kind: InputKind = VALUES_INPUT): Promise<{ name: string; text: string }> {
  if (path === '-') {
    const input = await reader.readStdin(kind.maxBytes);
    if (input === undefined) throw tooLarge('<stdin>', kind.maxBytes + 1, kind, 'more than ', kind.stdinWhat);
    const size = typeof input === 'string' ? Buffer.byteLength(input) : input.length;
    if (size > kind.maxBytes) throw tooLarge('<stdin>', size, kind, '', kind.stdinWhat);
    return { name: '<stdin>', text: checkedText('<stdin>', input, kind) };
  }
  if (/^https?:\/\//i.test(path)) return { name: path, text: checkedText(path, await readUrl(path, kind, reader.urlTimeoutMs ?? URL_TIMEOUT_MS), kind) };
  const full = resolveFrom(reader.cwd, path);
  const regular = readRegularFile(full, kind.maxBytes);
  if (regular !== undefined) return { name: path, text: checkedText(path, regular, kind) };
  const fifo = isFifo(full) ? await openFifo(path, full, kind, reader.fifoWaitMs ?? FIFO_WAIT_MS) : undefined;
  return { name: path, text: checkedText(path, readBounded(path, full, kind, fifo), kind) };
}

/**
 * The body of an http(s) URL, as helm reads `-f https://…`: redirects are followed, anything but
 * a 2xx answer is refused, the body is read up to the kind's size limit and the whole request is
 * given up after `timeoutMs`. Every error is one line naming the URL.
 */
async function readUrl(url: string, kind: InputKind, timeoutMs: number): Promise<Uint8Array> {
  const cannot = (why: string, hint?: string) => new UsageError(`${url}: cannot read ${kind.what}: ${why}`, hint);
  const signal = AbortSignal.timeout(timeoutMs);
  const timedOut = () => cannot(`no complete answer within ${timeoutMs / 1000} s`, 'check that the server answers, or download the file and pass its path');
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'follow' });
  } catch (err) {
    if (signal.aborted) throw timedOut();
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    // Node's fetch refuses, without connecting, the ports the Fetch standard blocks (those of
    // other protocols: 1, 25, 6000, …) and says only "bad port": say which port and why.
    if (cause?.message === 'bad port') throw cannot(blockedPort(url), 'serve the file on another port, or download it and pass its path');
    throw cannot(cause?.code ?? firstLine(cause?.message ?? (err instanceof Error ? err.message : String(err))), 'check the URL and that the server is reachable from here');
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined);
    throw cannot(`the server answered ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`, 'check the URL (a private file needs a token: download it and pass its path)');
  }
  const declared = Number(response.headers.get('content-length') ?? NaN);
  if (declared > kind.maxBytes) {
    await response.body?.cancel().catch(() => undefined);
    throw tooLarge(url, declared, kind);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body ?? []) {
      size += chunk.length;
      if (size > kind.maxBytes) {
        await response.body?.cancel().catch(() => undefined);
        throw tooLarge(url, size, kind, 'at least ');
      }
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof UsageError) throw err;
    if (signal.aborted) throw timedOut();
    throw cannot(`the answer broke off (${firstLine(err instanceof Error ? err.message : String(err))})`);
  }
  return Buffer.concat(chunks, size);
}

/** Why fetch refused `url` without connecting: its port is on the Fetch standard's blocked list. */
function blockedPort(url: string): string {
  const parsed = new URL(url);
  return `port ${parsed.port} of ${parsed.hostname} is one Node's fetch never connects to (the Fetch standard blocks the ports of other protocols)`;
}

/**
 * The one check every input passes, whatever it came through (a file, standard input, a FIFO, a
 * URL, --set-file): bytes must be UTF-8 and the text must hold no NUL byte. A string is text the
 * fast path already decoded without a replacement character.
 */
export function checkedText(name: string, input: Uint8Array | string, kind: InputKind): string {
  const text = typeof input === 'string' ? input : decodeUtf8(name, Buffer.from(input.buffer, input.byteOffset, input.length), kind.what);
  return refuseNul(name, text, kind.what);
}

/**
 * A NUL byte, like a byte that is not UTF-8, means binary data: the user passed the wrong file,
 * so it is refused as unreadable input (exit 2) rather than linted.
 */
function refuseNul(path: string, text: string, what: string): string {
  const at = text.indexOf('\u0000');
  return at < 0 ? text : notText(path, text.slice(0, at), 'binary data (a NUL byte)', what);
}

/** The refusal of a file that is not text, at the position after `before`. */
function notText(path: string, before: string, found: string, what: string): never {
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  throw new UsageError(`${path}:${line}:${column}: ${found}, not a ${what}`, `a ${what} is UTF-8 text; check that you passed the right file, or convert it with iconv`);
}

function isFifo(full: string): boolean {
  try {
    return statSync(full).isFIFO();
  } catch {
    return false;
  }
}

/**
 * Opens a named FIFO for reading without blocking the process: the open waits for a writer, so it
 * runs off the main thread and is given up after `waitMs`. The waiting open is then released by
 * opening the FIFO for writing once (nothing is written), so no thread stays blocked on it.
 */
async function openFifo(path: string, full: string, kind: InputKind, waitMs: number): Promise<number> {
  // A plain descriptor (not a FileHandle): readBounded closes it, and nothing closes it again.
  const opening = new Promise<number>((resolve, reject) => open(full, 'r', (err, fd) => (err ? reject(err) : resolve(fd))));
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), waitMs)));
  try {
    const won = await Promise.race([opening, timedOut]);
    if (won !== 'timeout') return won;
  } catch (err) {
    throw fsError(path, err, kind.what);
  } finally {
    clearTimeout(timer);
  }
  try {
    closeSync(openSync(full, fsConstants.O_WRONLY | fsConstants.O_NONBLOCK));
  } catch {
    // No reader waiting any more, or no permission to write: nothing to release.
  }
  await opening.then((fd) => close(fd, () => undefined), () => undefined);
  throw new UsageError(
    `${path}: no process writes to this FIFO (waited ${waitMs / 1000} s), not a ${kind.what}`,
    `start the program that writes to it first, or pipe its output to standard input (-f -)`,
  );
}

/**
 * The usual case in one call: a regular file within the size limit, read as UTF-8 text by node in
 * C++ (validate reads hundreds). Undefined means "read it the careful way": a missing file or any
 * other error, a device or pipe, a file over the limit, and text with U+FFFD, which is what invalid
 * UTF-8 decodes to (a file that really holds U+FFFD is read again too, and kept).
 */
/**
 * Refuses, as readUserFile would, a local file that cannot be opened, is a directory or is over
 * the kind's size, without reading it: a command that writes its output file by file checks
 * every input first, so a missing path late in the list leaves nothing half-written. Standard
 * input, URLs and FIFOs are read when their turn comes.
 */
export function checkOpenable(path: string, reader: InputReader, kind: InputKind): void {
  if (path === '-' || /^https?:\/\//i.test(path)) return;
  const full = resolveFrom(reader.cwd, path);
  if (isFifo(full)) return;
  let fd: number;
  try {
    fd = openSync(full, 'r');
  } catch (err) {
    throw fsError(path, err, kind.what);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UsageError(`${path}: is a directory, not a ${kind.what}`, directoryHint(path, full));
    if (st.size > kind.maxBytes) throw tooLarge(path, st.size, kind);
  } finally {
    closeSync(fd);
  }
}

function readRegularFile(full: string, maxBytes: number): string | undefined {
  try {
    const st = statSync(full);
    if (!st.isFile() || st.size > maxBytes) return undefined;
    const text = readFileSync(full, 'utf8');
    return text.length <= maxBytes && !text.includes('\ufffd') ? text : undefined;
  } catch {
    return undefined;
  }
}

function readBounded(path: string, full: string, kind: InputKind, opened?: number): Buffer {
  const max = kind.maxBytes;
  let fd: number;
  try {
    fd = opened ?? openSync(full, 'r');
  } catch (err) {
    throw fsError(path, err, kind.what);
  }
  try {
    const st = fstatSync(fd);
    if (st.isDirectory()) throw new UsageError(`${path}: is a directory, not a ${kind.what}`, directoryHint(path, full));
    if (st.size > max) throw tooLarge(path, st.size, kind);
    // Devices and pipes report size 0, so the read itself is bounded too. The buffer starts at
    // the size the file reports (one byte more shows a file that grew) and doubles up to the
    // limit: a megabyte buffer per file made every read pay for a megabyte of zeroes and, over
    // hundreds of files, for the garbage collections it caused.
    let buf = Buffer.allocUnsafe(Math.min(st.size > 0 ? st.size + 1 : 64 * 1024, max + 1));
    let used = 0;
    for (;;) {
      if (used === buf.length) {
        const bigger = Buffer.allocUnsafe(Math.min(buf.length * 2, max + 1));
        buf.copy(bigger, 0, 0, used);
        buf = bigger;
      }
      const n = readSync(fd, buf, used, buf.length - used, null);
      if (n === 0) break;
      used += n;
      if (used > max) throw tooLarge(path, used, kind, 'at least ');
      // A regular file returns less than asked only at its end: no second read to see 0 bytes.
      if (st.isFile() && used < buf.length) break;
    }
    return buf.subarray(0, used);
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw fsError(path, err, kind.what);
  } finally {
    closeSync(fd);
  }
}

/** What to pass instead of a directory: a YAML file that is in it (never a made-up name). */
export function directoryHint(path: string, full: string): string {
  const found = yamlFileIn(full);
  return found ? `pass a file inside it, e.g. ${path.replace(/\/+$/, '')}/${found}` : 'it holds no .yaml or .yml file';
}

/** The first YAML file in `dir` or below (sorted, `depth` levels down), relative to `dir`. */
export function yamlFileIn(dir: string, depth = 2): string | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return undefined;
  }
  const file = entries.find((e) => e.isFile() && /\.ya?ml$/.test(e.name));
  if (file) return file.name;
  if (depth === 0) return undefined;
  for (const e of entries) {
    if (!e.isDirectory() || e.name.startsWith('.')) continue;
    const below = yamlFileIn(join(dir, e.name), depth - 1);
    if (below) return `${e.name}/${below}`;
  }
  return undefined;
}

function tooLarge(path: string, size: number, kind: InputKind, atLeast = '', what = kind.what): UsageError {
  const mib = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MiB`;
  return new UsageError(`${path}: ${atLeast}${mib(size)} is too large for a ${what} (limit ${kind.maxBytes / 1024 / 1024} MiB)`, kind.sizeHint);
}

const FS_ERRORS: Record<string, [string, string?]> = {
  ENOENT: ['no such file', 'check the path; it is resolved from the current directory'],
  EACCES: ['permission denied', 'check the file\'s permissions'],
  EPERM: ['permission denied', 'check the file\'s permissions'],
  EISDIR: ['is a directory', 'pass a file'],
  ENOTDIR: ['a part of the path is not a directory', 'check the path'],
  ELOOP: ['too many symbolic links', 'check where the path\'s links point'],
  ENAMETOOLONG: ['the path is too long'],
  EMFILE: ['too many open files'],
  EIO: ['input/output error'],
};

/** Maps a file system error to a one-line UsageError; unknown codes keep the code. */
export function fsError(path: string, err: unknown, what = 'values file'): UsageError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const known = code ? FS_ERRORS[code] : undefined;
  if (known) return new UsageError(`${path}: cannot read ${what}: ${known[0]}`, known[1]);
  const reason = code ?? firstLine(err instanceof Error ? err.message : String(err));
  return new UsageError(`${path}: cannot read ${what} (${reason})`);
}

/** Strict UTF-8: a stray byte is reported with its line and column, never replaced silently. */
function decodeUtf8(path: string, bytes: Buffer, what: string): string {
  if (isUtf8(bytes)) return bytes.toString('utf8');
  const bad = firstInvalidUtf8(bytes);
  return notText(path, bytes.subarray(0, bad).toString('utf8'), `not UTF-8 text (byte 0x${bytes[bad]!.toString(16).padStart(2, '0')})`, what);
}

/** Offset of the first byte that does not belong to a valid UTF-8 sequence (bytes.length if none). */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    let need: number;
    let min: number;
    if (b < 0x80) { i++; continue; }
    else if (b >= 0xc2 && b <= 0xdf) { need = 1; min = 0x80; }
    else if (b >= 0xe0 && b <= 0xef) { need = 2; min = 0x800; }
    else if (b >= 0xf0 && b <= 0xf4) { need = 3; min = 0x10000; }
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return bytes.length;
}

function firstLine(s: string): string {
  return s.split('\n')[0]!.trim();
}

export interface LoadedLayers {
  sources: ValuesSource[];
  problems: Problem[];
  /** The text of each -f file that parsed, by its source (migration rewrites the text, not the data). */
  texts: Map<ValuesSource, string>;
}

/**
 * Loads -f files in order, then the flags in Helm's order: --set-json, --set, --set-string,
 * --set-file, --set-literal (later wins). Flags of one kind write into one tree, in the order given.
 */
export async function loadUserLayers(opts: LayerOptions, reader: InputReader): Promise<LoadedLayers> {
  const sources: ValuesSource[] = [];
  const problems: Problem[] = [];
  const texts = new Map<ValuesSource, string>();
  let stdinUsed = false;
  for (const input of opts.values ?? []) {
    if (input === '-') {
      if (stdinUsed) throw new UsageError('standard input (-) can be read only once');
      stdinUsed = true;
    }
    if (typeof input === 'object' && input !== null && 'source' in input) {
      sources.push(input.source);
      continue;
    }
    const { name, text } = await layerText(input, reader);
    const parsed = parseValuesText(text, name);
    problems.push(...parsed.problems);
    if (parsed.source) {
      sources.push(parsed.source);
      texts.set(parsed.source, text);
    }
  }
  const groups: [SetKind, Exclude<ValueOrigin, 'file'>, readonly string[] | undefined][] = [
    ['set-json', '--set-json', opts.setJson],
    ['set', '--set', opts.set],
    ['set-string', '--set-string', opts.setString],
  ];
  for (const [kind, flag, args] of groups) {
    if (!args || args.length === 0) continue;
    const { source, problems: p } = setSource(flag, args, (target, arg, over) => applySetArgument(target, arg, kind, over), (arg) => maskSetArgument(arg, kind));
    problems.push(...p);
    sources.push(source);
  }
  if (opts.setFile && opts.setFile.length > 0) {
    // Each value names a file (`a=f1,b=f2`, `l={f1,f2}`); the assignments carry the files' text.
    const withText = new Map<string, ParsedAssignment[]>();
    for (const arg of opts.setFile) {
      let parsed: ParsedAssignment[];
      try {
        parsed = parseSetFileArgument(arg);
      } catch (err) {
        if (!(err instanceof SetSyntaxError)) throw err;
        continue;
      }
      const read = async (file: string) => (await readUserFile(file, reader, SET_FILE_INPUT)).text;
      const out: ParsedAssignment[] = [];
      for (const a of parsed) out.push({ ...a, value: typeof a.value === 'string' ? await read(a.value) : await Promise.all((a.value as string[]).map(read)) });
      withText.set(arg, out);
    }
    const { source, problems: p } = setSource(
      '--set-file',
      opts.setFile,
      (target, arg, over) => {
        const parsed = withText.get(arg);
        // Not parsed above: the same parse again throws its SetSyntaxError.
        return parsed ? applyParsed(target, parsed, over) : applyParsed(target, parseSetFileArgument(arg), over);
      },
      (arg) => maskSpans(arg, []),
    );
    problems.push(...p);
    sources.push(source);
  }
  if (opts.setLiteral && opts.setLiteral.length > 0) {
    const { source, problems: p } = setSource('--set-literal', opts.setLiteral, (target, arg, over) => applySetArgument(target, arg, 'set-literal', over), maskSetLiteralArgument);
    problems.push(...p);
    sources.push(source);
  }
  return { sources, problems, texts };
}

async function layerText(input: ValuesInput, reader: InputReader): Promise<{ name: string; text: string }> {
  if (typeof input === 'string') return readUserFile(input, reader);
  if (input && typeof input === 'object' && 'text' in input) return input;
  if (input && typeof input === 'object' && 'values' in input) return { name: input.name ?? '<values>', text: JSON.stringify(input.values) };
  throw new TypeError(`values: each layer is a file path, { name, text } or { values }, got ${input === null ? 'null' : typeof input}`);
}

/** Makes one flag argument's assignments in `target`; `over`: the target holds the layers below. */
type Applier = (target: Values, arg: string, over: boolean) => SetAssignment[];

/**
 * One layer for all flags of a kind. Messages never repeat the argument (it may hold a secret);
 * excerpts show it with its values masked.
 */
function setSource(flag: Exclude<ValueOrigin, 'file'>, args: readonly string[], apply: Applier, mask: (arg: string) => Masked): { source: ValuesSource; problems: Problem[] } {
  const data: Values = {};
  const written: { path: PathSegment[]; column: number; index: number; excerpt: string }[] = [];
  const problems: Problem[] = [];
  const applied: string[] = [];
  args.forEach((arg, i) => {
    try {
      const assignments = apply(data, arg, false);
      applied.push(arg);
      const masked = mask(arg);
      for (const a of assignments) written.push({ ...a, column: masked.column(a.column), index: i + 1, excerpt: masked.text });
    } catch (err) {
      if (!(err instanceof SetSyntaxError)) throw err;
      const masked = mask(arg);
      problems.push({
        severity: 'error',
        rule: 'values/set-syntax',
        path: '',
        message: err.message,
        file: `${flag} #${i + 1}`,
        line: 1,
        // Where the mistake is in the excerpt shown (a column past a mask would give its length away).
        column: masked.column(err.column),
        excerpt: masked.text,
        ...(err.hint ? { hint: err.hint } : {}),
      });
    }
  });
  const source: ValuesSource = {
    name: flag,
    data,
    apply(below) {
      // As helm: the flags edit the tree the layers below built (a copy of it), in order.
      const tree = cloneTree(below) as Values;
      for (const arg of applied) apply(tree, arg, true);
      return tree;
    },
    locate(path): Location | undefined {
      // The last flag that wrote this path or one of its parents, or a child of it.
      for (let i = written.length - 1; i >= 0; i--) {
        const w = written[i]!;
        const n = Math.min(w.path.length, path.length);
        let same = true;
        for (let k = 0; k < n; k++) if (String(w.path[k]) !== String(path[k])) { same = false; break; }
        if (same) return { file: `${flag} #${w.index}`, line: 1, column: w.column, excerpt: w.excerpt, origin: flag };
      }
      return undefined;
    },
  };
  return { source, problems };
}
