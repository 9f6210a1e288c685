// Issue 35: every value the user sets either changes what is rendered or lint says so, at the line
// that sets it, with the reason (values/no-effect, a warning; values/same-as-default, a note).
// The verdicts are held to the definition, a render without the key, keeping the rest: on the
// issue's examples, on generated values of both revisions, and on a file of 150 keys of revision B.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkModelConfig } from '../helpers/load-crd-check.ts';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInProcess } from '../cli/in-process.ts';
import { breathing } from '../helpers/breathe.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { fcParams, seedTitle } from '../hardening/_seed.ts';
import { lintRelease } from '../../src/pipeline/render.ts';
import { judgeUserKeys, readTree, userLeaves, valuesChangeEffect, type Verdict } from '../../src/pipeline/no-effect.ts';
import { renderChart, renderChartWithReads, renderSomeParts, type ChartRenderOptions, type PartMade } from '../../src/render/render.ts';
import { toYaml } from '../../src/render/manifests.ts';
import { orderDocs } from '../../src/render/order.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { layerRelease } from '../../src/values/replace.ts';
import { dataSource, type PathSegment } from '../../src/values/source.ts';
import { getPath, isPlainMap, joinPath, splitPath, type Values } from '../../src/values/merge.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { OPTIONS, rendered, withoutLeaf } from './_effects.ts';

interface JsonProblem {
  rule: string;
  path: string;
  severity: string;
  message: string;
  line?: number;
  column?: number;
}

async function lint(values: string, ...flags: string[]): Promise<{ code: number; problems: JsonProblem[] }> {
  const r = await runInProcess(['lint', '-f', '-', '--format', 'json', ...flags], { stdin: values });
  const problems = (JSON.parse(r.stdout) as { files: { problems: JsonProblem[] }[] }).files.flatMap((f) => f.problems);
  return { code: r.code, problems };
}

const inert = (problems: JsonProblem[]) => problems.filter((p) => p.rule === 'values/no-effect' || p.rule === 'values/same-as-default');

