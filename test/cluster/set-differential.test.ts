// The --set family against a real helm (issue 27, item 4): the same -f files and flags go through
// helm (HELM_VERSION, built from its Go module by build-helm.sh) and through agentplat's loader and
// layering, and both must give the same values, or both refuse them. The chart helm renders is a
// tiny one whose values.yaml is agentplat's revision B defaults and whose only template prints
// `.Values` as JSON, so helm's coalescing of the defaults is compared too.
//
// Cases: the argument strings of helm's own strvals tests (data/helm-strvals-args.json, origin
// stated there), each alone and over a values file, and generated cases (fast-check, fixed seed)
// mixing files and every flag kind over lists, maps, nulls and the defaults. Where agentplat
// deliberately differs, the case must match one row of DIFFERENCES, the docs/values.md table "where
// agentplat's --set differs from helm's, and why"; any other difference fails the test.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { parse as parseYaml, parseAllDocuments } from 'yaml';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { runAsync } from '../helpers/run-async.ts';
import { loadUserLayers, type LayerOptions } from '../../src/values/load.ts';
import { layerValues, type Values } from '../../src/values/merge.ts';
import { defaultsSource } from '../../src/values/defaults.ts';
import { buildHelm } from './_cluster.ts';
import { HELM_VERSION } from './_versions.ts';

type Kind = 'set' | 'set-string' | 'set-json' | 'set-file' | 'set-literal';
interface Case {
  files: string[];
  flags: [Kind, string][];
}

/** agentplat's refusals (or acceptances) that helm does not share, each a row of the docs/values.md table. */
const DIFFERENCES: { row: string; agentplat: RegExp | 'accepts'; helm: RegExp | 'accepts' }[] = [
  { row: 'empty key segment', agentplat: /empty key|empty assignment|needs a key before it|empty key segment/, helm: 'accepts' },
  { row: 'a null or a value of another shape below a flag', agentplat: 'accepts', helm: /interface conversion|unable to parse key|failed parsing --set-json data/ },
  { row: 'text after a list\'s "}" or a JSON value', agentplat: /after "}"|after the JSON value/, helm: 'accepts' },
  { row: 'an empty argument', agentplat: /^empty argument$/, helm: 'accepts' },
  { row: 'a key without "=" after a list index', agentplat: /\[\d+\]" has no value/, helm: 'accepts' },
];

/**
 * Cases where both accept and helm's values differ for a helm bug, each a row of the docs/values.md table. The
 * row holds only if helm, given the case `fix`ed as the row says, gives agentplat's values.
 */
const VALUE_DIFFERENCES: { row: string; applies: (c: Case) => boolean; fix: (c: Case) => Case }[] = [
  {
    // strvals' key() reports the end of the argument as io.EOF after setting an empty value, and
    // listItem() then returns the list without the new item: helm drops a new list item whose
    // last key is empty (`l[0].a=`), but keeps it when anything follows (`l[0].a=,`) or the item exists.
    row: 'an empty value ending the argument inside a new list item',
    applies: (c) => c.flags.some(([kind, arg]) => endsInListItemEmpty(kind, arg)),
    fix: (c) => ({ ...c, flags: c.flags.map(([kind, arg]) => [kind, endsInListItemEmpty(kind, arg) ? `${arg},` : arg]) }),
  },
];

function endsInListItemEmpty(kind: Kind, arg: string): boolean {
  return (kind === 'set' || kind === 'set-string') && /\]\.[^=,]*=$/.test(arg);
}

let helm: string;
let dir: string;
let chart: string;

