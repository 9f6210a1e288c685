// Reads the user's layers (-f files, stdin, the --set family) into ValuesSources, with the
// limits that keep bad input from hanging or crashing the tool.

import { readFileSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Problem } from '../lint/problem.ts';
import { UsageError } from '../errors.ts';
import { parseValuesText, type Location, type PathSegment, type ValuesSource } from './source.ts';
import { applySetArgument, parseSetFileArgument, SetSyntaxError, type SetAssignment, type SetKind } from './set-parser.ts';
import { isPlainMap, type Values } from './merge.ts';

/** Values files larger than this are refused before parsing (a chart's values are kilobytes). */
export const MAX_VALUES_FILE_BYTES = 4 * 1024 * 1024;

export interface LayerOptions {
  values?: string[];
  set?: string[];
  setString?: string[];
  setJson?: string[];
  setFile?: string[];
}

export interface InputReader {
  cwd: string;
  readStdin(): Promise<string>;
}

/** Reads a text input named by the user; `-` is standard input. Throws UsageError for unreadable input. */
export async function readUserFile(path: string, reader: InputReader, what = 'values file'): Promise<{ name: string; text: string }> {
  if (path === '-') return { name: '<stdin>', text: await reader.readStdin() };
  const full = resolve(reader.cwd, path);
  let size: number;
  try {
    const st = statSync(full);
    if (st.isDirectory()) throw new UsageError(`${path}: is a directory, not a ${what}`, `pass a file, e.g. ${path.replace(/\/$/, '')}/values.yaml`);
    size = st.size;
  } catch (err) {
    if (err instanceof UsageError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError(`${path}: no such file`, 'check the path; it is resolved from the current directory');
    throw new UsageError(`${path}: cannot read ${what} (${code ?? (err as Error).message})`);
  }
  if (size > MAX_VALUES_FILE_BYTES) {
    throw new UsageError(
      `${path}: ${(size / 1024 / 1024).toFixed(1)} MiB is too large for a ${what} (limit ${MAX_VALUES_FILE_BYTES / 1024 / 1024} MiB)`,
      'a values file of this chart is a few kilobytes; check that you passed the right file',
    );
  }
  try {
    return { name: path, text: readFileSync(full, 'utf8') };
  } catch (err) {
    throw new UsageError(`${path}: cannot read ${what} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
}

export interface LoadedLayers {
  sources: ValuesSource[];
  problems: Problem[];
}

/** Loads -f files in order, then --set, --set-string, --set-json, --set-file (later wins). */
export async function loadUserLayers(opts: LayerOptions, reader: InputReader): Promise<LoadedLayers> {
  const sources: ValuesSource[] = [];
  const problems: Problem[] = [];
  let stdinUsed = false;
  for (const file of opts.values ?? []) {
    if (file === '-') {
      if (stdinUsed) throw new UsageError('standard input (-) can be read only once');
      stdinUsed = true;
    }
    const { name, text } = await readUserFile(file, reader);
    const parsed = parseValuesText(text, name);
    problems.push(...parsed.problems);
    if (parsed.source) sources.push(parsed.source);
  }
  const groups: [SetKind, string, string[] | undefined][] = [
    ['set', '--set', opts.set],
    ['set-string', '--set-string', opts.setString],
    ['set-json', '--set-json', opts.setJson],
  ];
  for (const [kind, flag, args] of groups) {
    if (!args || args.length === 0) continue;
    const { source, problems: p } = setSource(flag, args, (target, arg) => applySetArgument(target, arg, kind));
    problems.push(...p);
    sources.push(source);
  }
  if (opts.setFile && opts.setFile.length > 0) {
    const contents = new Map<string, string>();
    for (const arg of opts.setFile) {
      try {
        const { file } = parseSetFileArgument(arg);
        contents.set(arg, (await readUserFile(file, reader, '--set-file file')).text);
      } catch (err) {
        if (!(err instanceof SetSyntaxError)) throw err;
      }
    }
    const { source, problems: p } = setSource('--set-file', opts.setFile, (target, arg) => {
      const { path, column } = parseSetFileArgument(arg);
      setIn(target, path, contents.get(arg) ?? '');
      return [{ path, column }];
    });
    problems.push(...p);
    sources.push(source);
  }
  return { sources, problems };
}

type Applier = (target: Values, arg: string) => SetAssignment[];

function setSource(flag: string, args: string[], apply: Applier): { source: ValuesSource; problems: Problem[] } {
  const data: Values = {};
  const written: { path: PathSegment[]; column: number; index: number; arg: string }[] = [];
  const problems: Problem[] = [];
  args.forEach((arg, i) => {
    try {
      for (const a of apply(data, arg)) written.push({ ...a, index: i + 1, arg });
    } catch (err) {
      if (!(err instanceof SetSyntaxError)) throw err;
      problems.push({
        severity: 'error',
        rule: 'values/set-syntax',
        path: '',
        message: `${flag} ${JSON.stringify(arg)}: ${err.message}`,
        file: `${flag} #${i + 1}`,
        line: 1,
        column: err.column,
        excerpt: arg,
        ...(err.hint ? { hint: err.hint } : {}),
      });
    }
  });
  const source: ValuesSource = {
    name: flag,
    data,
    locate(path): Location | undefined {
      // The last flag that wrote this path or one of its parents, or a child of it.
      for (let i = written.length - 1; i >= 0; i--) {
        const w = written[i]!;
        const n = Math.min(w.path.length, path.length);
        let same = true;
        for (let k = 0; k < n; k++) if (String(w.path[k]) !== String(path[k])) { same = false; break; }
        if (same) return { file: `${flag} #${w.index}`, line: 1, column: w.column, excerpt: w.arg };
      }
      return undefined;
    },
  };
  return { source, problems };
}

function setIn(target: Values, path: readonly PathSegment[], value: unknown): void {
  let cur: Record<string | number, unknown> = target;
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      cur[seg] = value;
      return;
    }
    const next = cur[seg];
    if (!isPlainMap(next) && !Array.isArray(next)) cur[seg] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[seg] as Record<string | number, unknown>;
  });
}
