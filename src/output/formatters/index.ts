// The formatter registry: every output format by the name users type (names and descriptions
// live in names.ts, so option parsing does not load the formatters).

import type { ChalkInstance } from 'chalk';
import { PLAIN } from '../../plain-style.ts';
import { FORMAT_DESCRIPTIONS, FORMAT_NAMES, isFormatName, parseFormatName, type FormatName } from '../../problems/format-names.ts';
import type { Problem } from '../../problems/problem.ts';
import { buildReport, type LintReport, type ReportInput } from '../../lint/report.ts';
import { formatGithub } from './github.ts';
import { formatJson } from './json.ts';
import { formatJunit } from './junit.ts';
import { formatSarif } from './sarif.ts';
import { formatText } from './text.ts';
import type { Formatter } from './types.ts';

export const FORMATTERS = {
  text: { description: FORMAT_DESCRIPTIONS.text, format: formatText },
  json: { description: FORMAT_DESCRIPTIONS.json, format: formatJson },
  sarif: { description: FORMAT_DESCRIPTIONS.sarif, format: formatSarif },
  github: { description: FORMAT_DESCRIPTIONS.github, format: formatGithub },
  junit: { description: FORMAT_DESCRIPTIONS.junit, format: formatJunit },
} as const satisfies Record<FormatName, { description: string; format: Formatter }>;

export { FORMAT_NAMES, isFormatName, parseFormatName, type FormatName };

export interface FormatOptions extends Omit<ReportInput, 'problems'> {
  format: FormatName;
  /** The styles of text output (io.ts `chalkFor`); none by default. Machine formats ignore it. */
  chalk?: ChalkInstance;
  /** Warnings fail the run (affects JUnit failures). */
  strict?: boolean;
}

/** Renders a report in the given format. Machine formats never contain color. */
export function formatReport(report: LintReport, options: Pick<FormatOptions, 'format' | 'chalk' | 'strict'>): string {
  const machine = options.format !== 'text';
  const chalk = machine ? PLAIN : (options.chalk ?? PLAIN);
  return FORMATTERS[options.format].format(report, { chalk, ...(options.strict ? { strict: true } : {}) });
}

/** Sorts, groups and counts `problems` once, then renders them; for every command that prints problems. */
export function formatProblems(problems: readonly Problem[], options: FormatOptions): string {
  return formatReport(buildReport({ ...options, problems }), options);
}
