// Where compiled templates come from. This file is the development path: it reads
// `templates/**/*.hbs` and compiles them on first use. The build (scripts/build.mjs) replaces
// this module with the programs compiled at build time, so the CLI never reads a template.

import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { compileTemplates, type TemplateSet } from './template-program.ts';

let set: TemplateSet | undefined;

/** Every template and partial, compiled. */
export function templateSet(): TemplateSet {
  return (set ??= compileTemplates(templateFiles(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'templates'))));
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