describe('lint names each key that changes nothing rendered, with the reason', () => {
  it('an authproxy key while authproxy.enabled is false: a warning at its line naming the switch', async () => {
    const { code, problems } = await lint('authproxy:\n  config:\n    emailDomains: [example.com]\n    cookieName: _mine\n');
    expect(inert(problems).map((p) => [p.rule, p.path, p.severity, p.line, p.column])).toEqual([
      ['values/no-effect', 'authproxy.config.emailDomains', 'warning', 3, 5],
      ['values/no-effect', 'authproxy.config.cookieName', 'warning', 4, 5],
    ]);
    expect(inert(problems)[0]!.message).toContain('`authproxy.enabled` is false');
    expect(code).toBe(0);
  });

  it('a ui.httpRoute key while the route is off names ui.httpRoute.enabled', async () => {
    const { problems } = await lint('ui:\n  httpRoute:\n    hostnames: [agents.example.com]\n');
    expect(inert(problems).map((p) => [p.rule, p.path])).toEqual([['values/no-effect', 'ui.httpRoute.hostnames']]);
    expect(inert(problems)[0]!.message).toContain('`ui.httpRoute.enabled` is false');
  });

  it('a key of a provider block that is not the default names providers.default', async () => {
    const { problems } = await lint('providers:\n  providerA:\n    model: my-model\n');
    expect(inert(problems).map((p) => [p.rule, p.path])).toEqual([['values/no-effect', 'providers.providerA.model']]);
    expect(inert(problems)[0]!.message).toContain('`providers.default` is providerB');
  });

  it('an apiKey of a block that is not the default is reported once, by the rule that knows why', async () => {
    const { problems } = await lint('providers:\n  default: providerA\n  providerB:\n    apiKey: sk-not-used\n');
    expect(problems.filter((p) => p.path === 'providers.providerB.apiKey').map((p) => p.rule)).toEqual(['values/provider-api-key-unused']);
  });

  it('a key set to its default is a note, and a key that changes the output is not reported', async () => {
    const { problems } = await lint('controller:\n  replicas: 1\nui:\n  replicas: 3\n');
    expect(inert(problems).map((p) => [p.rule, p.path, p.severity])).toEqual([['values/same-as-default', 'controller.replicas', 'info']]);
  });

  it('a quantity written another way than the default (cpu 2000m for 2) renders as the API server stores it, the same: no effect; an env var with an empty value still renders', async () => {
    const { problems } = await lint('controller:\n  resources:\n    limits:\n      cpu: 2000m\n  env:\n    - name: X\n      value: ""\n');
    expect(inert(problems).map((p) => [p.rule, p.path, p.line])).toEqual([['values/no-effect', 'controller.resources.limits.cpu', 4]]);
  });

  it('warnings fail the run only with --strict; --no-effects and --rule values/no-effect=off turn it off', async () => {
    const file = 'ui:\n  httpRoute:\n    hostnames: [agents.example.com]\n';
    expect((await lint(file, '--strict')).code).toBe(1);
    expect(inert((await lint(file, '--no-effects')).problems)).toEqual([]);
    expect(inert((await lint(file, '--rule', 'values/no-effect=off')).problems)).toEqual([]);
  });

  it('a key ignoreKeys names in .agentplat.yaml is not reported', async () => {
    const cwd = tempDir('agentplat-no-effect-');
    writeFileSync(join(cwd, '.agentplat.yaml'), "ignoreKeys: ['ui.httpRoute.*']\n");
    const r = await runInProcess(['lint', '-f', '-', '--format', 'json'], { cwd, stdin: 'ui:\n  httpRoute:\n    hostnames: [agents.example.com]\n' });
    expect(inert((JSON.parse(r.stdout) as { files: { problems: JsonProblem[] }[] }).files.flatMap((f) => f.problems))).toEqual([]);
  });
});

// ------------------------------------------------------------------------------------------
// Held to a render without the key


/** The leaves of a revision's defaults a test may set to another value. */
function defaultLeaves(revision: Revision): PathSegment[][] {
  return userLeaves([defaultsSource(revision)]).filter((p) => {
    const v = getPath(defaultsSource(revision).data, p);
    return typeof v === 'boolean' || typeof v === 'number' || typeof v === 'string' || (Array.isArray(v) && v.length > 0);
  });
}

/** Another value than the default: a flipped switch, the next number, a word of its own (names stay apart), an emptied list. */
function otherValue(v: unknown, path: readonly PathSegment[]): unknown {
  if (typeof v === 'boolean') return !v;
  if (typeof v === 'number') return Number.isInteger(v) ? v + 1 : v * 2;
  if (typeof v === 'string') {
    if (/^\d+$/.test(v)) return `${Number(v) + 1}`;
    let h = 7;
    for (const c of joinPath(path)) h = (h * 31 + c.charCodeAt(0)) % 1_000_003;
    return `${v}${v ? '-' : ''}k${h.toString(36)}`;
  }
  return [];
}

function setIn(tree: Values, path: readonly PathSegment[], value: unknown): void {
  let cur = tree;
  for (const seg of path.slice(0, -1)) {
    const key = String(seg);
    if (!isPlainMap(cur[key])) cur[key] = {};
    cur = cur[key] as Values;
  }
  cur[String(path[path.length - 1])] = value;
}

function valuesSetting(revision: Revision, paths: readonly PathSegment[][]): Values {
  const data: Values = {};
  for (const p of paths) setIn(data, p, otherValue(getPath(defaultsSource(revision).data, p), p));
  return data;
}

