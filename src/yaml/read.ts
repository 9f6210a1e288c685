// The one way agentplat reads YAML as data. For every text this module alone decides whether the
// fast reader applies (./plain-yaml.ts for values files, manifests and custom-resource files,
// ./template-yaml.ts for a template run's lines) or the yaml library reads it; no caller calls a
// fast reader itself. The fast reader gives data only and never a reading the library would not
// give (test/yaml/read-plain.test.ts, test/render/yaml-read-templates.test.ts hold it to the
// library), so a caller that needs positions (a problem to place) reads the text with the library
// when this module declines, or when a problem needs a line. What each fast path saves, on the
// installed package, is in docs/decisions.md ("Reading and writing YAML").

import { parseAllDocuments } from 'yaml';
import { leavesDialect } from './block-reader.ts';
import { rawNestingOverflow, YAML_LIMITS } from './limits.ts';
import { plainYamlDocuments } from './plain-yaml.ts';
import { readTemplateLines, type TemplateLine } from './template-yaml.ts';

/**
 * What a text is read for. `values`: a values file, one map (the library reads anything over the
 * size or nesting limits, more than one document, a document that is not a map, deep nesting, so
 * that its problems carry positions). `manifests`: a stream of Kubernetes objects (diff's
 * input; deep nesting goes to the library). `resources`: custom-resource files (validate).
 */
export type YamlPurpose = 'values' | 'manifests' | 'resources';

/**
 * The documents of `text` as data, one at a time, while the fast reader is sure of them. The
 * generator returns true when it read the whole text, false when the yaml library must read it
 * (possibly after some documents: the caller drops them and reads the whole text again).
 */
export function* fastDocuments(text: string, purpose: YamlPurpose): Generator<unknown, boolean, undefined> {
  if (purpose === 'values' && text.length > YAML_LIMITS.maxTextLength) return false;
  if (purpose !== 'resources' && rawNestingOverflow(text, YAML_LIMITS.maxRawNesting) >= 0) return false;
  const docs = plainYamlDocuments(text);
  for (let index = 0; ; index++) {
    let next: IteratorResult<unknown>;
    try {
      next = docs.next();
    } catch (err) {
      if (leavesDialect(err)) return false;
      throw err;
    }
    if (next.done) return true;
    if (purpose === 'values' && !(index === 0 && isValuesMap(next.value))) return false;
    yield next.value;
  }
}

/** Every document of `text` as data, or undefined when the yaml library must read it (see fastDocuments). */
export function readYaml(text: string, purpose: YamlPurpose): unknown[] | undefined {
  const out: unknown[] = [];
  const docs = fastDocuments(text, purpose);
  for (;;) {
    const next = docs.next();
    if (next.done) return next.value ? out : undefined;
    out.push(next.value);
  }
}

/** A values document the fast reading may stand for: a map, nesting well within the library's limit. */
function isValuesMap(data: unknown): boolean {
  if (data === null || typeof data !== 'object' || Array.isArray(data)) return false;
  return collectionDepth(data, YAML_LIMITS.maxDepth - 4) <= YAML_LIMITS.maxDepth - 4;
}

/** Nesting of maps and lists (a scalar is 0), counted up to `stop` + 1. */
function collectionDepth(v: unknown, stop: number): number {
  if (v === null || typeof v !== 'object') return 0;
  if (stop < 0) return 1;
  let deepest = 0;
  for (const child of Array.isArray(v) ? v : Object.values(v)) deepest = Math.max(deepest, collectionDepth(child, stop - 1));
  return deepest + 1;
}

/** Template output the yaml library refuses (the message is the library's first error). */
export class InvalidYaml extends Error {}

/**
 * The documents a template run made (src/render/template-program.ts): read from its lines, or,
 * when the lines leave the fast reader's subset, from its text (`text()`, the run printed).
 */
export function readTemplateRun(docs: readonly TemplateLine[][], values: readonly unknown[], text: () => string): unknown[] {
  return readTemplateLines(docs, values) ?? readTemplateText(text());
}

/** The documents of a template's printed text, read by the yaml library; throws InvalidYaml. */
export function readTemplateText(text: string): unknown[] {
  return (parseAllDocuments(text, { uniqueKeys: true, version: '1.2' }) as unknown as { errors: { message: string }[]; toJS(): unknown }[]).map((d) => {
    if (d.errors.length > 0) throw new InvalidYaml(d.errors[0]!.message);
    return d.toJS();
  });
}
