// The plain data of each revision's defaults. Development path: parsed from values/*.yaml. The
// build replaces this module with the same data as JSON, so the CLI does not parse the commented
// defaults YAML at every start (positions in that file are only needed when a finding points there).

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { packageFile } from '../package-root.ts';
import type { Revision } from '../spec/revisions.ts';

export function defaultsData(revision: Revision): Record<string, unknown> {
  return parse(readFileSync(packageFile(`values/revision-${revision.toLowerCase()}.yaml`), 'utf8'), { version: '1.2' }) as Record<string, unknown>;
}

/** Line, column and source line of every key of the defaults (joined path → position), when known ahead of time. */
export function defaultsPositions(_revision: Revision): Record<string, [number, number, string]> | undefined {
  return undefined;
}
