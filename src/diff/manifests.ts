// Reads the manifests a render is compared against: a YAML or JSON stream (what `render` prints,
// a `v1 List` included) or a folder of them (what `render --output-dir` writes). Every document
// must be a Kubernetes object; anything else is a problem at its file:line:column.
import { LineCounter, parseAllDocuments } from 'yaml';
import type { Problem } from '../problems/problem.ts';
import { excerptAt, maskedLines, SecretFields, type Masked } from '../problems/secrets.ts';
import { placeYamlErrors } from '../yaml/errors.ts';
import { readYaml } from '../yaml/read.ts';
import { firstCyclicAlias, YAML_LIMITS } from '../values/source.ts';
import type { ManifestObject } from './objects.ts';

/** Excerpts of a manifest never show a Secret's values (the keys of `data` and `stringData`). */
const EXCERPT_SECRETS = new SecretFields([
  ['data', '*'],
  ['stringData', '*'],
]);

export interface ReadManifests {
  objects: ManifestObject[];
  problems: Problem[];
}

/** The objects of one manifest text; `file` names it in problems and is each object's source. */
export function readManifestText(text: string, file: string, out: ReadManifests = { objects: [], problems: [] }): ReadManifests {
  // A render's own output is plain YAML or JSON, which the fast reader takes; the library reads
  // the rest, and whatever has a problem to place.
  const plain = readYaml(text, 'manifests');
  if (plain) {
    const objects = plain.filter((d) => d !== null && d !== undefined).flatMap((d) => (isList(d) ? d.items : [d]));
    if (objects.every((o) => notAnObject(o) === undefined)) {
      for (const object of objects) out.objects.push({ source: file, object: object as Record<string, unknown> });
      return out;
    }
  }
  return readWithPositions(text, file, out);
}

function readWithPositions(text: string, file: string, out: ReadManifests): ReadManifests {
  const lineCounter = new LineCounter();
  let lines: Masked[] | undefined;
  const problem = (offset: number, rule: string, message: string, hint?: string): void => {
    const pos = lineCounter.linePos(offset);
    const excerpt = excerptAt((lines ??= maskedLines(text, EXCERPT_SECRETS)), pos.line, pos.col);
    out.problems.push({ severity: 'error', rule, path: '', message, ...(hint ? { hint } : {}), file, line: pos.line, column: pos.col, ...excerpt });
  };
  const docs = parseAllDocuments(text, { lineCounter, version: '1.2', prettyErrors: false, logLevel: 'error' });
  for (const doc of Array.isArray(docs) ? docs : []) {
    if (doc.errors.length > 0) {
      for (const e of placeYamlErrors(doc, text)) problem(e.offset, 'diff/yaml-syntax', e.message, e.hint);
      continue;
    }
    const cycle = firstCyclicAlias(doc);
    if (cycle !== undefined) {
      problem(cycle, 'diff/yaml-syntax', 'invalid YAML: an alias refers to a node that contains it, so the value would be endless');
      continue;
    }
    const at = doc.contents?.range?.[0] ?? doc.range[0];
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount: YAML_LIMITS.maxAliasCount });
    } catch (err) {
      problem(at, 'diff/yaml-syntax', `cannot read the document: ${(err as Error).message}`);
      continue;
    }
    // `---` with nothing after it, or only comments: no object (kubectl skips these too).
    if (data === null || data === undefined) continue;
    const items = isList(data) ? data.items : [data];
    for (const item of items) {
      const missing = notAnObject(item);
      if (missing) problem(at, 'diff/not-an-object', `this document is not a Kubernetes object: ${missing}`, 'the manifest compared must hold objects as `agentplat render` prints them, or a folder of them');
      else out.objects.push({ source: file, object: item as Record<string, unknown> });
    }
  }
  return out;
}

function isList(v: unknown): v is { items: unknown[] } {
  const o = v as Record<string, unknown>;
  return typeof v === 'object' && v !== null && typeof o.kind === 'string' && o.kind.endsWith('List') && Array.isArray(o.items);
}

/** What keeps a document from being an object: undefined when it has apiVersion, kind and metadata.name. */
function notAnObject(v: unknown): string | undefined {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return 'it is not a map';
  const o = v as Record<string, unknown>;
  const metadata = o.metadata as Record<string, unknown> | undefined;
  const absent = [
    typeof o.apiVersion === 'string' ? undefined : 'apiVersion',
    typeof o.kind === 'string' ? undefined : 'kind',
    typeof metadata === 'object' && metadata !== null && typeof metadata.name === 'string' ? undefined : 'metadata.name',
  ].filter((x) => x !== undefined);
  return absent.length > 0 ? `it has no ${absent.join(', ')}` : undefined;
}
