// The inputs of one lint run: positional arguments expanded into files (literal paths stay as
// given; an argument with `*` or `?` is a pattern, expanded by src/glob.ts), and each file linted
// on its own over the shared -f and --set layers.

import { resolve } from 'node:path';
import { expandGlob, isDirectory } from '../glob.ts';
import { UsageError } from '../problems/errors.ts';
import { directoryHint, yamlFileIn } from '../values/load.ts';
import { parseValuesText, type ValuesSource } from '../values/source.ts';
import { prepareCrdCheck } from './crd-check.ts';
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

export interface TargetInput {
  name: string;
  text: string;
}

export interface LintTargetsRequest {
  /** -f layers under every target. */
  base: readonly ValuesSource[];
  /** --set family layers over every target. */
  top: readonly ValuesSource[];
  targets: readonly TargetInput[];
  /** Checks one target's layers (the CLI's: lint, then render without printing). */
  check(layers: readonly ValuesSource[]): readonly Problem[];
}

/**
 * Lints each target on its own over the same base and top layers, in one process. A problem
 * the shared layers cause is the same for every target and is kept once.
 */
export async function lintTargets(req: LintTargetsRequest): Promise<Problem[]> {
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
    const layers = [...req.base, parsed.source, ...req.top];
    await prepareCrdCheck(layers);
    req.check(layers).forEach(keep);
  }
  return out;
}
