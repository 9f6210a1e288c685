// values/no-effect keeps what a key cannot change (issue 35, sixth round): the proxy's shared part
// is made once for every key it did not read, reading each key's values later through stand-ins
// that switch at every depth; lint records only the reads related to the keys the user sets; and
// the parts and pieces quickest to tell apart are made first. Each verdict stays the render's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parse } from 'yaml';
import { defaultAt, judgeUserKeys, userLeaves } from '../../src/pipeline/no-effect.ts';
import { lintRelease } from '../../src/pipeline/render.ts';
import { renderChartWithReads, renderSomeParts } from '../../src/render/render.ts';
import { authproxyComponent } from '../../src/render/subcharts/authproxy.ts';
import { switchableValues } from '../../src/model/values-access.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { getPath, joinPath, splitPath, type Values } from '../../src/values/merge.ts';
import { layerRelease } from '../../src/values/replace.ts';
import { dataSource, type PathSegment } from '../../src/values/source.ts';
import { ROOT } from '../cli/binary.ts';
import { OPTIONS, rendered, withoutLeaf } from './_effects.ts';

const PROXY = parse(readFileSync(join(ROOT, 'fixtures', 'subcharts', 'authproxy-production.values.yaml'), 'utf8')) as Values;

afterEach(() => {
  vi.restoreAllMocks();
});

/** The release's values of `data` (one values file) and its lint, which must pass. */
function release(revision: Revision, data: Values) {
  const layers = [dataSource('values.yaml', data)];
  const { problems, layered } = lintRelease({ revision, layers, namespace: 'default', releaseName: 'agentplat', apiVersions: [] });
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return { layers, layered };
}

describe('values switched under something built once over them', () => {
  it('a map kept while it was built reads, two levels down, the values set later, not those it was built with', () => {
    const sw = switchableValues({ authproxy: { config: { cookieName: 'a' } } });
    const kept = sw.keeping(() => (sw.view.authproxy as Values).config as Values);
    expect(kept.cookieName).toBe('a');
    sw.set({ authproxy: { config: {} } });
    expect(kept.cookieName).toBeUndefined();
    expect(Object.keys(kept)).toEqual([]);
    sw.set({ authproxy: { config: { cookieName: 'b' } } });
    expect(kept.cookieName).toBe('b');
  });

  it('a map read outside `keeping` is the map itself (what reads it is done with it before the next switch)', () => {
    const config = { cookieName: 'a' };
    const sw = switchableValues({ authproxy: { config } });
    expect((sw.view.authproxy as Values).config).toBe(config);
  });

  it('a kept map the values switched to no longer have is refused, not read as empty', () => {
    const sw = switchableValues({ authproxy: { config: { cookieName: 'a' } } });
    const kept = sw.keeping(() => (sw.view.authproxy as Values).config as Values);
    sw.set({ authproxy: {} });
    expect(() => kept.cookieName).toThrow(/authproxy\.config/);
  });
});

describe("the proxy's shared part is made once for the keys it did not read", () => {
  it("two keys only the proxy's Deployment reads make the shared part once between them, and each verdict is the render's without it", () => {
    const { layers, layered } = release('B', PROXY);
    const render = renderChartWithReads(layered.values, OPTIONS('B'));
    const made = vi.spyOn(authproxyComponent, 'pieces');
    const keys = [splitPath('authproxy.config.cookieName'), splitPath('authproxy.priorityClassName')];
    const verdicts = judgeUserKeys({ revision: 'B', layers, layered, render, options: OPTIONS('B'), reported: [] }, keys);
    expect(made).toHaveBeenCalledTimes(1);
    const full = rendered('B', PROXY);
    for (const { path, verdict } of verdicts) expect(rendered('B', withoutLeaf(PROXY, path)) === full, joinPath(path)).toBe(!verdict.effect);
    expect(verdicts.map((v) => v.verdict.effect)).toEqual([true, true]);
  });
});