/** Lint's verdict on each key of `data`, or undefined when lint finds an error (nothing renders). */
function verdicts(revision: Revision, data: Values): { path: PathSegment[]; verdict: Verdict }[] | undefined {
  const layers = [dataSource('values.yaml', data)];
  const { problems, layered } = lintRelease({ revision, layers, namespace: 'default', releaseName: 'agentplat', apiVersions: [], checkModelConfig });
  if (problems.some((p) => p.severity === 'error')) return undefined;
  let render;
  try {
    render = renderChartWithReads(layered.values, OPTIONS(revision));
  } catch {
    return undefined;
  }
  return judgeUserKeys({ revision, layers, layered, render, options: OPTIONS(revision), reported: [] });
}

/** Each verdict against a render without the key: a key reported renders alike without it, any other does not. */
function checkAgainstRenders(revision: Revision, data: Values): { inert: string[] } | undefined {
  const judged = verdicts(revision, data);
  if (!judged) return undefined;
  const full = rendered(revision, data);
  const inert: string[] = [];
  for (const { path, verdict } of judged) {
    const alike = rendered(revision, withoutLeaf(data, path)) === full;
    const key = joinPath(path);
    expect(alike, verdict.effect ? `${key}: lint says it has an effect` : `${key}: lint says it has no effect (${verdict.why})`).toBe(!verdict.effect);
    if (!verdict.effect) inert.push(key);
  }
  return { inert };
}

