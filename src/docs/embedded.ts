// Files the package ships and the `values`, `schema` and `docs` commands print: the defaults
// file and the values JSON schema of each revision (the same files the linter reads).

import { readPackageFile } from '../package-root.ts';
import type { Revision } from '../chart/revisions.ts';
import type { SchemaNode } from './values-reference.ts';
import { defaultsText } from '../values/defaults.ts';

export function schemaPath(revision: Revision): string {
  return `schemas/values-${revision.toLowerCase()}.schema.json`;
}

/** The values JSON schema text of a revision, verbatim. */
export function schemaText(revision: Revision): string {
  return readPackageFile(schemaPath(revision));
}

const parsed = new Map<Revision, SchemaNode>();

/** The values JSON schema of a revision, parsed once per run (explain and completion read it). */
export function valuesSchema(revision: Revision): SchemaNode {
  let schema = parsed.get(revision);
  if (!schema) parsed.set(revision, (schema = JSON.parse(schemaText(revision)) as SchemaNode));
  return schema;
}

/** The defaults file of a revision, verbatim (comments included). */
export function defaultsFileText(revision: Revision): string {
  return defaultsText(revision);
}
