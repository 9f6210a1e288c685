// Where compiled templates come from: the `templateSet` member of the precomputed seam
// (src/precomputed.ts). The plain member compiles `templates/**/*.hbs` on first use
// (./template-source-plain.ts); the built one reads the programs the build compiled.
// The templates run as these line programs, not through handlebars' precompiler and runtime:
// bench/templates.mjs (idle 2-core machine, Node 20) has handlebars, its text read by the yaml
// library, take 197 ms for a render's 32 template runs in a fresh process against 13 ms (49% of
// `render --skip-crds` from the bundle) and 19.7 ms against 0.77 ms in steady state (85% of an
// in-process render); read by our own text reader instead, 39 against 13 ms (7%) and 2.96 against
// 0.77 ms (40%). Handlebars stays the reference in test/render/template-program.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { precomputed } from '../precomputed.ts';
import type { TemplateSet } from './template-program.ts';

declare module '../precomputed.ts' {
  interface Precomputed {
    /** Every template and partial, compiled to line programs. */
    templateSet(): TemplateSet;
  }
}

/** Every template and partial, compiled. */
export function templateSet(): TemplateSet {
  return precomputed('templateSet')();
}

/** The texts of `templates/**\/*.hbs` by path under the root, forward slashes (the build compiles the same). */
export function templateFiles(root: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const file of walk(root)) {
    if (file.endsWith('.hbs')) files[relative(root, file).split(sep).join('/')] = readFileSync(file, 'utf8');
  }
  return files;
}

function* walk(dir: string): Generator<string> {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const full = join(dir, e.name);
    if (e.isDirectory()) yield* walk(full);
    else yield full;
  }
}
