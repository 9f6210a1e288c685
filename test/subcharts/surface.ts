// Table-driven tests of a sub-chart's values surface (docs/values.md, "Sub-chart values"): for each key, a
// plausible non-default value is linted (accepted, no error) and the whole release is rendered
// without and with it; the objects and fields that differ must be exactly the ones the case names,
// and every rendered object must validate against its Kubernetes schema (unknown fields rejected).
import { expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { renderChart } from '../../src/render/render.ts';
import type { RenderedDoc } from '../../src/model/objects.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { mergeValues, type Values } from '../../src/values/merge.ts';
import { dataSource, parseValuesText } from '../../src/values/source.ts';
import type { Problem } from '../../src/problems/problem.ts';
import { registerChartSchemas } from '../helpers/chart-schemas.ts';
import { expectValidK8sObjects } from '../helpers/k8s-schema.ts';

registerChartSchemas();

export interface SurfaceCase {
  /** The key (or keys) the case sets, as docs/values.md names them. */
  key: string;
  set: Values;
  /**
   * What changes against the render without `set`: `Kind/name:path` prefixes of changed fields,
   * `+Kind/name` for an added object, `-Kind/name` for a removed one. Nothing else may change.
   */
  changes: string[];
  revisions?: readonly Revision[];
  apiVersions?: string[];
  /** Values the baseline render has too (a context the key needs to take effect). */
  base?: Values;
  /** Further checks of the render with `set` (the values the changed fields now hold). */
  check?: (after: readonly RenderedDoc[]) => void;
}

const RELEASE = { releaseName: 'agentplat', releaseNamespace: 'agentplat' };

export function renderWith(revision: Revision, overrides: Values, apiVersions: string[] = []): RenderedDoc[] {
  const values = mergeValues(defaultsSource(revision).data, overrides);
  return renderChart(values, { revision, ...RELEASE, apiVersions, skipCrds: true });
}

const idOf = (o: RenderedDoc['object']) => `${o.kind}/${o.metadata.name}${o.metadata.namespace && o.metadata.namespace !== 'agentplat' ? `@${o.metadata.namespace}` : ''}`;

/** Leaf paths of a JSON value: `a.b[0].c` → value. */
function flatten(v: unknown, prefix: string, out: Map<string, unknown>): void {
  if (Array.isArray(v)) {
    if (v.length === 0) out.set(prefix, '[]');
    v.forEach((x, i) => flatten(x, `${prefix}[${i}]`, out));
  } else if (v !== null && typeof v === 'object') {
    const entries = Object.entries(v);
    if (entries.length === 0) out.set(prefix, '{}');
    for (const [k, x] of entries) flatten(x, prefix ? `${prefix}.${k}` : k, out);
  } else out.set(prefix, v);
}

/** The differences between two renders, as `Kind/name:path`, `+Kind/name` and `-Kind/name`. */
export function differences(before: readonly RenderedDoc[], after: readonly RenderedDoc[]): string[] {
  const index = (docs: readonly RenderedDoc[]) => new Map(docs.map((d) => [idOf(d.object), d.object]));
  const a = index(before);
  const b = index(after);
  const out: string[] = [];
  for (const id of a.keys()) if (!b.has(id)) out.push(`-${id}`);
  for (const [id, obj] of b) {
    const old = a.get(id);
    if (!old) {
      out.push(`+${id}`);
      continue;
    }
    const fa = new Map<string, unknown>();
    const fb = new Map<string, unknown>();
    flatten(old, '', fa);
    flatten(obj, '', fb);
    for (const p of new Set([...fa.keys(), ...fb.keys()])) {
      if (JSON.stringify(fa.get(p)) !== JSON.stringify(fb.get(p))) out.push(`${id}:${p}`);
    }
  }
  return out.sort();
}

/** A difference is covered by an expected entry when it is that entry or a field under it. */
const covers = (expected: string, diff: string) =>
  diff === expected || diff.startsWith(`${expected}.`) || diff.startsWith(`${expected}[`);

/** One `it` per case and revision. */
export function surfaceCases(cases: readonly SurfaceCase[], defaultRevisions: readonly Revision[]): void {
  for (const c of cases) {
    for (const rev of c.revisions ?? defaultRevisions) {
      it(`[${rev}] ${c.key}: changes ${c.changes.join(', ')}`, () => {
        const withSet = mergeValues(c.base ?? {}, c.set);
        const problems = lintValues({ revision: rev, layers: [dataSource('values.yaml', withSet)], apiVersions: c.apiVersions ?? [] }).problems;
        expect(problems.filter((p) => p.severity === 'error'), 'the values are accepted').toEqual([]);
        const before = renderWith(rev, c.base ?? {}, c.apiVersions);
        const after = renderWith(rev, withSet, c.apiVersions);
        const diffs = differences(before, after);
        expect(diffs.filter((d) => !c.changes.some((e) => covers(e, d))), 'only the named fields change').toEqual([]);
        expect(c.changes.filter((e) => !diffs.some((d) => covers(e, d))), 'every named field changes').toEqual([]);
        expectValidK8sObjects(after.map((d) => d.object));
        c.check?.(after);
      });
    }
  }
}

/** The object of a render by kind and name (and namespace when not the release's). */
export function obj(docs: readonly RenderedDoc[], kind: string, name: string, namespace = 'agentplat'): Record<string, any> {
  const d = docs.find((x) => x.object.kind === kind && x.object.metadata.name === name && (x.object.metadata.namespace ?? 'agentplat') === namespace);
  if (!d) throw new Error(`no ${kind}/${name} in ${namespace}`);
  return d.object as Record<string, any>;
}

/** Lints a values file given as YAML text (positions included), as `agentplat lint -f values.yaml` does. */
export function lintText(revision: Revision, text: string, opts: { releaseNamespace?: string; apiVersions?: string[] } = {}): Problem[] {
  const parsed = parseValuesText(text, 'values.yaml');
  expect(parsed.problems).toEqual([]);
  return lintValues({ revision, layers: [parsed.source!], ...opts }).problems;
}

/** `rule file:line:column severity` of each problem, for compact assertions. */
export const where = (ps: readonly Problem[]) => ps.map((p) => `${p.rule} ${p.file}:${p.line}:${p.column} ${p.severity}`);
