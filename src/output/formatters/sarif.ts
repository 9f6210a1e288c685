// SARIF 2.1.0, as GitHub code scanning ingests it: a rule table in tool.driver, one result per
// problem. Problems that come from a --set flag or from no file have nothing to point at in
// the repository, so their result carries no location and names the flag in its message.

import type { Problem, Severity } from '../../problems/problem.ts';
import type { LintReport } from '../../lint/report.ts';
import { COMMAND_WORDING, isArtifactFile, isFlagSource } from './shared.ts';

const SARIF_LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { error: 'error', warning: 'warning', info: 'note' };

export function formatSarif(report: LintReport): string {
  const ruleIds = [...new Set(report.problems.map((p) => p.rule))].sort();
  const ruleIndex = new Map(ruleIds.map((id, i) => [id, i]));
  const defaultLevel = new Map<string, Severity>();
  for (const p of report.problems) {
    const seen = defaultLevel.get(p.rule);
    if (seen === undefined || (seen !== 'error' && p.severity === 'error')) defaultLevel.set(p.rule, p.severity);
  }
  const wording = COMMAND_WORDING[report.command];
  // Files linted at different revisions (GitOps objects of both chart versions): each result says its file's.
  const fileRevision = new Map(report.files.filter((f) => f.revision).map((f) => [f.file, f.revision]));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: report.tool.name,
            version: report.tool.version,
            informationUri: 'https://github.com/agentplat/agentplat',
            rules: ruleIds.map((id) => {
              const description = report.rules.get(id) ?? `agentplat rule ${id}`;
              return {
                id,
                shortDescription: { text: description },
                help: { text: `${description}. ${wording.ruleHelp(id)}` },
                defaultConfiguration: { level: SARIF_LEVEL[defaultLevel.get(id) ?? 'warning'] },
              };
            }),
          },
        },
        ...(report.revision ? { properties: { revision: report.revision } } : {}),
        results: report.problems.map((p) => result(p, ruleIndex.get(p.rule) ?? 0, wording.pathProperty, fileRevision.get(p.file))),
      },
    ],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}

function result(p: Problem, ruleIndex: number, pathProperty: string, revision: string | undefined): Record<string, unknown> {
  let text = p.hint ? `${p.message}. Hint: ${p.hint}` : p.message;
  if (isFlagSource(p.file) || (p.file !== undefined && !isArtifactFile(p.file))) text = `${p.file}: ${text}`;
  const out: Record<string, unknown> = { ruleId: p.rule, ruleIndex, level: SARIF_LEVEL[p.severity], message: { text } };
  if (isArtifactFile(p.file)) {
    out.locations = [
      {
        physicalLocation: {
          artifactLocation: { uri: fileUri(p.file) },
          // Code scanning needs a position; a problem about a whole file points at its start.
          region: { startLine: p.line ?? 1, startColumn: p.line !== undefined ? (p.column ?? 1) : 1 },
        },
      },
    ];
  }
  if (p.path || revision) out.properties = { ...(p.path ? { [pathProperty]: p.path } : {}), ...(revision ? { revision } : {}) };
  return out;
}

/** A relative URI reference for a relative path, a file: URI for an absolute one. */
export function fileUri(path: string): string {
  const posix = path.replace(/\\/g, '/');
  const encoded = posix
    .split('/')
    .map((seg) => encodeURIComponent(seg))
    .join('/');
  return posix.startsWith('/') ? `file://${encoded}` : encoded.replace(/^\.\//, '');
}
