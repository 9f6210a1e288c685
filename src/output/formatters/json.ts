// The JSON machine contract. Version 1:
//   { version: 1, tool: {name, version}, revision?: "A"|"B",
//     files: [{ file: string|null, revision?: "A"|"B", errors, warnings, infos,
//               problems: [{ severity, rule, path, message, hint?, line?, column?, excerpt? }] }],
//     summary: { files, errors, warnings, infos } }
// Keys appear in this order; optional keys are omitted, never null (except `file` of the
// group of problems that have no source file). Additions bump nothing; changes bump `version`.

import type { Problem } from '../../problems/problem.ts';
import type { LintReport } from '../../lint/report.ts';

export const JSON_FORMAT_VERSION = 1;

export function formatJson(report: LintReport): string {
  const out = {
    version: JSON_FORMAT_VERSION,
    tool: report.tool,
    ...(report.revision ? { revision: report.revision } : {}),
    files: report.files.map((g) => ({
      file: g.file ?? null,
      ...(g.revision ? { revision: g.revision } : {}),
      errors: g.counts.errors,
      warnings: g.counts.warnings,
      infos: g.counts.infos,
      problems: g.problems.map(problemJson),
    })),
    summary: { files: report.inputCount, ...report.counts },
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}

function problemJson(p: Problem): Record<string, unknown> {
  return {
    severity: p.severity,
    rule: p.rule,
    path: p.path,
    message: p.message,
    ...(p.hint !== undefined ? { hint: p.hint } : {}),
    ...(p.line !== undefined ? { line: p.line } : {}),
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.excerpt !== undefined ? { excerpt: p.excerpt } : {}),
  };
}