beforeAll(() => {
  helm = buildHelm(HELM_VERSION);
  dir = mkdtempSync(join(tmpdir(), 'agentplat-set-diff-'));
  chart = join(dir, 'chart');
  mkdirSync(join(chart, 'templates'), { recursive: true });
  writeFileSync(join(chart, 'Chart.yaml'), 'apiVersion: v2\nname: values\nversion: 0.1.0\n');
  // JSON is YAML, and quoting every key keeps helm's YAML 1.1 reader from turning `y` into true.
  writeFileSync(join(chart, 'values.yaml'), JSON.stringify(defaultsSource('B').data));
  writeFileSync(join(chart, 'templates', 'values.yaml'), 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: values\ndata:\n  values.json: {{ toJson .Values | quote }}\n');
  // Files --set-file cases read.
  writeFileSync(join(dir, 'f1.txt'), 'one\n');
  writeFileSync(join(dir, 'f,2.txt'), 'two');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLAG: Record<Kind, keyof LayerOptions> = { set: 'set', 'set-string': 'setString', 'set-json': 'setJson', 'set-file': 'setFile', 'set-literal': 'setLiteral' };

type Outcome = { ok: true; values: unknown } | { ok: false; error: string };

const run = runAsync;

async function runHelm(c: Case): Promise<Outcome> {
  const args = ['template', 'r', chart];
  c.files.forEach((text, i) => {
    writeFileSync(join(dir, `v${i}.yaml`), text);
    args.push('-f', `v${i}.yaml`);
  });
  for (const [kind, arg] of c.flags) args.push(`--${kind}`, arg);
  const r = await run(helm, args, { cwd: dir, env: { PATH: process.env.PATH ?? '', HOME: dir } });
  if (r.status !== 0) return { ok: false, error: r.stderr };
  const doc = parseAllDocuments(r.stdout).map((d) => d.toJS()).find((d) => d?.kind === 'ConfigMap');
  // Integers as BigInt, so that helm's int64 values are compared exactly.
  return { ok: true, values: normalize(parseYaml(doc.data['values.json'], { intAsBigInt: true })) };
}

async function runAgentplat(c: Case): Promise<Outcome> {
  const opts: LayerOptions = { values: c.files.map((text, i) => {
    writeFileSync(join(dir, `v${i}.yaml`), text);
    return `v${i}.yaml`;
  }) };
  for (const [kind, arg] of c.flags) ((opts[FLAG[kind]] as string[] | undefined) ??= []).push(arg);
  try {
    const { sources, problems } = await loadUserLayers(opts, { cwd: dir, readStdin: async () => '' });
    if (problems.length > 0) return { ok: false, error: problems.map((p) => p.message).join('; ') };
    return { ok: true, values: normalize(layerValues([defaultsSource('B'), ...sources]).values) };
  } catch (err) {
    return { ok: false, error: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * Whole numbers as BigInt on both sides (Go prints a float64 that holds a whole number without a
 * fraction). A float64 is taken by the digits it prints, as Go and JavaScript both print the
 * shortest text that reads back (2^63 as 9223372036854776000), up to 1e21 where both switch to
 * an exponent.
 */
function normalize(v: unknown): unknown {
  if (typeof v === 'number' && Number.isInteger(v)) return Math.abs(v) < 1e21 ? BigInt(String(v)) : BigInt(v);
  if (Array.isArray(v)) return v.map(normalize);
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, normalize(x)]));
  return v;
}

/** Why the two outcomes may differ (a DIFFERENCES row), or undefined when they must not. */
function explained(a: Outcome, h: Outcome): string | undefined {
  for (const d of DIFFERENCES) {
    const aFits = d.agentplat === 'accepts' ? a.ok : !a.ok && d.agentplat.test(a.error);
    const hFits = d.helm === 'accepts' ? h.ok : !h.ok && d.helm.test(h.error);
    if (aFits && hFits) return d.row;
  }
  return undefined;
}

const tally = { same: 0, bothRefuse: 0, documented: new Map<string, number>() };
let mismatches: string[] = [];

/** Paths where two trees differ, with both values (at most a few). */
function differences(a: unknown, h: unknown, path = '', out: string[] = []): string[] {
  if (out.length >= 4) return out;
  const show = (v: unknown) => JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `${x}n` : x));
  const isMap = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
  if (isMap(a) && isMap(h)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(h)])) differences(a[k], h[k], `${path}.${k}`, out);
  } else if (Array.isArray(a) && Array.isArray(h) && a.length === h.length) {
    a.forEach((x, i) => differences(x, h[i], `${path}[${i}]`, out));
  } else if (show(a) !== show(h)) {
    out.push(`${path || '.'}: agentplat ${show(a)}, helm ${show(h)}`);
  }
  return out;
}

