// What each row of the values extraction (test/data/spec/values-rows.json) pins, checked through
// what agentplat does with values, one test per behaviour and revision, the rows its table:
// - a key of the revision accepts nothing of the wrong type: `lint` reports an error at the row's
//   path (leaf rows are set wrong all at once, a row with rows under it on its own), except the
//   keys that take any value on purpose (ACCEPTS_ANY);
// - a key of the other revision only is refused as unknown (or, for the one key a revision keeps
//   as optional, has no default there);
// - a documented default is the default the package ships (values/revision-*.yaml) and the one its
//   schema announces to editors; a row without a literal still has a shipped default.
// A failure lists every row that breaks the behaviour, not the first one.

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { lint } from '../src/api.ts';
import type { Problem } from '../src/problems/problem.ts';
import { REVISION_IDS, REVISIONS, type Revision } from '../src/chart/revisions.ts';
import { VALUES_ROWS as rows, VALUES_RULES, type ValuesRow } from './data/spec.ts';

const root = join(import.meta.dirname, '..');

type SchemaNode = { properties?: Record<string, SchemaNode>; default?: unknown };
const schemas = Object.fromEntries(
  REVISION_IDS.map((r) => [r, JSON.parse(readFileSync(join(root, 'schemas', `values-${r.toLowerCase()}.schema.json`), 'utf8')) as SchemaNode]),
) as Record<Revision, SchemaNode>;
const defaults = Object.fromEntries(
  REVISION_IDS.map((r) => [r, parse(readFileSync(join(root, 'values', `revision-${r.toLowerCase()}.yaml`), 'utf8')) as unknown]),
) as Record<Revision, unknown>;

/** The schema node declared for a dotted path, following `properties` only (declared keys). */
function schemaNode(rev: Revision, path: string): SchemaNode | undefined {
  let node: SchemaNode | undefined = schemas[rev];
  for (const seg of path.split('.')) node = node?.properties && Object.hasOwn(node.properties, seg) ? node.properties[seg] : undefined;
  return node;
}

/** [present, value] of a dotted path in a revision's shipped defaults file. */
function defaultAt(rev: Revision, path: string): [boolean, unknown] {
  let cur: unknown = defaults[rev];
  for (const seg of path.split('.')) {
    if (cur === null || typeof cur !== 'object' || Array.isArray(cur) || !Object.hasOwn(cur, seg)) return [false, undefined];
    cur = (cur as Record<string, unknown>)[seg];
  }
  return [true, cur];
}

/**
 * Keys a revision's schema knows although the row lists the other revision only, with the
 * reason. They stay out of that revision's defaults file.
 */
const SCHEMA_ONLY_IN_OTHER: Record<string, { rev: Revision; why: string }> = {
  'rbac.namespaces': { rev: 'B', why: 'B: optional; when present it overrides global.watchNamespaces (row notes)' },
};

/** Keys that take any value on purpose, with the reason (they are checked to keep doing so). */
const ACCEPTS_ANY: Record<string, string> = {
  'controller.streaming': 'deprecated since 0.10.0 and without effect: any value is accepted and ignored, with a warning (src/chart/values-model.ts)',
};

const typeOf = (row: ValuesRow, rev: Revision): string => row.typeByRevision?.[rev] ?? row.type;

/** A value no key of the spec's type word accepts. */
const WRONG: Record<string, unknown> = {
  object: 'not-a-map',
  list: 'not-a-list',
  'object|list': 'neither-map-nor-list',
  string: { not: 'a string' },
  duration: { not: 'a duration' },
  quantity: { not: 'a quantity' },
  'int-or-string': true,
  int: 'not-a-number',
  bool: 'not-a-bool',
};

/** Values with `value` at each dotted path. */
function valuesWith(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, value] of entries) {
    const segs = path.split('.');
    let cur = out;
    for (const seg of segs.slice(0, -1)) cur = (cur[seg] ??= {}) as Record<string, unknown>;
    cur[segs.at(-1)!] = value;
  }
  return out;
}

/**
 * The errors lint reports for values with `value` at each path. The rows ask what the values
 * schema accepts, so `effects` (the values/no-effect and values/same-as-default notes, a render
 * without each key: warnings and notes, never an error) is off where a row is checked alone.
 */
