// File patterns on the command line (`lint 'envs/**/values.yaml'`, `validate 'agents/*.yaml'`),
// expanded with node:fs because Node 20 has no fs.glob. One language for every command: `*` and
// `?` within a path segment, `[abc]`/`[!abc]` classes, `**` for any number of folders. As in a
// shell, a wildcard never matches a leading dot, and `**` does not follow symbolic links to
// folders (a link to a parent would never end). Matches are regular files, sorted, so a run
// never depends on directory order.

import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join, resolve, sep } from 'node:path';

/** Whether an argument is a pattern rather than a path. */
export const hasGlob = (p: string): boolean => /[*?[]/.test(p);

/** Files matching `pattern`, relative to `cwd` as written (absolute patterns stay absolute). */
export function expandGlob(pattern: string, cwd: string): string[] {
  const posix = sep === '\\' ? pattern.replace(/\\/g, '/') : pattern;
  const abs = isAbsolute(posix);
  const parts = posix.split('/').filter((p, i) => p !== '' || i === 0);
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
    for (const e of dirEntries(full(prefix))) if (e.dir && !e.name.startsWith('.')) walk(joinRel(prefix, e.name), rest, cwd, out);
    return;
  }
  if (!hasGlob(seg)) {
    walk(joinRel(prefix, seg), tail, cwd, out);
    return;
  }
  const re = segmentRegExp(seg);
  for (const e of dirEntries(full(prefix))) {
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

/** A folder's entries, sorted by name; none when it cannot be read. Links are neither files nor folders here. */
export function dirEntries(dir: string): { name: string; dir: boolean; file: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .map((e) => ({ name: e.name, dir: e.isDirectory(), file: e.isFile() }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    return [];
  }
}

/** Whether `p` is a regular file, following links. */
export function isFile(p: string): boolean {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Whether `p` is a folder, following links. */
export function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
