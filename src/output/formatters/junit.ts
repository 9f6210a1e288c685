// JUnit XML for CI test reports (GitLab, Jenkins): a test suite per file, a test case per
// file and rule. Errors fail a case; warnings fail it only under --strict, otherwise they are
// listed in the case's output so the report still shows them.

import type { Problem } from '../../problems/problem.ts';
import type { LintReport } from '../../lint/report.ts';
import { COMMAND_WORDING, escapeXml, fileLabel, locationText, SEVERITY_LABEL } from './shared.ts';
import type { FormatterOptions } from './types.ts';

interface Case {
  rule: string;
  problems: Problem[];
  failed: boolean;
}

export function formatJunit(report: LintReport, options: FormatterOptions): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  for (const group of report.files) {
    const file = fileLabel(group.file);
    const cases = casesOf(group.problems, options.strict === true);
    const failed = cases.filter((c) => c.failed).length;
    const count = Math.max(cases.length, 1);
    tests += count;
    failures += failed;
    const body = cases.length === 0 ? [`    <testcase classname="${escapeXml(file)}" name="${COMMAND_WORDING[report.command].cleanCase}"/>`] : cases.map((c) => caseXml(file, c));
    suites.push(
      `  <testsuite name="${escapeXml(file)}" tests="${count}" failures="${failed}" errors="0" skipped="0">\n${body.join('\n')}\n  </testsuite>`,
    );
  }
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<testsuites name="agentplat ${report.command}" tests="${tests}" failures="${failures}" errors="0">\n` +
    (suites.length > 0 ? `${suites.join('\n')}\n` : '') +
    '</testsuites>\n'
  );
}

function casesOf(problems: readonly Problem[], strict: boolean): Case[] {
  const byRule = new Map<string, Problem[]>();
  for (const p of problems) {
    const list = byRule.get(p.rule);
    if (list) list.push(p);
    else byRule.set(p.rule, [p]);
  }
  return [...byRule.entries()].map(([rule, list]) => ({
    rule,
    problems: list,
    failed: list.some((p) => p.severity === 'error' || (strict && p.severity === 'warning')),
  }));
}

function caseXml(file: string, c: Case): string {
  const open = `    <testcase classname="${escapeXml(file)}" name="${escapeXml(c.rule)}">`;
  const details = c.problems.map(detailLine).join('\n');
  if (c.failed) {
    const first = c.problems[0]!;
    const message = c.problems.length === 1 ? first.message : `${c.problems.length} problems; first: ${first.message}`;
    const type = c.problems.some((p) => p.severity === 'error') ? 'error' : 'warning';
    return `${open}\n      <failure message="${escapeXml(message)}" type="${type}">${escapeXml(details)}</failure>\n    </testcase>`;
  }
  return `${open}\n      <system-out>${escapeXml(details)}</system-out>\n    </testcase>`;
}

function detailLine(p: Problem): string {
  const line = `${locationText(p)} ${SEVERITY_LABEL[p.severity]} ${p.message} [${p.rule}]`;
  return p.hint ? `${line}\n  hint: ${p.hint}` : line;
}
