// The reference the compiled templates are held to: handlebars itself, in strict mode, with the
// helpers the templates were written for (json, present). Test-only: the product runs the line
// programs of src/render/template-program.ts.
import Handlebars from 'handlebars';
import { join } from 'node:path';
import { partialName, truthy } from '../../src/render/template-program.ts';
import { templateFiles } from '../../src/render/template-source.ts';

export const TEMPLATE_ROOT = join(import.meta.dirname, '..', '..', 'templates');

/** A handlebars environment with the template helpers and the given partials. */
export function handlebarsEnv(partials: Record<string, string> = {}): typeof Handlebars {
  const hbs = Handlebars.create();
  hbs.registerHelper('json', (value: unknown) => {
    if (value === undefined) throw new Error('template printed an undefined value');
    return JSON.stringify(value);
  });
  hbs.registerHelper('present', (value: unknown) => truthy(value));
  for (const [name, text] of Object.entries(partials)) hbs.registerPartial(name, text);
  return hbs;
}

export const HANDLEBARS_OPTIONS = { strict: true, noEscape: true, preventIndent: true } as const;

let chart: Map<string, HandlebarsTemplateDelegate> | undefined;

/** The text handlebars prints for one of templates/ with `data`. */
export function handlebarsText(name: string, data: unknown): string {
  if (!chart) {
    const files = templateFiles(TEMPLATE_ROOT);
    const partials = Object.fromEntries(Object.entries(files).flatMap(([f, t]) => (partialName(f) ? [[partialName(f)!, t]] : [])));
    const hbs = handlebarsEnv(partials);
    chart = new Map(Object.entries(files).flatMap(([f, t]) => (partialName(f) ? [] : [[f, hbs.compile(t, HANDLEBARS_OPTIONS)]])));
  }
  const t = chart.get(name);
  if (!t) throw new Error(`no template ${name}`);
  return t(data);
}

/** Handlebars output without the lines a line program leaves out (blank and comment lines). */
export function withoutBlankAndCommentLines(text: string): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'))
    .map((l) => `${l}\n`)
    .join('');
}
