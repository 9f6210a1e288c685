// The inputs of one lint run: positional arguments expanded into files (literal paths stay as
// given; an argument with `*` or `?` is a pattern, expanded by src/glob.ts). The lint operation
// (src/pipeline/operations.ts) lints each on its own over the shared -f and --set layers.

import { resolve } from 'node:path';
import { expandGlob, isDirectory } from '../glob.ts';
import { UsageError } from '../problems/errors.ts';
import { directoryHint, yamlFileIn } from '../values/load.ts';

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
