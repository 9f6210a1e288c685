// `agentplat version` (values document 2.1: chart and sub-chart versions of each revision).
import { describe, expect, it } from 'vitest';
import { run } from '../../src/cli/program.ts';
import { createMemoryIo } from '../../src/cli/io.ts';

async function cli(...args: string[]) {
  const io = createMemoryIo();
  const code = await run(args, io);
  return { code, out: io.out, err: io.err };
}

describe('agentplat version', () => {
  it('2.1 -o json lists the chart version and every sub-chart pin of each revision', async () => {
    const { code, out } = await cli('version', '-o', 'json');
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
    const { code, out } = await cli('version', '--revision', 'B');
    expect(code).toBe(0);
    expect(out).toContain('revision B: chart agentplat 0.11.0');
    expect(out).toMatch(/dashboards-mcp\s+1\.0\.0-alpha8/);
    expect(out).not.toContain('revision A');
  });

  it('an unknown revision or output format is a usage error (exit 2)', async () => {
    expect((await cli('version', '--revision', 'C')).code).toBe(2);
    expect((await cli('version', '-o', 'yaml')).code).toBe(2);
  });
});
