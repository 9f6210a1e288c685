// Runs handlebars templates and turns their text into objects.
// Safety: templates print values only through `json` (a JSON scalar or flow collection is valid
// YAML), so a value holding a newline, `---`, `: ` or quotes can never add a key or a document;
// the rendered text is then parsed back, so a template that emits invalid YAML fails loudly.

import { parseAllDocuments } from 'yaml';
import { getTemplate, hbs } from './template-source.ts';
import { readTemplateYaml } from '../yaml/read.ts';

export type K8sObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; namespace?: string };
};

/** One object of the output with the `# Source:` path it belongs to. */
export interface RenderedDoc {
  /** `agentplat/templates/controller-deployment.yaml`, `agentplat/charts/mcpop/templates/deployment.yaml`, `agentplat/crds/…` */
  source: string;
  object: K8sObject;
  /** The object's YAML body when it was written ahead of time (the CRDs, at build time). */
  text?: string;
}

let helpersRegistered = false;

function registerHelpers(): void {
  if (helpersRegistered) return;
  helpersRegistered = true;
  // A YAML-safe rendering of any value: JSON text is a valid YAML flow node.
  hbs.registerHelper('json', (value: unknown) => {
    if (value === undefined) throw new Error('template printed an undefined value');
    return JSON.stringify(value);
  });
  hbs.registerHelper('eq', (a: unknown, b: unknown) => a === b);
  hbs.registerHelper('ne', (a: unknown, b: unknown) => a !== b);
  hbs.registerHelper('not', (a: unknown) => !truthy(a));
  hbs.registerHelper('and', (...args: unknown[]) => args.slice(0, -1).every(truthy));
  hbs.registerHelper('or', (...args: unknown[]) => args.slice(0, -1).some(truthy));
  /** Non-empty test for maps and lists too (handlebars' #if treats {} as true). */
  hbs.registerHelper('present', (a: unknown) => truthy(a));
}

/** Empty strings, empty lists, empty maps, null, undefined and false are "not present". */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** Renders one template to text. */
export function renderTemplate(name: string, data: unknown): string {
  registerHelpers();
  return getTemplate(name)(data);
}

export class TemplateOutputError extends Error {}

/**
 * Renders a template and parses its documents. Empty documents (a template whose `#if`
 * left nothing) are dropped; anything that is not an object with apiVersion, kind and
 * metadata.name is a bug in the template.
 */
export function renderDocs(source: string, template: string, data: unknown): RenderedDoc[] {
  const text = renderTemplate(template, data);
  const out: RenderedDoc[] = [];
  for (const obj of readDocuments(text, template)) {
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

/** The documents of a template's output: the fast reader for the usual subset, else the full parser. */
export function readDocuments(text: string, template: string): unknown[] {
  const fast = readTemplateYaml(text);
  if (fast) return fast;
  return (parseAllDocuments(text, { uniqueKeys: true, version: '1.2' }) as unknown as { errors: { message: string }[]; toJS(): unknown }[]).map((d) => {
    if (d.errors.length > 0) throw new TemplateOutputError(`${template}: rendered invalid YAML: ${d.errors[0]!.message}`);
    return d.toJS();
  });
}
