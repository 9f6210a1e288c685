// How findings in a revision's defaults name their "file": the command that prints those lines.
// It is not a file of the user's repository, so reports group such findings with `file: null`.

import type { Revision } from '../chart/revisions.ts';

const PREFIX = '<agentplat values --revision ';

export function defaultsLabel(revision: Revision): string {
  return `${PREFIX}${revision}>`;
}

export function isDefaultsLabel(file: string | undefined): boolean {
  return file !== undefined && file.startsWith(PREFIX) && file.endsWith('>');
}