describe('lint records only the reads related to the keys the user sets', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] the record of the proxy's file holds no path beside the user's keys, and every verdict judged from it is the render's without the key`, () => {
      const { layers, layered } = release(revision, PROXY);
      const leaves = userLeaves(layers);
      const render = renderChartWithReads(layered.values, OPTIONS(revision), leaves);
      const related = (p: string) => {
        const segs = splitPath(p).map(String);
        return leaves.some((l) => segs.every((s, i) => i >= l.length || s === String(l[i])) || l.every((s, i) => i >= segs.length || String(s) === segs[i]));
      };
      const recorded = [...render.reads.values()].flatMap((r) => [...r.whole, ...r.entered, ...r.kept]);
      expect(recorded.length).toBeGreaterThan(0);
      expect(recorded.filter((p) => p !== '' && !related(p))).toEqual([]);
      const verdicts = judgeUserKeys({ revision, layers, layered, render, options: OPTIONS(revision), reported: [] });
      const full = rendered(revision, PROXY);
      for (const { path, verdict } of verdicts) expect(rendered(revision, withoutLeaf(PROXY, path)) === full, joinPath(path)).toBe(!verdict.effect);
    });
  }

  it('a key the record was not made for is judged on a render that records every read', () => {
    const { layers, layered } = release('B', PROXY);
    // Recorded for another key alone: nothing under the proxy's block is in the record.
    const render = renderChartWithReads(layered.values, OPTIONS('B'), [['ui', 'replicas']]);
    const [judged] = judgeUserKeys({ revision: 'B', layers, layered, render, options: OPTIONS('B'), reported: [] }, [splitPath('authproxy.image.registry')]);
    expect(judged!.verdict).toEqual({ effect: true });
  });
});

describe('the parts quickest to tell apart are made first', () => {
  const partsMade = (data: Values, key: string) => {
    const { layered } = release('B', data);
    const render = renderChartWithReads(layered.values, OPTIONS('B'));
    const path = splitPath(key);
    const owners = new Set([...render.reads].filter(([, r]) => [...r.whole, ...r.entered, ...r.kept].some((p) => p === key || p.startsWith(`${key}.`) || key.startsWith(`${p}.`))).map(([id]) => id));
    const without = layerRelease(defaultsSource('B'), [dataSource('values.yaml', withoutLeaf(data, path))]).values;
    return [...renderSomeParts(without, OPTIONS('B'), owners, render.reuse, !owners.has('context'))].map((p) => p.id);
  };

  it('a switch that turns a sub-chart and its CRDs on is told apart by the CRDs, before any object of the sub-chart is made', () => {
    expect(partsMade(PROXY, 'mcpop.enabled')[0]).toBe('crds');
  });

  it("a key the proxy's shared part and its Deployment both read makes the Deployment first of the pieces", () => {
    const made = partsMade(PROXY, 'authproxy.sessionStorage.redis.existingSecret');
    expect(made[0]).toBe('authproxy#deployment.yaml');
  });

  it("switching the proxy off is told apart by its pieces gone, before the other part that read the switch renders", () => {
    expect(partsMade(PROXY, 'authproxy.enabled')[0]).toMatch(/^authproxy#/);
  });
});

describe("what the defaults alone give at a key, without making the defaults' tree", () => {
  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] every path of the defaults, a path through a list and a path past a leaf: what the release of the defaults alone holds there`, () => {
      const defaults = defaultsSource(revision).data;
      const bare = layerRelease(defaultsSource(revision), []).values;
      const paths: PathSegment[][] = [];
      const walk = (v: unknown, at: PathSegment[]) => {
        paths.push(at);
        if (v !== null && typeof v === 'object') for (const k of Object.keys(v)) walk((v as Values)[k], [...at, k]);
      };
      walk(defaults, []);
      paths.push(['nothing', 'here'], ['controller', 'replicas', 'deeper']);
      expect(paths.some((p) => p.some((seg) => /^\d+$/.test(String(seg))))).toBe(true);
      for (const p of paths) expect(defaultAt(defaults, p), joinPath(p)).toEqual(getPath(bare, p));
    });
  }
});
