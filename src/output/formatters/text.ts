// The default, human format: problems grouped by file, each with its hint and the offending
// line under a caret, then one summary line.

import type { ChalkInstance } from 'chalk';
import type { Problem, ProblemCounts, Severity } from '../../problems/problem.ts';
import type { LintReport } from '../../lint/report.ts';
import { locationText, SEVERITY_LABEL, summaryText } from './shared.ts';
import type { FormatterOptions } from './types.ts';

export function formatText(report: LintReport, { chalk }: FormatterOptions): string {
  const blocks = report.files.filter((group) => group.problems.length > 0).map((group) => textFileBlock(group.problems, chalk));
  blocks.push(textSummary(report.inputCount, report.counts, chalk, report.inputNoun));
  return `${blocks.join('\n\n')}\n`;
}

/** The lines of one file's (sorted, capped) problems; blocks are separated by an empty line. */
export function textFileBlock(problems: readonly Problem[], chalk: ChalkInstance): string {
  return problems.map((p) => problemLines(p, chalk).join('\n')).join('\n');
}

/** The summary line (`3 files, 1 error, 0 warnings`; `noun` counts the inputs), tinted by the worst severity counted. */
export function textSummary(inputCount: number, counts: ProblemCounts, chalk: ChalkInstance, noun?: string): string {
  const tint = counts.errors > 0 ? chalk.red.bold : counts.warnings > 0 ? chalk.yellow.bold : chalk.green;
  return tint(summaryText(inputCount, counts, noun));
}

function severityColor(chalk: ChalkInstance, s: Severity): ChalkInstance {
  return s === 'error' ? chalk.red : s === 'warning' ? chalk.yellow : chalk.blue;
}

function problemLines(p: Problem, chalk: ChalkInstance): string[] {
  const color = severityColor(chalk, p.severity);
  const lines = [`${chalk.bold(locationText(p))}  ${color(SEVERITY_LABEL[p.severity])}  ${p.message}  ${chalk.dim(`[${p.rule}]`)}`];
  if (p.hint) lines.push(`  ${chalk.cyan('hint:')} ${p.hint.replace(/\n/g, '\n        ')}`);
  if (p.excerpt !== undefined) lines.push(...excerptLines(p, color, chalk));
  return lines;
}

/** Excerpts longer than this are cut to a window around the column (a minified or generated line). */
export const MAX_EXCERPT_WIDTH = 160;

/** The source line with a gutter, and a caret under the column (tabs kept so it lines up). */
function excerptLines(p: Problem, color: ChalkInstance, chalk: ChalkInstance): string[] {
  const { text: excerpt, column } = excerptWindow(p.excerpt ?? '', p.excerptColumn ?? p.column);
  const gutter = p.line !== undefined ? String(p.line) : '';
  const out = [`  ${chalk.dim(`${gutter} |`)} ${excerpt}`];
  if (column !== undefined && column >= 1) {
    const lead = excerpt.slice(0, column - 1).replace(/[^\t]/g, ' ');
    out.push(`  ${chalk.dim(`${' '.repeat(gutter.length)} |`)} ${lead}${color('^')}`);
  }
  return out;
}

/** At most MAX_EXCERPT_WIDTH characters of `line` around `column`, `…` marking each cut side. */
export function excerptWindow(line: string, column: number | undefined): { text: string; column: number | undefined } {
  if (line.length <= MAX_EXCERPT_WIDTH) return { text: line, column };
  const at = Math.min(Math.max((column ?? 1) - 1, 0), line.length);
  const start = Math.max(0, Math.min(at - Math.floor(MAX_EXCERPT_WIDTH / 2), line.length - MAX_EXCERPT_WIDTH));
  const end = start + MAX_EXCERPT_WIDTH;
  const head = start > 0 ? '…' : '';
  const text = `${head}${line.slice(start, end)}${end < line.length ? '…' : ''}`;
  return { text, column: column === undefined ? undefined : at - start + head.length + 1 };
}
