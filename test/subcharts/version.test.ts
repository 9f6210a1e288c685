// `agentplat version` (values document 2.1: chart and sub-chart versions of each revision).
import { describe, expect, it } from 'vitest';
import semver from 'semver';
import { REVISIONS, type Revision } from '../../src/chart/revisions.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import { AUTHPROXY_INLINE, BUNDLED_AREAS, render as renderSubcharts } from './helpers.ts';
import { runInProcess } from '../cli/in-process.ts';

/** The distinct helm.sh/chart labels of one sub-chart's objects. */
function chartLabels(docs: readonly RenderedDoc[], chart: string): string[] {
  const own = docs.filter((d) => d.source.startsWith(`agentplat/charts/${chart}/`));
  return [...new Set(own.map((d) => (d.object.metadata.labels as Record<string, unknown> | undefined)?.['helm.sh/chart']).filter((l): l is string => typeof l === 'string'))];
}

describe('agentplat version', () => {
  it('2.1 -o json lists the chart version and every sub-chart pin of each revision', async () => {
    const { code, stdout: out } = await runInProcess(['version', '-o', 'json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report.revisions.map((r: any) => [r.revision, r.chart])).toEqual([['A', '0.10.0'], ['B', '0.11.0']]);
    const [a, b] = report.revisions;
    expect(a.subcharts).toMatchObject({ 'agentplat-tools': '0.2.1', authproxy: '10.7.0', 'dashboards-mcp': '0.10.0' });
    expect(b.subcharts).toMatchObject({ 'agentplat-tools': '0.3.0', authproxy: '10.7.0', 'dashboards-mcp': '1.0.0-alpha8' });
    // A pins the ten bundled agents and the dashboards MCP sub-chart to one shared version; B has no agents
    expect(a.bundledAgents.charts).toHaveLength(10);
    expect(a.bundledAgents.version).toBe(a.subcharts['dashboards-mcp']);
    expect(b.bundledAgents).toBeNull();
    expect(report.agentplat).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('--revision B prints only that revision as text', async () => {
    const { code, stdout: out } = await runInProcess(['version', '--revision', 'B']);
    expect(code).toBe(0);
    expect(out).toContain('revision B: chart agentplat 0.11.0');
    expect(out).toMatch(/dashboards-mcp\s+1\.0\.0-alpha8/);
    expect(out).not.toContain('revision A');
  });

  it('subchart-pins-a: `agentplat version -r A` pins the ten bundled agents and dashboards-mcp to one shared version, tools 0.2.1, authproxy ~10.7.0', async () => {
    const text = await runInProcess(['version', '-r', 'A']);
    expect(text.code).toBe(0);
    const shared = /dashboards-mcp\s+(\S+)\n/.exec(text.stdout)![1]!;
    expect(text.stdout).toMatch(new RegExp(`bundled agents \\(10\\)\\s+${shared.replace(/\./g, '\\.')}\\n`));
    expect(text.stdout).toMatch(/agentplat-tools\s+0\.2\.1\n/);
    expect(text.stdout).toMatch(/authproxy\s+10\.7\.0 \(~10\.7\.0\)\n/);
    const [a] = JSON.parse((await runInProcess(['version', '-r', 'A', '-o', 'json'])).stdout).revisions;
    expect(a.bundledAgents.charts).toEqual(BUNDLED_AREAS.map((area) => `${area}-agent`));
    expect(a.bundledAgents.version).toBe(a.subcharts['dashboards-mcp']);
    expect(a.subcharts['agentplat-tools']).toBe('0.2.1');
    expect(a.constraints.authproxy).toBe('~10.7.0');
    expect(semver.satisfies(a.subcharts.authproxy, a.constraints.authproxy)).toBe(true);
    // the rendered sub-charts carry the pins
    const docs = renderSubcharts('A', { authproxy: AUTHPROXY_INLINE });
    for (const chart of ['dashboards-mcp', ...BUNDLED_AREAS.map((area) => `${area}-agent`)]) {
      expect(chartLabels(docs, chart), chart).toEqual([`${chart}-${shared}`]);
    }
    expect(chartLabels(docs, 'agentplat-tools')).toEqual(['agentplat-tools-0.2.1']);
  });

  it('subchart-pins-b: `agentplat version -r B` lists dashboards-mcp 1.0.0-alpha8, tools 0.3.0 and authproxy ~10.7.0 / 10.7.0', async () => {
    const { code, stdout: out } = await runInProcess(['version', '-r', 'B']);
    expect(code).toBe(0);
    expect(out).toMatch(/dashboards-mcp\s+1\.0\.0-alpha8\n/);
    expect(out).toMatch(/agentplat-tools\s+0\.3\.0\n/);
    expect(out).toMatch(/authproxy\s+10\.7\.0 \(~10\.7\.0\)\n/);
    expect(out).not.toContain('bundled agents');
    const [b] = JSON.parse((await runInProcess(['version', '-r', 'B', '-o', 'json'])).stdout).revisions;
    expect(b.subcharts).toMatchObject({ 'dashboards-mcp': '1.0.0-alpha8', 'agentplat-tools': '0.3.0', authproxy: '10.7.0' });
    expect(b.constraints).toEqual({ authproxy: '~10.7.0' });
    const docs = renderSubcharts('B', { authproxy: AUTHPROXY_INLINE });
    expect(chartLabels(docs, 'dashboards-mcp')).toEqual(['dashboards-mcp-1.0.0-alpha8']);
    expect(chartLabels(docs, 'agentplat-tools')).toEqual(['agentplat-tools-0.3.0']);
  });

  it('subchart-versions-build-time: the mcpop and substrate versions are fixed when agentplat is built: exact pins in `version`, carried by the rendered sub-charts', async () => {
    const report = JSON.parse((await runInProcess(['version', '-o', 'json'])).stdout);
    for (const r of report.revisions) {
      for (const chart of ['mcpop', 'substrate']) {
        expect(semver.valid(r.subcharts[chart]), `${r.revision} ${chart}`).toBe(r.subcharts[chart]);
        expect(r.constraints[chart], `${r.revision} ${chart} is one version, not a range`).toBeUndefined();
        expect(r.subcharts[chart]).toBe(REVISIONS[r.revision as Revision].subcharts[chart]);
      }
      const docs = renderSubcharts(r.revision, { substrate: { enabled: true } });
      expect(chartLabels(docs, 'mcpop'), r.revision).toEqual([`mcpop-v${r.subcharts.mcpop}`]);
      expect(chartLabels(docs, 'substrate'), r.revision).toEqual([`substrate-${r.subcharts.substrate}`]);
    }
  });

  it('an unknown revision or output format is a usage error (exit 2)', async () => {
    expect((await runInProcess(['version', '--revision', 'C'])).code).toBe(2);
    expect((await runInProcess(['version', '-o', 'yaml'])).code).toBe(2);
  });
});
