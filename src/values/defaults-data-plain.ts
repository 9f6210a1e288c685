// The plain `defaultsData` and `defaultsPositions` members (src/precomputed.ts).

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { packageFile } from '../package-root.ts';
import type { Revision } from '../spec/revisions.ts';
import type { DefaultsPositions } from './defaults-data.ts';

export function plainDefaultsData(revision: Revision): Record<string, unknown> {
  return parse(readFileSync(packageFile(`values/revision-${revision.toLowerCase()}.yaml`), 'utf8'), { version: '1.2' }) as Record<string, unknown>;
}

/** Unknown ahead of time: src/values/defaults.ts parses the commented file when a finding points into it. */
export function plainDefaultsPositions(_revision: Revision): DefaultsPositions | undefined {
  return undefined;
}
