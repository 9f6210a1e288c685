// Expands the `*`, `?` and `**` patterns of `agentplat validate` arguments with node:fs
// (Node 20 has no fs.glob). Results are sorted, so the report order is stable.

import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { joinEntry, resolveFrom } from '../fs-path.ts';

export const hasGlob = (p: string): boolean => /[*?[]/.test(p);

/** Files matching `pattern`, relative to `cwd` as written (absolute patterns stay absolute). */
export function expandGlob(pattern: string, cwd: string): string[] {
  const abs = isAbsolute(pattern);
  const parts = pattern.split('/').filter((p, i) => p !== '' || i === 0);
  const base = abs ? '/' : '';
  const start = abs ? parts.slice(1) : parts;
  const out = new Set<string>();
  walk(base, start, cwd, out);
  return [...out].sort();
}

function walk(prefix: string, rest: string[], cwd: string, out: Set<string>): void {
  const full = (p: string): string => resolve(cwd, p || '.');
  if (rest.length === 0) {
    if (isFile(full(prefix))) out.add(prefix);
    return;
  }
  const [seg, ...tail] = rest as [string, ...string[]];
  if (seg === '**') {
    walk(prefix, tail, cwd, out);
    for (const e of entries(full(prefix))) if (e.dir && !e.name.startsWith('.')) walk(joinRel(prefix, e.name), rest, cwd, out);
    return;
  }
  if (!hasGlob(seg)) {
    walk(joinRel(prefix, seg), tail, cwd, out);
    return;
  }
  const re = segmentRegExp(seg);
  for (const e of entries(full(prefix))) {
    if (e.name.startsWith('.') && !seg.startsWith('.')) continue;
    if (re.test(e.name)) walk(joinRel(prefix, e.name), tail, cwd, out);
  }
}

function joinRel(prefix: string, name: string): string {
  return prefix === '' ? name : prefix === '/' ? `/${name}` : join(prefix, name);
}

function segmentRegExp(seg: string): RegExp {
  let re = '';
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!;
    if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else if (c === '[') {
      const end = seg.indexOf(']', i + 1);
      if (end > i + 1) {
        re += `[${seg.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\')}]`;
        i = end;
      } else re += '\\[';
    } else re += c.replace(/[.+^${}()|\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function entries(dir: string): { name: string; dir: boolean; file: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .map((e) => ({ name: e.name, dir: e.isDirectory(), file: e.isFile() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

export const RESOURCE_FILE = /\.ya?ml$/;

/**
 * Every *.yaml and *.yml file under `dir` (a path as the user wrote it), recursively, sorted by
 * path; hidden files and folders are left out, as the glob expansion does. `undefined` when
 * `dir` is not a directory.
 */
export function walkResourceDir(dir: string, cwd: string): string[] | undefined {
  if (!isDir(resolveFrom(cwd, dir))) return undefined;
  const out: string[] = [];
  const visit = (rel: string): void => {
    for (const e of entries(resolveFrom(cwd, rel))) {
      if (e.name.startsWith('.')) continue;
      const child = joinEntry(rel, e.name);
      if (e.dir) visit(child);
      // The entry's type says "file" for regular files; links and the rest are asked with stat.
      else if (RESOURCE_FILE.test(e.name) && (e.file || isFile(resolveFrom(cwd, child)))) out.push(child);
    }
  };
  visit(dir);
  return out.sort();
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
