// The names and one-line descriptions of the output formats: what option parsing and --help need,
// without loading the formatters themselves (they load only when a command prints problems).

import { UsageError } from './errors.ts';

export const FORMAT_DESCRIPTIONS = {
  text: 'for people: grouped by file, with the offending line and a caret (default)',
  json: 'stable machine contract (versioned)',
  sarif: 'SARIF 2.1.0 for GitHub code scanning and other SARIF viewers',
  github: 'GitHub Actions workflow commands (inline annotations)',
  junit: 'JUnit XML test report (GitLab, Jenkins)',
} as const;

export type FormatName = keyof typeof FORMAT_DESCRIPTIONS;
export const FORMAT_NAMES = Object.keys(FORMAT_DESCRIPTIONS) as FormatName[];

export function isFormatName(raw: string): raw is FormatName {
  return Object.prototype.hasOwnProperty.call(FORMAT_DESCRIPTIONS, raw);
}

/** Checks a user-given format name; an unknown one is a usage error listing the valid names. */
export function parseFormatName(raw: string, origin = '--format'): FormatName {
  if (isFormatName(raw)) return raw;
  throw new UsageError(`${origin}: unknown format "${raw}"`, `valid formats: ${FORMAT_NAMES.join(', ')}`);
}