async function compare(c: Case): Promise<void> {
  const [a, h] = [await runAgentplat(c), await runHelm(c)];
  const name = JSON.stringify(c);
  if (a.ok && h.ok) {
    const diff = differences(a.values, h.values);
    const row = diff.length > 0 ? VALUE_DIFFERENCES.find((d) => d.applies(c)) : undefined;
    const fixed = row ? await runHelm(row.fix(c)) : undefined;
    if (row && fixed?.ok && differences(a.values, fixed.values).length === 0) tally.documented.set(row.row, (tally.documented.get(row.row) ?? 0) + 1);
    else if (diff.length > 0) mismatches.push(`${name}: ${diff.join('; ')}`);
    else tally.same++;
  } else if (!a.ok && !h.ok) {
    tally.bothRefuse++;
  } else {
    const row = explained(a, h);
    if (row) tally.documented.set(row, (tally.documented.get(row) ?? 0) + 1);
    else mismatches.push(`${name}: agentplat ${a.ok ? 'accepts' : `refuses (${a.error})`}, helm ${h.ok ? 'accepts' : `refuses (${h.error.trim().split('\n')[0]})`}`);
  }
}

function expectNoMismatch(): void {
  const found = mismatches;
  mismatches = [];
  expect(found, `${found.length} cases differ:\n${found.join('\n')}`).toEqual([]);
}

const helmCases = (JSON.parse(readFileSync(join(import.meta.dirname, 'data', 'helm-strvals-args.json'), 'utf8')) as { cases: { kind: Kind; arg: string }[] }).cases;
const BASE_FILE = 'outer:\n  inner1: overwrite\n  inner2: value2\nlist: [a, b]\n';

