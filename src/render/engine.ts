// Runs templates and turns their output into objects.
// Safety: templates print values only through `json` (src/render/template-program.ts), and a
// printed value reaches the reader as data in the place of one YAML leaf, so a value holding a
// newline, `---`, `: ` or quotes can never add a key or a document. The reader checks the
// structure the template's lines make; lines it does not read are written out as text (values
// as JSON) and parsed by the yaml library, so a template that makes invalid YAML fails loudly.

import { checkSource } from './sources.ts';
import { templateSet } from './template-source.ts';
import { runTemplate, templateText, TemplateRunError } from './template-program.ts';
import { InvalidYaml, readTemplateRun, readTemplateText } from '../yaml/read.ts';

import type { K8sObject, RenderedDoc } from '../model/objects.ts';

export class TemplateOutputError extends Error {}

/** Renders one template to text, as the template would print it (tests and the fallback read this). */
export function renderTemplate(name: string, data: unknown): string {
  try {
    return templateText(templateSet(), name, data);
  } catch (err) {
    if (err instanceof TemplateRunError) throw new TemplateOutputError(err.message);
    throw err;
  }
}

/**
 * Renders a template and reads its documents. Empty documents (a template whose `#if` left
 * nothing) are dropped; anything that is not an object with apiVersion, kind and metadata.name
 * is a bug in the template.
 */
export function renderDocs(source: string, template: string, data: unknown): RenderedDoc[] {
  return runs ? runs.run(source, template, data, () => runDocs(source, template, data)) : runDocs(source, template, data);
}

/**
 * Watches the template runs of a render (render.ts: a render that records what it read keeps each
 * run, and a render of some parts again reuses the documents of a run given the same data). A
 * template's documents are a function of its name and data alone, so a run may be answered from
 * one given equal data.
 */
export interface TemplateRuns {
  run(source: string, template: string, data: unknown, make: () => RenderedDoc[]): RenderedDoc[];
}

let runs: TemplateRuns | undefined;

/** `fn` with every template run it makes (synchronously) going through `watch`; as before after it. */
export function withTemplateRuns<T>(watch: TemplateRuns, fn: () => T): T {
  const before = runs;
  runs = watch;
  try {
    return fn();
  } finally {
    runs = before;
  }
}

function runDocs(source: string, template: string, data: unknown): RenderedDoc[] {
  checkSource(source, template);
  const out: RenderedDoc[] = [];
  for (const obj of templateDocuments(template, data)) {
    if (obj === null || obj === undefined) continue;
    if (typeof obj !== 'object' || Array.isArray(obj)) throw new TemplateOutputError(`${template}: rendered a document that is not an object`);
    const o = obj as K8sObject;
    if (typeof o.apiVersion !== 'string' || typeof o.kind !== 'string' || typeof o.metadata?.name !== 'string') {
      throw new TemplateOutputError(`${template}: rendered an object without apiVersion, kind or metadata.name`);
    }
    out.push({ source, object: o });
  }
  return out;
}

/** The documents a template makes: read from its lines, or from its text when the lines leave the reader's subset. */
function templateDocuments(template: string, data: unknown): unknown[] {
  let run;
  try {
    run = runTemplate(templateSet(), template, data);
  } catch (err) {
    if (err instanceof TemplateRunError) throw new TemplateOutputError(err.message);
    throw err;
  }
  return named(template, () => readTemplateRun(run.docs, run.values, () => renderTemplate(template, data)));
}

/** The documents of a template's output (yaml/read.ts decides the reader). */
export function readDocuments(text: string, template: string): unknown[] {
  return named(template, () => readTemplateText(text));
}

/** `read()`, its YAML refused in the template's name. */
function named(template: string, read: () => unknown[]): unknown[] {
  try {
    return read();
  } catch (err) {
    if (err instanceof InvalidYaml) throw new TemplateOutputError(`${template}: rendered invalid YAML: ${err.message}`);
    throw err;
  }
}
