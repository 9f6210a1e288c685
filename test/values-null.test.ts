// A null removes a key (docs/values.md, "Layering"): on every key of each revision's values model, the main
// chart's and every sub-chart's alike, a user's null gives the values the chart renders with that
// key removed: a key with a default loses it, a key the defaults leave unset (a sub-chart's
// `fullnameOverride`, an optional key) stays unset, so it renders as if never written.
import { describe, expect, test } from 'vitest';
import { isDeepStrictEqual } from 'node:util';
import { lint, render } from '../src/api.ts';
import { REVISION_IDS, type Revision } from '../src/chart/revisions.ts';
import { walkKeys } from '../src/chart/values-model.ts';
import { defaultsData } from '../src/values/defaults-data.ts';
import { defaultsSource } from '../src/values/defaults.ts';
import { layerRelease } from '../src/values/replace.ts';
import { loadUserLayers } from '../src/values/load.ts';
import { getPath, isPlainMap, type Values } from '../src/values/merge.ts';
import { parseValuesText, type ValuesSource } from '../src/values/source.ts';

const noStdin = { cwd: '/', readStdin: async () => '' };

/** `{a: {b: value}}` for the path a.b. */
function nested(segs: readonly string[], value: unknown): Values {
  let out: unknown = value;
  for (let i = segs.length - 1; i >= 0; i--) out = { [segs[i]!]: out };
  return out as Values;
}

function fileLayer(data: Values): ValuesSource {
  const { source, problems } = parseValuesText(JSON.stringify(data), 'null.yaml');
  expect(problems).toEqual([]);
  return source!;
}

/**
 * `tree` with the key at `segs` removed, and the maps on the way to it kept or made empty: the
 * values a user's null at `segs` gives, since the file writes those maps.
 */
function removed(tree: Values, segs: readonly string[]): Values {
  const [head, ...rest] = segs as [string, ...string[]];
  const copy = { ...tree };
  if (rest.length === 0) delete copy[head];
  else copy[head] = removed(isPlainMap(copy[head]) ? copy[head] : {}, rest);
  return copy;
}

/** The values a release renders from (what lint checks and render renders). */
const valuesOf = (revision: Revision, layers: ValuesSource[]) => layerRelease(defaultsSource(revision), layers).values;
const SCHEMA_RULES = new Set(['values/schema', 'values/unknown-key']);

describe.each(REVISION_IDS)('revision %s: null on a key removes the key', (revision) => {
  const keys = walkKeys(revision).map((k) => k.path.split('.'));
  const defaults = defaultsData(revision);
  const plain = valuesOf(revision, []);

  test('every key, in a values file: the values are the defaults without that key', () => {
    const wrong = keys.filter((segs) => !isDeepStrictEqual(valuesOf(revision, [fileLayer(nested(segs, null))]), removed(plain, segs)));
    expect(wrong.map((s) => s.join('.'))).toEqual([]);
    // The walk covers the sub-charts' keys, and those the defaults leave unset.
    expect(keys.map((s) => s.join('.'))).toEqual(expect.arrayContaining(['agentplat-tools.fullnameOverride', 'mcpop.fullnameOverride', 'controller.replicas']));
  });

  test('every key, with --set key=null: the values are the defaults without that key', async () => {
    const wrong: string[] = [];
    for (const segs of keys) {
      const { sources, problems } = await loadUserLayers({ set: [`${segs.join('.')}=null`] }, noStdin);
      expect(problems).toEqual([]);
      if (!isDeepStrictEqual(valuesOf(revision, sources), removed(plain, segs))) wrong.push(segs.join('.'));
    }
    expect(wrong).toEqual([]);
  });

  test('every key set to null: lint finds the null itself right (no schema error names any key)', async () => {
    // A null is checked where it is written, so the keys are linted together: every leaf in one
    // file, and the groups of each depth in one file each (a file holds a group or its keys).
    const depth = Math.max(...keys.map((s) => s.length));
    const groups = new Set(keys.map((s) => s.slice(0, -1).join('.')));
    const batches = [keys.filter((s) => !groups.has(s.join('.')))];
    for (let d = 1; d <= depth; d++) batches.push(keys.filter((s) => s.length === d && groups.has(s.join('.'))));
    expect(batches.flat().length).toBe(keys.length);
    const refused: string[] = [];
    for (const batch of batches) {
      const data = batch.reduce<Values>((acc, segs) => mergeInto(acc, nested(segs, null)), {});
      const linted = await lint({ revision, values: { name: 'null.yaml', values: data } });
      for (const p of linted.problems) if (SCHEMA_RULES.has(p.rule)) refused.push(`${p.path}: ${p.message}`);
    }
    expect(refused).toEqual([]);
  });

  test('a null on every key the defaults leave unset, in a file or with --set: lint finds no error and the release renders as the defaults do', async () => {
    const base = await render({ revision });
    expect(base.ok).toBe(true);
    const unset = keys.filter((segs) => getPath(defaults, segs) === undefined);
    // Each key at the top of what the defaults leave unset, and each one below: a file can write
    // null on one of the two only.
    const tops = unset.filter((segs) => segs.length === 1 || getPath(defaults, segs.slice(0, -1)) !== undefined);
    const below = unset.filter((segs) => !tops.includes(segs) && !unset.some((other) => other.length > segs.length && other.slice(0, segs.length).join('.') === segs.join('.')));
    expect(tops.map((s) => s.join('.'))).toContain('agentplat-tools.fullnameOverride');
    expect(below.map((s) => s.join('.'))).toContain('agentplat-tools.image.tag');
    for (const group of [tops, below]) {
      const file = { name: 'null.yaml', values: group.reduce<Values>((acc, segs) => mergeInto(acc, nested(segs, null)), {}) };
      const set = group.map((segs) => `${segs.join('.')}=null`);
      for (const input of [{ values: file }, { set }]) {
        const linted = await lint({ revision, ...input });
        expect(linted.problems.filter((p) => p.severity === 'error')).toEqual([]);
        const r = await render({ revision, ...input });
        expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
        expect(r.yaml).toBe(base.yaml);
      }
    }
  });
});

test("the issue's case: agentplat-tools.fullnameOverride: null is accepted and names the objects as if unset", async () => {
  const base = await render({});
  for (const input of [{ values: { name: 'v.yaml', text: 'agentplat-tools:\n  fullnameOverride: null\n' } }, { set: 'agentplat-tools.fullnameOverride=null' }]) {
    const linted = await lint(input);
    expect(linted.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect((await render(input)).yaml).toBe(base.yaml);
  }
});

test('a probe whose value replaces the default (controller.readinessProbe) set to null renders the default probe, as every removed key does', async () => {
  const base = await render({});
  const input = { values: { name: 'v.yaml', text: 'controller:\n  readinessProbe: null\n' } };
  expect((await lint(input)).problems.filter((p) => p.severity === 'error')).toEqual([]);
  expect((await render(input)).yaml).toBe(base.yaml);
});

function mergeInto(a: Values, b: Values): Values {
  const out = { ...a };
  for (const [k, v] of Object.entries(b)) out[k] = isPlainMap(v) && isPlainMap(out[k]) ? mergeInto(out[k], v) : v;
  return out;
}
