// Gating of every sub-chart: the defaults of each revision render exactly the enabled ones, and
// turning one off removes exactly its objects (spec 2.11 `enabled`, 2.9 authproxy.enabled, 2.3 substrate).
import { describe, expect, it } from 'vitest';
import { AUTHPROXY_INLINE, BUNDLED_AREAS, ctxFor, id, renderByComponent } from './helpers.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { readFileSync } from 'node:fs';
import { defaultsSource } from '../../src/values/defaults.ts';

function nonEmpty(rev: Revision, overrides: Values = {}): string[] {
  return [...renderByComponent(ctxFor(rev, overrides))].filter(([, docs]) => docs.length > 0).map(([k]) => k);
}

describe('2.11 sub-charts: defaults', () => {
  it('revision A defaults render mcpop, agentplat-tools, dashboards-mcp and the ten <area>-agent sub-charts; authproxy and substrate are off', () => {
    expect(nonEmpty('A')).toEqual(['mcpop', 'agentplat-tools', 'dashboards-mcp', ...BUNDLED_AREAS.map((a) => `${a}-agent`)]);
  });

  it('revision B defaults render mcpop, agentplat-tools and dashboards-mcp, and no bundled agent', () => {
    expect(nonEmpty('B')).toEqual(['mcpop', 'agentplat-tools', 'dashboards-mcp']);
  });

  it('bundled-agents-a-only: revision A keys ten agent sub-charts <area>-agent (rollouts … query-language) and renders them; revision B lists none', () => {
    const areas = ['rollouts', 'network-debug', 'network-manager', 'network-policy', 'package-manager', 'service-mesh', 'cluster', 'gateway', 'observability', 'query-language'];
    const agentKeys = (rev: Revision) => Object.keys(defaultsSource(rev).data).filter((k) => k.endsWith('-agent'));
    expect(agentKeys('A')).toEqual(areas.map((a) => `${a}-agent`));
    expect(agentKeys('B')).toEqual([]);
    for (const rev of ['A', 'B'] as const) {
      const schemaKeys = Object.keys(JSON.parse(readFileSync(new URL(`../../schemas/values-${rev.toLowerCase()}.schema.json`, import.meta.url), 'utf8')).properties);
      expect(schemaKeys.filter((k) => k.endsWith('-agent')), rev).toEqual(rev === 'A' ? areas.map((a) => `${a}-agent`) : []);
    }
    const rendered = (rev: Revision) => [...renderByComponent(ctxFor(rev))].filter(([k, docs]) => k.endsWith('-agent') && docs.some((d) => d.object.kind === 'Agent')).map(([k]) => k);
    expect(rendered('A')).toEqual(areas.map((a) => `${a}-agent`));
    expect(rendered('B')).toEqual([]);
  });

  it('every sub-chart object carries the # Source: path of its sub-chart (agentplat/charts/<name>/templates/…)', () => {
    const byComponent = renderByComponent(ctxFor('A'));
    for (const [component, docs] of byComponent) {
      for (const d of docs) expect(d.source, `${component} ${id(d)}`).toMatch(new RegExp(`^agentplat/charts/${component}/templates/[a-z-/]+\\.yaml$`));
    }
  });
});

// Each case: the values that turn the sub-chart on (when it is off by default) and the key that turns it off.
const CASES: { component: string; on: Values; off: Values; revisions: Revision[] }[] = [
  { component: 'authproxy', on: { authproxy: AUTHPROXY_INLINE }, off: { authproxy: { enabled: false } }, revisions: ['A', 'B'] },
  { component: 'mcpop', on: {}, off: { mcpop: { enabled: false } }, revisions: ['A', 'B'] },
  { component: 'agentplat-tools', on: {}, off: { 'agentplat-tools': { enabled: false } }, revisions: ['A', 'B'] },
  { component: 'dashboards-mcp', on: {}, off: { 'dashboards-mcp': { enabled: false } }, revisions: ['A', 'B'] },
  { component: 'substrate', on: { substrate: { enabled: true } }, off: { substrate: { enabled: false } }, revisions: ['A', 'B'] },
  ...BUNDLED_AREAS.map((a) => ({ component: `${a}-agent`, on: {}, off: { [`${a}-agent`]: { enabled: false } }, revisions: ['A'] as Revision[] })),
];

describe('enabled: false removes exactly the sub-chart objects', () => {
  for (const c of CASES) {
    for (const rev of c.revisions) {
      it(`${c.component}.enabled false (revision ${rev}) removes only ${c.component} objects`, () => {
        const on = renderByComponent(ctxFor(rev, c.on));
        const off = renderByComponent(ctxFor(rev, { ...c.on, ...c.off }));
        expect(on.get(c.component)!.length).toBeGreaterThan(0);
        expect(off.get(c.component)).toEqual([]);
        // every other component keeps the same objects (names, kinds, namespaces); references to
        // the removed sub-chart may disappear from their content (agents drop tools they cannot reach).
        for (const [other, docs] of on) {
          if (other === c.component) continue;
          expect(off.get(other)!.map(id), other).toEqual(docs.map(id));
        }
      });
    }
  }
});
