// subchart-name-overrides: every sub-chart takes Helm's nameOverride and fullnameOverride and
// names its objects from them; the bundled agents of revision A take the scheduling keys their
// charts honour (nodeSelector, tolerations), which reach the Agent's deployment settings.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { find, render } from './helpers.ts';
import { BUNDLED_AREAS } from './helpers.ts';

const lintErrors = (revision: Revision, yaml: string) =>
  lintValues({ revision, layers: [parseValuesText(yaml, 'v.yaml').source!] }).problems.filter((p) => p.severity === 'error');

/** Each sub-chart: the values that turn it on, and the kind and name of its main object. */
const SUBCHARTS: { key: string; on: Record<string, unknown>; kind: string; named: (name: string) => string; revisions: Revision[] }[] = [
  { key: 'mcpop', on: {}, kind: 'Deployment', named: (n) => `${n}-controller-manager`, revisions: ['A', 'B'] },
  { key: 'agentplat-tools', on: {}, kind: 'Deployment', named: (n) => n, revisions: ['A', 'B'] },
  { key: 'dashboards-mcp', on: {}, kind: 'Deployment', named: (n) => n, revisions: ['A', 'B'] },
  { key: 'authproxy', on: { enabled: true, config: { existingSecret: 'oidc' } }, kind: 'Deployment', named: (n) => n, revisions: ['A', 'B'] },
  { key: 'substrate', on: { enabled: true }, kind: 'Deployment', named: (n) => `${n}-api-server`, revisions: ['A', 'B'] },
  ...BUNDLED_AREAS.map((a) => ({ key: `${a}-agent`, on: {}, kind: 'Agent', named: (n: string) => n, revisions: ['A'] as Revision[] })),
];

describe('subchart-name-overrides: nameOverride and fullnameOverride of every sub-chart', () => {
  for (const s of SUBCHARTS) {
    for (const rev of s.revisions) {
      it(`[${rev}] ${s.key}.fullnameOverride is a known key and names its objects`, () => {
        expect(lintErrors(rev, `${JSON.stringify(s.key)}:\n  fullnameOverride: custom-x\n  nameOverride: custom-n\n`)).toEqual([]);
        const docs = render(rev, { [s.key]: { ...s.on, fullnameOverride: 'custom-x' } });
        expect(() => find(docs, s.kind, s.named('custom-x'))).not.toThrow();
      });
      it(`[${rev}] ${s.key}.nameOverride names its objects or labels`, () => {
        const docs = render(rev, { [s.key]: { ...s.on, nameOverride: 'custom-n' } });
        const owned = docs.filter((d) => d.source.startsWith(`agentplat/charts/${s.key}/`));
        expect(owned.length).toBeGreaterThan(0);
        const text = JSON.stringify(owned.map((d) => [d.object.metadata.name, d.object.metadata.labels]));
        expect(text).toContain('custom-n');
      });
    }
  }
  it('an invalid override is a values/object-name error at the key', () => {
    const hits = lintValues({ revision: 'A', layers: [parseValuesText('cluster-agent:\n  fullnameOverride: Cluster_Agent\n', 'v.yaml').source!] }).problems.filter((p) => p.rule === 'values/object-name');
    expect(hits.map((h) => [h.path, h.line])).toEqual([['cluster-agent.fullnameOverride', 2]]);
  });
  it('references follow the overrides: the observability agent names the renamed query-language agent and dashboards MCP server', () => {
    const docs = render('A', { 'query-language-agent': { fullnameOverride: 'promql' }, 'dashboards-mcp': { fullnameOverride: 'dash' } });
    const tools = find(docs, 'Agent', 'observability-agent').spec.declarative.tools as { agent?: { name: string }; mcpServer?: { name: string } }[];
    expect(tools.map((t) => t.agent?.name ?? t.mcpServer?.name)).toEqual(['agentplat-tool-server', 'dash', 'promql']);
    expect(() => find(docs, 'Agent', 'promql')).not.toThrow();
    expect(() => find(docs, 'RemoteMCPServer', 'dash')).not.toThrow();
  });
});

describe('bundled-agent-scheduling [A]: nodeSelector and tolerations reach the Agent\'s deployment', () => {
  for (const area of BUNDLED_AREAS) {
    it(`${area}-agent`, () => {
      const key = `${area}-agent`;
      const nodeSelector = { pool: 'agents' };
      const tolerations = [{ key: 'dedicated', operator: 'Equal', value: 'agents', effect: 'NoSchedule' }];
      expect(lintErrors('A', `${key}:\n  nodeSelector:\n    pool: agents\n  tolerations:\n    - {key: dedicated, operator: Equal, value: agents, effect: NoSchedule}\n`)).toEqual([]);
      const deployment = find(render('A', { [key]: { nodeSelector, tolerations } }), 'Agent', key).spec.declarative.deployment;
      expect(deployment.nodeSelector).toEqual(nodeSelector);
      expect(deployment.tolerations).toEqual(tolerations);
    });
  }
  it('unset, they are left out of the Agent', () => {
    const deployment = find(render('A'), 'Agent', 'cluster-agent').spec.declarative.deployment;
    expect(Object.keys(deployment)).toEqual(['resources']);
  });
  it('revision B has no bundled agents: the keys are unknown there', () => {
    expect(lintErrors('B', 'cluster-agent:\n  nodeSelector: {pool: agents}\n').map((p) => p.rule)).toEqual(['values/unknown-key']);
  });
});
