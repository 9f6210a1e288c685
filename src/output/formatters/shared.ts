// Helpers every formatter shares, written once: severity words, location text, the summary
// sentence, and the escaping rules of XML and of GitHub workflow commands.

import type { Problem, ProblemCounts, Severity } from '../../problems/problem.ts';
import type { ReportCommand } from '../../lint/report.ts';

export const SEVERITY_LABEL: Record<Severity, string> = { error: 'error', warning: 'warning', info: 'info' };

/** What differs between the commands' reports: what a problem's path is a path of, and how a rule is tuned. */
export const COMMAND_WORDING: Record<ReportCommand, { pathProperty: string; cleanCase: string; ruleHelp: (id: string) => string }> = {
  lint: {
    pathProperty: 'valuesPath',
    cleanCase: 'values',
    ruleHelp: (id) => `Rule id ${id}; change its severity with --rule ${id}=off|warn|error or in .agentplat.yaml.`,
  },
  validate: {
    pathProperty: 'fieldPath',
    cleanCase: 'resources',
    ruleHelp: (id) => `Rule id ${id}; the API server refuses an object with this problem, so validate always reports it as an error.`,
  },
  plan: {
    pathProperty: 'planPath',
    cleanCase: 'upgrade',
    ruleHelp: (id) => `Rule id ${id}; agentplat plan reports what an upgrade needs a person for (see docs/commands.md, section plan).`,
  },
};

/** True when a problem's `file` names a command-line flag (`--set #2`) rather than a file on disk. */
export function isFlagSource(file: string | undefined): boolean {
  return file !== undefined && file.startsWith('--');
}

/** True when `file` is a path a CI system can point into (not a flag, not `<stdin>`). */
export function isArtifactFile(file: string | undefined): file is string {
  return file !== undefined && file !== '' && !isFlagSource(file) && !/^<.*>$/.test(file);
}

/** Display name of a file group. */
export function fileLabel(file: string | undefined): string {
  return file ?? '(merged values)';
}

/** `file:line:col`, dropping the parts a problem lacks. */
export function locationText(p: Pick<Problem, 'file' | 'line' | 'column'>): string {
  let s = fileLabel(p.file);
  if (p.line !== undefined) {
    s += `:${p.line}`;
    if (p.column !== undefined) s += `:${p.column}`;
  }
  return s;
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** `N files, E errors, W warnings` (plus infos when there are any); `noun` names the inputs when they are not files. */
export function summaryText(inputCount: number, counts: ProblemCounts, noun = 'file'): string {
  const parts = [plural(inputCount, noun), plural(counts.errors, 'error'), plural(counts.warnings, 'warning')];
  if (counts.infos > 0) parts.push(plural(counts.infos, 'info'));
  return parts.join(', ');
}

/** The message followed by the hint, for formats with a single text field. */
export function messageWithHint(p: Pick<Problem, 'message' | 'hint'>, separator = '\n'): string {
  return p.hint ? `${p.message}${separator}hint: ${p.hint}` : p.message;
}

// XML 1.0 forbids most control characters even when escaped; they are dropped.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Escapes text for XML content and attribute values. */
export function escapeXml(text: string): string {
  return text
    .replace(XML_INVALID, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Escapes the message part of a GitHub workflow command (after `::`). */
export function escapeGithubData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value of a GitHub workflow command (`file=…`, `title=…`). */
export function escapeGithubProperty(text: string): string {
  return escapeGithubData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}
