// The one place tests read objects: the objects of a rendered YAML stream (empty documents left
// out), and finding an object among rendered documents by kind and name.
import { parseAllDocuments } from 'yaml';
import type { RenderedDoc } from '../../src/model/objects.ts';

export type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> } };

export function objectsOf<T = Obj>(yaml: string): T[] {
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as T | null)
    .filter((o): o is T => o !== null);
}

/** `Kind/namespace/name` of a rendered document, for messages and comparisons. */
export const docId = (d: RenderedDoc): string => `${d.object.kind}/${d.object.metadata.namespace ?? ''}/${d.object.metadata.name}`;

/** The first object of `kind` (named `name`, when given), or undefined. */
export function findObject(docs: readonly RenderedDoc[], kind: string, name?: string): RenderedDoc['object'] | undefined {
  return docs.find((d) => d.object.kind === kind && (name === undefined || d.object.metadata.name === name))?.object;
}

/** The first object of `kind` (named `name`, when given); throws, listing what there is, when none is. */
export function getObject(docs: readonly RenderedDoc[], kind: string, name?: string): Record<string, any> {
  const o = findObject(docs, kind, name);
  if (!o) throw new Error(`no ${kind}${name === undefined ? '' : `/${name}`} among ${docs.map(docId).join(', ')}`);
  return o as Record<string, any>;
}
