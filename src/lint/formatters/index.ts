// The formatter registry: every output format by the name users type. `FormatName`, the CLI's
// choices and the usage error for an unknown name all derive from this one object.

import { Chalk, type ChalkInstance } from 'chalk';
import { UsageError } from '../../errors.ts';
import type { Problem } from '../problem.ts';
import { buildReport, type LintReport, type ReportInput } from '../report.ts';
import { formatGithub } from './github.ts';
import { formatJson } from './json.ts';
import { formatJunit } from './junit.ts';
import { formatSarif } from './sarif.ts';
import { formatText } from './text.ts';
import type { Formatter } from './types.ts';

export const FORMATTERS = {
  text: { description: 'for people: grouped by file, with the offending line and a caret (default)', format: formatText },
  json: { description: 'stable machine contract (versioned)', format: formatJson },
  sarif: { description: 'SARIF 2.1.0 for GitHub code scanning and other SARIF viewers', format: formatSarif },
  github: { description: 'GitHub Actions workflow commands (inline annotations)', format: formatGithub },
  junit: { description: 'JUnit XML test report (GitLab, Jenkins)', format: formatJunit },
} as const satisfies Record<string, { description: string; format: Formatter }>;

export type FormatName = keyof typeof FORMATTERS;
export const FORMAT_NAMES = Object.keys(FORMATTERS) as FormatName[];

export function isFormatName(raw: string): raw is FormatName {
  return Object.prototype.hasOwnProperty.call(FORMATTERS, raw);
}

/** Checks a user-given format name; an unknown one is a usage error listing the valid names. */
export function parseFormatName(raw: string, origin = '--format'): FormatName {
  if (isFormatName(raw)) return raw;
  throw new UsageError(`${origin}: unknown format "${raw}"`, `valid formats: ${FORMAT_NAMES.join(', ')}`);
}

export interface FormatOptions extends Omit<ReportInput, 'problems'> {
  format: FormatName;
  /** Colored text output; ignored by machine formats. */
  color?: boolean;
  /** A ready chalk instance (wins over `color`). */
  chalk?: ChalkInstance;
  /** Warnings fail the run (affects JUnit failures). */
  strict?: boolean;
}

/** Renders a report in the given format. Machine formats never contain color. */
export function formatReport(report: LintReport, options: Pick<FormatOptions, 'format' | 'color' | 'chalk' | 'strict'>): string {
  const machine = options.format !== 'text';
  const chalk = machine ? new Chalk({ level: 0 }) : (options.chalk ?? new Chalk({ level: options.color ? 1 : 0 }));
  return FORMATTERS[options.format].format(report, { chalk, ...(options.strict ? { strict: true } : {}) });
}

/** Sorts, groups and counts `problems` once, then renders them; for every command that prints problems. */
export function formatProblems(problems: readonly Problem[], options: FormatOptions): string {
  return formatReport(buildReport({ ...options, problems }), options);
}
