// The objects of a rendered YAML stream, empty documents left out: what tests of the CLI's output
// read back.
import { parseAllDocuments } from 'yaml';

export type Obj = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> } };

export function objectsOf<T = Obj>(yaml: string): T[] {
  return parseAllDocuments(yaml)
    .map((d) => d.toJS() as T | null)
    .filter((o): o is T => o !== null);
}