async function errors(rev: Revision, entries: readonly (readonly [string, unknown])[], effects = true): Promise<Problem[]> {
  const result = await lint({ revision: rev, values: { name: 'rows.yaml', values: valuesWith(entries) }, effects });
  return result.problems.filter((p) => p.severity === 'error');
}

const rowsOf = (rev: Revision) => rows.filter((r) => r.revisions.includes(rev));
/** A row with another row under it: setting it wrong would hide the rows below. */
const hasRowsUnder = (row: ValuesRow, rev: Revision) => rowsOf(rev).some((r) => r.path.startsWith(`${row.path}.`));

it('the extraction has all 389 rows, each with a type word this test knows a wrong value for', () => {
  expect(rows).toHaveLength(389);
  expect(rows.flatMap((r) => REVISION_IDS.map((rev) => typeOf(r, rev))).filter((t) => !(t in WRONG))).toEqual([]);
});

describe.each(REVISION_IDS)('revision %s: the rows of the values specification', (rev) => {
  it('every key of the revision refuses a value of the wrong type (lint: an error at the row path)', async () => {
    const checked = rowsOf(rev).filter((r) => !(r.path in ACCEPTS_ANY));
    const leaves = checked.filter((r) => !hasRowsUnder(r, rev));
    const refused = (found: Problem[], path: string) => found.some((p) => p.path === path);
    const all = await errors(
      rev,
      leaves.map((r) => [r.path, WRONG[typeOf(r, rev)]]),
    );
    const missed = leaves.filter((r) => !refused(all, r.path)).map((r) => `${r.path} (${typeOf(r, rev)})`);
    for (const r of checked.filter((x) => hasRowsUnder(x, rev))) {
      if (!refused(await errors(rev, [[r.path, WRONG[typeOf(r, rev)]]], false), r.path)) missed.push(`${r.path} (${typeOf(r, rev)})`);
    }
    expect(leaves.length).toBeGreaterThan(250);
    expect(missed).toEqual([]);
  });

  it('a key that takes any value on purpose (ACCEPTS_ANY) takes a value of another type without an error', async () => {
    const keys = Object.keys(ACCEPTS_ANY).filter((k) => rowsOf(rev).some((r) => r.path === k));
    expect(keys).not.toEqual([]);
    for (const key of keys) expect(await errors(rev, [[key, { any: ['value'] }]]), key).toEqual([]);
  });

  it('every key of the other revision only is refused as unknown, or is optional without a default (SCHEMA_ONLY_IN_OTHER)', async () => {
    const others = rows.filter((r) => !r.revisions.includes(rev));
    expect(others.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    for (const r of others) {
      if (defaultAt(rev, r.path)[0]) wrong.push(`${r.path}: in the shipped defaults`);
      if (SCHEMA_ONLY_IN_OTHER[r.path]?.rev === rev) {
        if (schemaNode(rev, r.path)?.default !== undefined) wrong.push(`${r.path}: has a schema default`);
        continue;
      }
      const found = await errors(rev, [[r.path, WRONG[typeOf(r, r.revisions[0]!)]]], false);
      const unknown = found.some((p) => p.rule === 'values/unknown-key' && (r.path === p.path || r.path.startsWith(`${p.path}.`)));
      if (!unknown) wrong.push(`${r.path}: not refused as an unknown key`);
    }
    expect(wrong).toEqual([]);
  });

  it('every documented default is the shipped default and the schema default; a row without a literal still ships one', () => {
    const wrong: string[] = [];
    for (const r of rowsOf(rev)) {
      const [present, value] = defaultAt(rev, r.path);
      if (!present) {
        wrong.push(`${r.path}: not in values/revision-${rev.toLowerCase()}.yaml`);
        continue;
      }
      if (!r.defaultKnown[rev]) continue;
      if (JSON.stringify(value) !== JSON.stringify(r.default[rev])) wrong.push(`${r.path}: ships ${JSON.stringify(value)}, the spec says ${JSON.stringify(r.default[rev])}`);
      const announced = schemaNode(rev, r.path)?.default;
      if (JSON.stringify(announced) !== JSON.stringify(r.default[rev])) wrong.push(`${r.path}: the schema announces ${JSON.stringify(announced)}, the spec says ${JSON.stringify(r.default[rev])}`);
    }
    expect(wrong).toEqual([]);
  });
});

// Section 9 lists the keys only one revision has (rules revision-a-only-keys / revision-b-only-keys
// of test/data/spec/values-rules.json): each listed key is accepted by its revision and refused
// as unknown by the other.
const ruleKeys = (id: string): string[] => {
  const rule = VALUES_RULES.find((r) => r.id === id);
  if (!rule) throw new Error(`no rule ${id} in values-rules.json`);
  return rule.keys;
};

async function expectOnlyIn(own: Revision, other: Revision, keys: readonly string[]): Promise<void> {
  expect(keys.length).toBeGreaterThan(10);
  const wrong: string[] = [];
  for (const key of keys) {
    if (!defaultAt(own, key)[0]) wrong.push(`${key}: not shipped in ${own}`);
    if ((await errors(own, [[key, defaultAt(own, key)[1]]], false)).some((p) => p.rule === 'values/unknown-key')) wrong.push(`${key}: unknown in ${own}`);
    if (defaultAt(other, key)[0]) wrong.push(`${key}: shipped in ${other}`);
    if (SCHEMA_ONLY_IN_OTHER[key]?.rev === other) continue;
    const found = await errors(other, [[key, defaultAt(own, key)[1]]], false);
    if (!found.some((p) => p.rule === 'values/unknown-key' && (key === p.path || key.startsWith(`${p.path}.`)))) wrong.push(`${key}: accepted by ${other}`);
  }
  expect(wrong).toEqual([]);
}

it('revision-a-only-keys: the bundled agents, a2aBaseUrl, agentDeployment, goAgentImage, skillsInitImage, toolRefreshInterval, detailed substrate keys, sessionRetentionDays, otel.logging/tracing, ui.volumes.nextjsCache and rbac.namespaces are revision A keys only', async () => {
  const keys = ruleKeys('revision-a-only-keys');
  for (const group of ['controller.a2aBaseUrl', 'controller.toolRefreshInterval', 'ui.volumes.nextjsCache', 'database.rdb.sessionRetentionDays', 'rbac.namespaces', 'otel.logging.enabled', 'otel.tracing.enabled', 'controller.goAgentImage.repository', 'controller.skillsInitImage.repository', 'controller.agentDeployment.host', 'query-language-agent.enabled']) {
    expect(keys, group).toContain(group);
  }
  await expectOnlyIn('A', 'B', keys);
});

it('revision-b-only-keys: global.*, a2aGatewayUrl, grpc.reflection, sandbox.*, session TTLs, serviceMonitor, serviceAccount, otel.exporter/logs/metrics/traces/resourceAttributes/capture, ui.basePath and providerH are revision B keys only; B pins dashboards-mcp 1.0.0-alpha8 and tools 0.3.0', async () => {
  const keys = ruleKeys('revision-b-only-keys');
  for (const group of ['global.imagePullPolicy', 'global.watchNamespaces', 'controller.a2aGatewayUrl', 'controller.grpc.reflection', 'controller.sandbox.cpu', 'controller.sessionIdleTTL', 'controller.sessionShareMaxTTL', 'controller.serviceAccount.create', 'controller.serviceAccount.name', 'controller.metrics.serviceMonitor.enabled', 'otel.exporter.otlp.endpoint', 'otel.logs.enabled', 'otel.metrics.enabled', 'otel.traces.enabled', 'otel.resourceAttributes', 'otel.capture.maxBytes', 'ui.basePath', 'providers.providerH.provider']) {
    expect(keys, group).toContain(group);
  }
  await expectOnlyIn('B', 'A', keys);
  expect(REVISIONS.B.subcharts).toMatchObject({ 'dashboards-mcp': '1.0.0-alpha8', 'agentplat-tools': '0.3.0' });
  expect(REVISIONS.A.subcharts['dashboards-mcp']).not.toBe('1.0.0-alpha8');
  expect(REVISIONS.A.subcharts['agentplat-tools']).not.toBe('0.3.0');
});