describe(`--set family: agentplat and helm ${HELM_VERSION} give the same values`, () => {
  test("helm's own strvals arguments, alone and over a values file", async () => {
    for (const { kind, arg } of helmCases) {
      await compare({ files: [], flags: [[kind, arg]] });
      await compare({ files: [BASE_FILE], flags: [[kind, arg]] });
    }
    expectNoMismatch();
  });

  test('integers past 2^53 and at the int64 bounds: exact from --set, float64 from a file or --set-json', async () => {
    const ints = ['9007199254740992', '9007199254740993', '-9007199254740993', '9223372036854775807', '-9223372036854775808', '9223372036854775808', '-9223372036854775809', '+9007199254740993'];
    for (const n of ints) {
      for (const kind of ['set', 'set-string', 'set-literal', 'set-json'] as Kind[]) {
        await compare({ files: [], flags: [[kind, `m.a=${n}`]] });
        await compare({ files: [], flags: [[kind, `l={1,${n}}`]] });
        await compare({ files: ['m:\n  a: 1\n  b: 2\n'], flags: [[kind, `m.a=${n}`]] });
      }
      await compare({ files: ['l: [0, 1]\n'], flags: [['set', `l[1]=${n}`]] });
    }
    // A file's integers are float64 in helm and numbers here.
    for (const n of ['9007199254740993', '-9007199254740993', '12345678901234567', '9223372036854775807', '-9223372036854775808']) {
      await compare({ files: [`m:\n  a: ${n}\n`], flags: [] as [Kind, string][] });
      await compare({ files: [`m:\n  a: ${n}\n`], flags: [['set', 'm.b=1']] });
    }
    expectNoMismatch();
  });

  test('an empty value ending the argument inside a new list item: agentplat keeps the item, as helm does when anything follows it (a helm bug, a row of docs/values.md)', async () => {
    const files = ['controller: null\n', 'controller:\n  replicas: 3\n  nodeSelector:\n    zone: a\n', 'controller:\n  nodeSelector: null\n'];
    const before = tally.documented.get(VALUE_DIFFERENCES[0]!.row) ?? 0;
    await compare({ files, flags: [['set', 'controller.tolerations[0].effect=']] });
    await compare({ files: [], flags: [['set', 'controller.tolerations[0].effect=']] });
    await compare({ files: [], flags: [['set-string', 'm[1].a.b=']] });
    await compare({ files: ['l: [{x: 1}]\n'], flags: [['set', 'l[1].a=']] });
    expectNoMismatch();
    expect(tally.documented.get(VALUE_DIFFERENCES[0]!.row)! - before).toBe(4);
    // An item that exists already gets the empty value in helm too: no difference.
    await compare({ files: ['l: [{x: 1}]\n'], flags: [['set', 'l[0].a=']] });
    expectNoMismatch();
    const { sources } = await loadUserLayers({ set: ['controller.tolerations[0].effect='] }, { cwd: dir, readStdin: async () => '' });
    expect((layerValues(sources).values.controller as Values).tolerations).toEqual([{ effect: '' }]);
  });

  test('generated files and flags over lists, maps, nulls and the defaults', async () => {
    const keys = ['l', 'l[0]', 'l[2]', 'l[0].a', 'm', 'm.a', 'm.b.c', 'q', 'controller.replicas', 'controller.tolerations[0].effect', 'controller.nodeSelector', 'a\\.b', 'x[00001]', 'x[-0]', 'x[+1]', 'k,j', 'p\\,q'];
    const plain = ['1', '-5', '007', '0', 'true', 'NULL', 'null', '', '{}', '{a,b}', '{1,}', '9007199254740993', '9223372036854775808', '1.5', 'x\\,y', 'x\\', 'a b', '~'];
    const json = ['{}', '[]', '1', '"s"', 'null', '', '{"k":[1,{"z":null}]}', '1e400', '1.0', '[1,2,3]', '{"a":null}'];
    const files = [
      'l: [0, 1]\n',
      'm:\n  a: 1\n  b:\n    c: 2\n',
      'm: null\n',
      'controller:\n  tolerations:\n    - key: gpu\n      operator: Exists\n      effect: NoExecute\n',
      'controller: null\n',
      'controller:\n  replicas: 3\n  nodeSelector:\n    zone: a\n',
      'q: [x, {a: 1}]\nl: {a: 1}\n',
      'controller:\n  nodeSelector: null\n',
    ];
    const flag = fc.oneof(
      fc.tuple(fc.constantFrom<Kind>('set', 'set-string', 'set-literal'), fc.constantFrom(...keys), fc.constantFrom(...plain)).map(([k, key, v]) => [k, `${key}=${v}`] as [Kind, string]),
      fc.tuple(fc.constant<Kind>('set-json'), fc.constantFrom(...keys), fc.constantFrom(...json)).map(([k, key, v]) => [k, `${key}=${v}`] as [Kind, string]),
      fc.tuple(fc.constant<Kind>('set-file'), fc.constantFrom(...keys), fc.constantFrom('f1.txt', 'f\\,2.txt', '{f1.txt,f\\,2.txt}')).map(([k, key, v]) => [k, `${key}=${v}`] as [Kind, string]),
      // Two assignments in one argument.
      fc.tuple(fc.constantFrom<Kind>('set', 'set-file'), fc.constantFrom(...keys), fc.constantFrom(...keys)).map(([k, a, b]) => [k, k === 'set-file' ? `${a}=f1.txt,${b}=f\\,2.txt` : `${a}=1,${b}=2`] as [Kind, string]),
    );
    const cases = fc.sample(fc.record({ files: fc.array(fc.constantFrom(...files), { maxLength: 3 }), flags: fc.array(flag, { minLength: 1, maxLength: 4 }) }), { numRuns: 600, seed: 27 });
    for (const c of cases) await compare(c);
    expectNoMismatch();
    console.log(`set-differential: ${tally.same} equal, ${tally.bothRefuse} refused by both, documented differences: ${JSON.stringify(Object.fromEntries(tally.documented))}`);
  });
});
