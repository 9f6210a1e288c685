// The inputs of one lint run: positional arguments expanded into files (literal paths stay as
// given; `*`, `**` and `?` are matched against the file tree, since Node 20 has no fs.glob;
// matches come back sorted so a run never depends on directory order), and each file linted
// on its own over the shared -f and --set layers.

import { readdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { UsageError } from '../problems/errors.ts';
import type { Revision } from '../spec/revisions.ts';
import { directoryHint, yamlFileIn } from '../values/load.ts';
import { parseValuesText, type ValuesSource } from '../values/source.ts';
import { lintValues } from './lint.ts';
import type { Problem } from '../problems/problem.ts';

const MAGIC = /[*?]/;

/** Files named by `args` (relative to `cwd`, as the user wrote them), without duplicates. */
export function expandTargets(args: readonly string[], cwd: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const arg of args) {
    if (!MAGIC.test(arg) && isDirectory(resolve(cwd, arg))) {
      const dir = arg.replace(/\/+$/, '');
      const hint = yamlFileIn(resolve(cwd, arg)) ? `to lint each values file in it, quote a pattern: agentplat lint '${dir}/**/*.yaml'` : directoryHint(arg, resolve(cwd, arg));
      throw new UsageError(`${arg}: is a directory, not a values file`, hint);
    }
    const files = MAGIC.test(arg) ? expandGlob(arg, cwd) : [arg];
    if (files.length === 0) throw new UsageError(`${arg}: the pattern matches no file`, 'quote the pattern so agentplat expands it, and check it from the current directory');
    for (const f of files) {
      const key = resolve(cwd, f);
      if (!seen.has(key)) {
        seen.add(key);
        out.push(f);
      }
    }
  }
  return out;
}

/** Files matching `pattern`: `*` and `?` within one path segment, `**` across any number of them. */
export function expandGlob(pattern: string, cwd: string): string[] {
  const posix = pattern.replace(/\\/g, '/');
  const absolute = posix.startsWith('/');
  const segments = posix.split('/').filter((s, i) => s !== '' || i === 0);
  // Everything before the first segment with a wildcard is a fixed directory.
  let fixed = 0;
  while (fixed < segments.length && !MAGIC.test(segments[fixed]!)) fixed++;
  const prefix = segments.slice(0, fixed);
  const baseShown = prefix.join('/') + (prefix.length > 0 ? '/' : '');
  const baseDir = absolute ? `/${prefix.slice(1).join('/')}` : join(cwd, ...prefix);
  const matchers = segments.slice(fixed).map((s) => (s === '**' ? ('**' as const) : segmentRegExp(s)));
  const found: string[] = [];
  walk(baseDir, '', matchers, found);
  return [...new Set(found)].sort().map((rel) => `${baseShown}${rel}`.replace(/^\.\//, ''));
}

type Matcher = RegExp | '**';

function walk(dir: string, rel: string, matchers: readonly Matcher[], found: string[]): void {
  const [head, ...rest] = matchers;
  if (head === undefined) return;
  if (head === '**') {
    walk(dir, rel, rest, found); // `**` matching no segment
    for (const e of list(dir)) if (e.dir && !e.name.startsWith('.')) walk(join(dir, e.name), `${rel}${e.name}/`, matchers, found);
    return;
  }
  for (const e of list(dir)) {
    if (!head.test(e.name)) continue;
    if (rest.length === 0) {
      if (!e.dir) found.push(`${rel}${e.name}`);
    } else if (e.dir) walk(join(dir, e.name), `${rel}${e.name}/`, rest, found);
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

function list(dir: string): { name: string; dir: boolean }[] {
  try {
    return readdirSync(dir, { withFileTypes: true }).map((e) => {
      let isDir = e.isDirectory();
      if (e.isSymbolicLink()) {
        try {
          isDir = statSync(join(dir, e.name)).isDirectory();
        } catch {
          isDir = false;
        }
      }
      return { name: e.name, dir: isDir };
    });
  } catch {
    return [];
  }
}

/** `*` and `?` never match `/`, and (as in shells) never match a leading dot. */
function segmentRegExp(segment: string): RegExp {
  let re = '';
  for (const ch of segment) re += ch === '*' ? '[^/]*' : ch === '?' ? '[^/]' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(segment.startsWith('.') ? `^${re}$` : `^(?!\\.)${re}$`);
}

export interface TargetInput {
  name: string;
  text: string;
}

export interface LintTargetsRequest {
  revision: Revision;
  /** -f layers under every target. */
  base: readonly ValuesSource[];
  /** --set family layers over every target. */
  top: readonly ValuesSource[];
  targets: readonly TargetInput[];
  kubeVersion?: string;
  showDefaultNote?: (rule: string) => boolean;
}

/**
 * Lints each target on its own over the same base and top layers, in one process. A problem
 * the shared layers cause is the same for every target and is kept once.
 */
export function lintTargets(req: LintTargetsRequest): Problem[] {
  const seen = new Set<string>();
  const out: Problem[] = [];
  const keep = (p: Problem) => {
    const key = JSON.stringify([p.severity, p.rule, p.path, p.message, p.file, p.line, p.column]);
    if (seen.has(key)) return;
    seen.add(key);
    out.push(p);
  };
  for (const target of req.targets) {
    const parsed = parseValuesText(target.text, target.name);
    parsed.problems.forEach(keep);
    if (!parsed.source) continue;
    const { problems } = lintValues({
      revision: req.revision,
      layers: [...req.base, parsed.source, ...req.top],
      ...(req.kubeVersion ? { kubeVersion: req.kubeVersion } : {}),
      ...(req.showDefaultNote ? { showDefaultNote: req.showDefaultNote } : {}),
    });
    problems.forEach(keep);
  }
  return out;
}
