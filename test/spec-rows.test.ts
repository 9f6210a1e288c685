// Walks every row of the values extraction (shared/spec/values-rows.json) for both revisions:
// the key is in that revision's schema and defaults file (and absent from the other revision's
// when the row is marked [A]/[B]), its type word matches, and a documented default is the
// default we ship.

import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REVISION_IDS, REVISIONS, type Revision } from '../src/spec/revisions.ts';
import { describeKey } from '../src/spec/values-model.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

interface Row {
  path: string;
  revisions: Revision[];
  type: string;
  typeByRevision?: Partial<Record<Revision, string>>;
  default: Partial<Record<Revision, unknown>>;
  defaultKnown: Partial<Record<Revision, boolean>>;
  notes: string;
}

const rows = JSON.parse(readFileSync(join(root, '..', 'shared', 'spec', 'values-rows.json'), 'utf8')) as Row[];

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

/** [present, value] of a dotted path in a revision's defaults file. */
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

it('the extraction has all 389 rows', () => {
  expect(rows).toHaveLength(389);
});

for (const row of rows) {
  describe(row.path, () => {
    for (const rev of REVISION_IDS) {
      if (row.revisions.includes(rev)) {
        it(`[${rev}] is a key of the schema and of the defaults file`, () => {
          expect(schemaNode(rev, row.path), 'schema').toBeDefined();
          expect(defaultAt(rev, row.path)[0], 'defaults file').toBe(true);
        });
        it(`[${rev}] has the spec's type`, () => {
          expect(describeKey(rev, row.path)?.type).toBe(row.typeByRevision?.[rev] ?? row.type);
        });
        if (row.defaultKnown[rev]) {
          it(`[${rev}] ships the documented default`, () => {
            expect(defaultAt(rev, row.path)[1], 'defaults file').toEqual(row.default[rev]);
            expect(schemaNode(rev, row.path)?.default, 'schema default').toEqual(row.default[rev]);
          });
        } else {
          it(`[${rev}] has a default in the schema equal to the defaults file (the spec gives no literal)`, () => {
            const [present, value] = defaultAt(rev, row.path);
            expect(present).toBe(true);
            expect(schemaNode(rev, row.path)?.default).toEqual(value);
          });
        }
      } else {
        it(`[${rev}] is absent (the row is for revision ${row.revisions.join('')} only)`, () => {
          expect(defaultAt(rev, row.path)[0], 'defaults file').toBe(false);
          const exception = SCHEMA_ONLY_IN_OTHER[row.path];
          if (exception?.rev === rev) {
            // Known to the schema as an optional key: no default.
            expect(schemaNode(rev, row.path)?.default).toBeUndefined();
          } else {
            expect(schemaNode(rev, row.path), 'schema').toBeUndefined();
          }
        });
      }
    }
  });
}

// Section 9 lists the keys only one revision has (rules revision-a-only-keys / revision-b-only-keys
// of shared/spec/values-rules.json): each listed key is in that revision's schema and defaults
// file and in neither of the other revision's (SCHEMA_ONLY_IN_OTHER: known, optional, no default).
interface Rule {
  id: string;
  revisions: Revision[];
  keys: string[];
}
const rules = JSON.parse(readFileSync(join(root, '..', 'shared', 'spec', 'values-rules.json'), 'utf8')) as Rule[];
const ruleKeys = (id: string): string[] => {
  const rule = rules.find((r) => r.id === id);
  if (!rule) throw new Error(`no rule ${id} in values-rules.json`);
  return rule.keys;
};

function expectOnlyIn(own: Revision, other: Revision, keys: readonly string[]): void {
  expect(keys.length).toBeGreaterThan(10);
  for (const key of keys) {
    expect(schemaNode(own, key), `${key}: in the schema of ${own}`).toBeDefined();
    expect(defaultAt(own, key)[0], `${key}: in the defaults of ${own}`).toBe(true);
    expect(defaultAt(other, key)[0], `${key}: not in the defaults of ${other}`).toBe(false);
    if (SCHEMA_ONLY_IN_OTHER[key]?.rev === other) expect(schemaNode(other, key)?.default, `${key}: optional in ${other}`).toBeUndefined();
    else expect(schemaNode(other, key), `${key}: not in the schema of ${other}`).toBeUndefined();
  }
}

it('revision-a-only-keys: the bundled agents, a2aBaseUrl, agentDeployment, goAgentImage, skillsInitImage, toolRefreshInterval, detailed substrate keys, sessionRetentionDays, otel.logging/tracing, ui.volumes.nextjsCache and rbac.namespaces are revision A keys only', () => {
  const keys = ruleKeys('revision-a-only-keys');
  for (const group of ['controller.a2aBaseUrl', 'controller.toolRefreshInterval', 'ui.volumes.nextjsCache', 'database.rdb.sessionRetentionDays', 'rbac.namespaces', 'otel.logging.enabled', 'otel.tracing.enabled', 'controller.goAgentImage.repository', 'controller.skillsInitImage.repository', 'controller.agentDeployment.host', 'query-language-agent.enabled']) {
    expect(keys, group).toContain(group);
  }
  expectOnlyIn('A', 'B', keys);
});

it('revision-b-only-keys: global.*, a2aGatewayUrl, grpc.reflection, sandbox.*, session TTLs, serviceMonitor, serviceAccount, otel.exporter/logs/metrics/traces/resourceAttributes/capture, ui.basePath and providerH are revision B keys only; B pins dashboards-mcp 1.0.0-alpha8 and tools 0.3.0', () => {
  const keys = ruleKeys('revision-b-only-keys');
  for (const group of ['global.imagePullPolicy', 'global.watchNamespaces', 'controller.a2aGatewayUrl', 'controller.grpc.reflection', 'controller.sandbox.cpu', 'controller.sessionIdleTTL', 'controller.sessionShareMaxTTL', 'controller.serviceAccount.create', 'controller.serviceAccount.name', 'controller.metrics.serviceMonitor.enabled', 'otel.exporter.otlp.endpoint', 'otel.logs.enabled', 'otel.metrics.enabled', 'otel.traces.enabled', 'otel.resourceAttributes', 'otel.capture.maxBytes', 'ui.basePath', 'providers.providerH.provider']) {
    expect(keys, group).toContain(group);
  }
  expectOnlyIn('B', 'A', keys);
  expect(REVISIONS.B.subcharts).toMatchObject({ 'dashboards-mcp': '1.0.0-alpha8', 'agentplat-tools': '0.3.0' });
  expect(REVISIONS.A.subcharts['dashboards-mcp']).not.toBe('1.0.0-alpha8');
  expect(REVISIONS.A.subcharts['agentplat-tools']).not.toBe('0.3.0');
});
