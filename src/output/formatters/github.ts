// GitHub Actions workflow commands: one `::error|warning|notice` annotation per problem.
// Problems without a file (or from a --set flag) become annotations without a position.

import type { Problem, Severity } from '../../problems/problem.ts';
import type { LintReport } from '../../lint/report.ts';
import { escapeGithubData, escapeGithubProperty, isArtifactFile, messageWithHint } from './shared.ts';

const COMMAND: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'notice' };

export function formatGithub(report: LintReport): string {
  return githubAnnotations(report.problems);
}

/** One annotation line per problem. */
export function githubAnnotations(problems: readonly Problem[]): string {
  return problems.map((p) => `${annotation(p)}\n`).join('');
}

function annotation(p: Problem): string {
  const props: string[] = [];
  let message = messageWithHint(p);
  if (isArtifactFile(p.file)) {
    props.push(`file=${escapeGithubProperty(p.file)}`);
    if (p.line !== undefined) props.push(`line=${p.line}`);
    if (p.line !== undefined && p.column !== undefined) props.push(`col=${p.column}`);
  } else if (p.file !== undefined) {
    message = `${p.file}: ${message}`;
  }
  props.push(`title=${escapeGithubProperty(p.rule)}`);
  return `::${COMMAND[p.severity]} ${props.join(',')}::${escapeGithubData(message)}`;
}
