// `agentplat version`: the tool's version, and for each chart revision the chart version and the
// sub-chart versions it pins (values document §2.1; mcpop and substrate are build-time pins).
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { packageVersion } from '../../package-version.ts';
import { REVISION_IDS, REVISIONS, type Revision } from '../../chart/revisions.ts';
import { outputFlag, outputFormat, REPORT_FORMATS, revisionChoice, revisionOption } from '../options.ts';

export interface RevisionVersions {
  revision: Revision;
  chart: string;
  subcharts: Record<string, string>;
  /** Range constraints the chart declares (`authproxy: ~10.7.0`); `subcharts` gives the version resolved. */
  constraints: Record<string, string>;
  /** [A] the ten bundled agent sub-charts, pinned to the chart version; none in B. */
  bundledAgents: { version: string; charts: string[] } | null;
}

export interface VersionReport {
  agentplat: string;
  revisions: RevisionVersions[];
}

export function versionReport(revisions: readonly Revision[], bundledAgentKeys: readonly string[]): VersionReport {
  return {
    agentplat: packageVersion(),
    revisions: revisions.map((r) => {
      const info = REVISIONS[r];
      return {
        revision: r,
        chart: info.chartVersion,
        subcharts: Object.fromEntries(Object.keys(info.subcharts).sort().map((k) => [k, info.subcharts[k]!])),
        constraints: { ...info.constraints },
        bundledAgents: info.bundledAgents ? { version: info.chartVersion, charts: [...bundledAgentKeys] } : null,
      };
    }),
  };
}

export function versionText(report: VersionReport): string {
  const lines = [`agentplat ${report.agentplat} (node ${process.version})`];
  for (const r of report.revisions) {
    lines.push('', `revision ${r.revision}: chart agentplat ${r.chart}`);
    const rows: [string, string][] = Object.entries(r.subcharts).map(([k, v]) => [k, r.constraints[k] ? `${v} (${r.constraints[k]})` : v]);
    if (r.bundledAgents) rows.push([`bundled agents (${r.bundledAgents.charts.length})`, r.bundledAgents.version]);
    const width = Math.max(...rows.map(([k]) => k.length));
    for (const [k, v] of rows) lines.push(`  ${k.padEnd(width)}  ${v}`);
  }
  return `${lines.join('\n')}\n`;
}

export function register(program: Command, app: App): void {
  program
    .command('version')
    .description('print the agentplat version, the chart version and the sub-chart versions of each revision')
    .addOption(revisionChoice('-r, --revision <A|B>', 'only this chart revision'))
    .addOption(outputFlag(REPORT_FORMATS, 'document format: text or json'))
    .addHelpText('after', '\nExample:\n  agentplat version -r B -o json')
    .action(async (opts: { revision?: string; output: string }) => {
      const output = outputFormat(opts.output, REPORT_FORMATS);
      const { BUNDLED_AGENT_KEYS } = await import('../../render/subcharts/agents.ts');
      const report = versionReport(opts.revision ? [revisionOption(opts.revision)] : REVISION_IDS, BUNDLED_AGENT_KEYS);
      app.io.stdout(output === 'json' ? `${JSON.stringify(report, null, 2)}\n` : versionText(report));
      app.exitCode = 0;
    });
}
