// Where compiled templates come from: the build compiles `templates/**/*.hbs` to line programs
// (compileTemplates in ./template-program.ts, over templateFiles below) and writes them to
// dist/generated/templates.json; a run reads that file. A template that leaves the template
// language fails the build, naming its file and line.
// The templates run as these line programs, not through handlebars' precompiler and runtime:
// bench/templates.mjs (idle 2-core machine, Node 20) has handlebars, its text read by the yaml
// library, take 197 ms for a render's 32 template runs in a fresh process against 13 ms (49% of
// `render --skip-crds` from the bundle) and 19.7 ms against 0.77 ms in steady state (85% of an
// in-process render); read by our own text reader instead, 39 against 13 ms (7%) and 2.96 against
// 0.77 ms (40%). Handlebars stays the reference in test/render/template-program.test.ts.

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { readGenerated } from '../package-root.ts';
import type { TemplateSet } from './template-program.ts';

let set: TemplateSet | undefined;

/** Every template and partial, compiled (read from what the build wrote). */
export function templateSet(): TemplateSet {
  return (set ??= JSON.parse(readGenerated('templates.json')) as TemplateSet);
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
