// Where compiled templates come from. This file is the development path: it reads
// `templates/**/*.hbs` and compiles them on first use. The build (scripts/build.mjs) replaces
// this module with precompiled templates on the handlebars runtime, so the CLI never parses a
// template at run time.

import Handlebars from 'handlebars';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export type TemplateFn = (data: unknown, options?: { helpers?: Record<string, unknown>; partials?: Record<string, unknown> }) => string;

const TEMPLATE_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'templates');

/** The handlebars environment templates run in (helpers and partials are registered on it). */
export const hbs: typeof Handlebars = Handlebars.create();

let cache: Map<string, TemplateFn> | undefined;

/** All template names (paths under templates/, forward slashes, with the .hbs suffix). */
export function templateNames(): string[] {
  return [...load().keys()].sort();
}

export function getTemplate(name: string): TemplateFn {
  const t = load().get(name);
  if (!t) throw new Error(`unknown template ${name}`);
  return t;
}

function load(): Map<string, TemplateFn> {
  if (cache) return cache;
  cache = new Map();
  for (const file of walk(TEMPLATE_ROOT)) {
    if (!file.endsWith('.hbs')) continue;
    const name = relative(TEMPLATE_ROOT, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    if (name.split('/').pop()!.startsWith('_')) {
      hbs.registerPartial(name.replace(/\.hbs$/, ''), text);
      continue;
    }
    cache.set(name, hbs.compile(text, { strict: true, noEscape: true, preventIndent: true }) as TemplateFn);
  }
  return cache;
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