describe('the verdicts hold against a render without the key', () => {
  for (const revision of ['A', 'B'] as const) {
    it(`[${revision}] generated values: no key reported that changes the output, and every key reported renders alike without it ${seedTitle(350 + revision.charCodeAt(0), 12)}`, async () => {
      const leaves = defaultLeaves(revision);
      await fc.assert(
        fc.asyncProperty(
          fc.shuffledSubarray(leaves, { minLength: 1, maxLength: 8 }),
          breathing((paths: PathSegment[][]) => {
            checkAgainstRenders(revision, valuesSetting(revision, paths));
          }),
        ),
        fcParams(350 + revision.charCodeAt(0), 12),
      );
    });
  }

  it(`a render of some parts again, reusing the template runs of a first render, prints what a render from scratch prints ${seedTitle(360, 12)}`, async () => {
    for (const revision of ['A', 'B'] as const) {
      const leaves = defaultLeaves(revision);
      await fc.assert(
        fc.asyncProperty(
          fc.shuffledSubarray(leaves, { minLength: 2, maxLength: 8 }),
          breathing((paths: PathSegment[][]) => {
            const data = valuesSetting(revision, paths);
            const first = layerRelease(defaultsSource(revision), [dataSource('values.yaml', data)]).values;
            let recorded;
            try {
              recorded = renderChartWithReads(first, OPTIONS(revision));
            } catch {
              return;
            }
            // The values without one of the keys: most template runs are given the same data, some not.
            const again = layerRelease(defaultsSource(revision), [dataSource('values.yaml', withoutLeaf(data, paths[0]!))]).values;
            const ids = new Set(recorded.made.keys());
            // The objects as the render would print them: a part reached as a whole may come piece by
            // piece, in another order, with reuse (renderSomeParts).
            const text = (parts: Iterable<PartMade>) => toYaml(orderDocs([...parts].flatMap((p) => p.made.map((d) => p.printed(d)))));
            let scratch: string;
            try {
              scratch = text(renderSomeParts(again, OPTIONS(revision), ids));
            } catch {
              return;
            }
            expect(text(renderSomeParts(again, OPTIONS(revision), ids, recorded.reuse))).toEqual(scratch);
          }),
        ),
        fcParams(360, 12),
      );
    }
  });

  it(`diff and plan's keys without effect: of two generated values sets, each key named, put back alone to the old side's value, renders as the new side does, and each other key does not ${seedTitle(370, 12)}`, async () => {
    for (const revision of ['A', 'B'] as const) {
      const leaves = defaultLeaves(revision);
      await fc.assert(
        fc.asyncProperty(
          fc.shuffledSubarray(leaves, { minLength: 1, maxLength: 6 }),
          fc.shuffledSubarray(leaves, { minLength: 1, maxLength: 6 }),
          breathing((old: PathSegment[][], now: PathSegment[][]) => {
            const before = valuesSetting(revision, old);
            const after = valuesSetting(revision, now);
            const full = rendered(revision, after);
            if (full === undefined || rendered(revision, before) === undefined) return;
            const effect = valuesChangeEffect(revision, [dataSource('old.yaml', before)], [dataSource('new.yaml', after)], OPTIONS(revision), false)!;
            expect(effect).toBeDefined();
            const oldValues = layerRelease(defaultsSource(revision), [dataSource('old.yaml', before)]).values;
            const newValues = layerRelease(defaultsSource(revision), [dataSource('new.yaml', after)]).values;
            for (const key of effect.differing) {
              const path = splitPath(key);
              const back = structuredClone(newValues);
              const was = getPath(oldValues, path);
              let cur = back;
              for (const seg of path.slice(0, -1)) {
                if (!isPlainMap(cur[String(seg)])) cur[String(seg)] = {};
                cur = cur[String(seg)] as Values;
              }
              if (was === undefined) delete cur[String(path.at(-1))];
              else cur[String(path.at(-1))] = structuredClone(was);
              let out: string | undefined;
              try {
                out = toYaml(renderChart(back, OPTIONS(revision)));
              } catch {
                out = undefined;
              }
              expect(out === full, `${key}: ${effect.inert.includes(key) ? 'named as without effect' : 'not named'}`).toBe(effect.inert.includes(key));
            }
          }),
        ),
        fcParams(370, 12),
      );
    }
  });

  it('the read record is complete: every key whose change alters the output was read by the render', () => {
    for (const revision of ['A', 'B'] as const) {
      const defaults = layerRelease(defaultsSource(revision), []).values;
      const tree = (() => {
        const r = renderChartWithReads(defaults, OPTIONS(revision));
        const all = [...r.reads.values()].map(readTree);
        return { touches: (p: readonly PathSegment[]) => all.some((t) => t.touches(p)) };
      })();
      const base = rendered(revision, {});
      let changing = 0;
      for (const path of defaultLeaves(revision)) {
        const out = rendered(revision, valuesSetting(revision, [path]));
        if (out === undefined || out === base) continue;
        changing++;
        expect(tree.touches(path), `${joinPath(path)} changes the output of revision ${revision}`).toBe(true);
      }
      expect(changing).toBeGreaterThan(100);
    }
  });

  it('a file of 150 keys of revision B set to other values: a warning for exactly the keys a render shows inert', () => {
    const leaves = defaultLeaves('B');
    // Keys that lint alone, spread over the whole values tree.
    const chosen: PathSegment[][] = [];
    for (let k = 0; k < leaves.length && chosen.length < 170; k++) {
      const leaf = leaves[(k * 7919) % leaves.length]!;
      if (verdicts('B', valuesSetting('B', [leaf]))) chosen.push(leaf);
    }
    // Together some still refuse each other: leave out those an error names.
    let keys = chosen;
    for (;;) {
      const layers = [dataSource('values.yaml', valuesSetting('B', keys))];
      const errors = lintRelease({ revision: 'B', layers, namespace: 'default', releaseName: 'agentplat', apiVersions: [], checkModelConfig }).problems.filter((p) => p.severity === 'error');
      if (errors.length === 0) break;
      keys = keys.filter((k) => !errors.some((e) => joinPath(k).startsWith(e.path)));
      if (errors.every((e) => !chosen.some((k) => joinPath(k).startsWith(e.path)))) keys = keys.slice(1);
    }
    keys = keys.slice(0, 150);
    expect(keys.length).toBe(150);
    const result = checkAgainstRenders('B', valuesSetting('B', keys))!;
    expect(result).toBeDefined();
    expect(result.inert.length).toBeGreaterThan(0);
  });
});
