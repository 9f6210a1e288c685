// The contract between the lint report and a formatter: a pure function to a string.
import type { ChalkInstance } from 'chalk';
import type { LintReport } from '../../lint/report.ts';

export interface FormatterOptions {
  /** Colors for the text format; machine formats never use it. */
  chalk: ChalkInstance;
  /** Warnings fail the run (--strict): the JUnit format turns them into failures. */
  strict?: boolean;
}

export type Formatter = (report: LintReport, options: FormatterOptions) => string;
