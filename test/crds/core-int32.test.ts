// Every integer that lands in an int32 field of a Kubernetes object is bounded the way the API
// server bounds it, also inside the Kubernetes core types the CRDs embed (containers, probes,
// volumes, affinity, …). The walk below finds every integer of those types in the served CRDs,
// asks kubernetes-models' own model of the type whether Kubernetes declares it int32, and checks
// that `validate` and the CRD (which the API server enforces) bound exactly those.
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { coreTypeOf } from '../../src/crds/generate.ts';
// The model's objects: coreTypeOf knows the core types by the model's schema objects.
import { modelChartCrdDocs as chartCrdDocs, modelMcpopCrdDocs as mcpopCrdDocs } from '../../src/crds/model-docs.ts';
import type { Schema } from '../../src/crds/k8s-types.ts';
import { pathText, validateCustomResources } from '../../src/kube-check/validate.ts';

const require = createRequire(import.meta.url);
type Path = (string | number)[];

/** Kubernetes' kind of a core-type number field, per kubernetes-models. */
type IntKind = 'int32' | 'int64' | 'int32-or-string' | 'quantity';

interface IntField {
  kind: string;
  version: string;
  /** Where the field sits in a custom resource (list entries at 0, map keys `k`). */
  path: Path;
  /** `Type.field`: the core type and its field. */
  field: string;
  intKind: IntKind;
  schema: Schema;
}

/** Whether kubernetes-models' model of `type` refuses 2^31 at `field` as "not int32". */
function declaredInt32(type: string, inCore: Path): boolean {
  let Model: (new (d: object) => { validate(): void }) | undefined;
  try {
    Model = (require(`kubernetes-models/v1/${type}`) as Record<string, new (d: object) => { validate(): void }>)[type];
  } catch {
    return false;
  }
  if (!Model) return false;
  const data: Record<string, unknown> = {};
  set(data, inCore, 2 ** 31);
  try {
    new Model(data).validate();
    return false;
  } catch (err) {
    return String((err as Error).message).includes(`data/${inCore.join('/')} must match format "int32"`);
  }
}

function set(root: Record<string, unknown>, path: Path, value: unknown): void {
  let cur: Record<string | number, unknown> = root;
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      cur[seg] = value;
      return;
    }
    cur[seg] ??= typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[seg] as Record<string | number, unknown>;
  });
}

/** Every integer and int-or-string inside a core type, under the spec of every served CRD. */
function intFields(): IntField[] {
  const out: IntField[] = [];
  for (const d of [...chartCrdDocs(), ...mcpopCrdDocs()]) {
    const spec = d.object.spec as { names: { kind: string }; versions: { name: string; schema: { openAPIV3Schema: Schema } }[] };
    for (const v of spec.versions) {
      const walk = (s: Schema, path: Path, core: { id: string; from: number } | undefined): void => {
        const here = coreTypeOf(s);
        const c = here ? { id: here.id, from: path.length } : core;
        if (c && (s.type === 'integer' || s['x-kubernetes-int-or-string'])) {
          const inCore = path.slice(c.from);
          const int32 = declaredInt32(c.id, inCore);
          const intKind: IntKind = s['x-kubernetes-int-or-string'] ? (int32 ? 'int32-or-string' : 'quantity') : int32 ? 'int32' : 'int64';
          out.push({ kind: spec.names.kind, version: v.name, path, field: `${c.id}.${inCore.filter((p) => typeof p === 'string' && p !== 'k').join('.')}`, intKind, schema: s });
          return;
        }
        for (const [k, sub] of Object.entries(s.properties ?? {})) walk(sub, [...path, k], c);
        if (s.items) walk(s.items, [...path, 0], c);
        if (s.additionalProperties) walk(s.additionalProperties, [...path, 'k'], c);
      };
      walk(v.schema.openAPIV3Schema.properties!.spec!, ['spec'], undefined);
    }
  }
  return out;
}

const FIELDS = intFields();

/**
 * One resource per kind and version with `value(field)` in every field at once, and the paths
 * validate reports on.
 */
function reportedPaths(value: (f: IntField) => unknown): Map<string, string[]> {
  const byKind = new Map<string, { doc: Record<string, unknown>; fields: IntField[] }>();
  for (const f of FIELDS) {
    const key = `${f.kind}/${f.version}`;
    if (!byKind.has(key)) byKind.set(key, { doc: { apiVersion: `agentplat.dev/${f.version}`, kind: f.kind, metadata: { name: 'ints' } }, fields: [] });
    const entry = byKind.get(key)!;
    set(entry.doc, f.path, value(f));
    entry.fields.push(f);
  }
  const out = new Map<string, string[]>();
  for (const [key, { doc }] of byKind) {
    const r = validateCustomResources([{ file: key, text: JSON.stringify(doc) }]);
    out.set(key, r.problems.map((p) => `${p.path}: ${p.message}`));
  }
  return out;
}

/** The fields (as `Kind path`) whose path has, or has not, a problem matching `re`. */
function judge(value: (f: IntField) => unknown, pick: (f: IntField) => boolean, re: RegExp, want: boolean): string[] {
  const reported = reportedPaths(value);
  const wrong: string[] = [];
  for (const f of FIELDS.filter(pick)) {
    const at = pathText(f.path);
    const hit = (reported.get(`${f.kind}/${f.version}`) ?? []).some((p) => p.startsWith(`${at}: `) && re.test(p));
    if (hit !== want) wrong.push(`${f.kind} ${at} (${f.field}, ${f.intKind})`);
  }
  return wrong;
}

const is = (...kinds: IntKind[]) => (f: IntField) => kinds.includes(f.intKind);

describe('int32 fields of the Kubernetes core types embedded in the CRDs', () => {
  it('the walk finds the int32 fields of containers, probes, handlers and volumes, and tells int64 fields and quantities apart', () => {
    const found = (k: IntKind) => new Set(FIELDS.filter(is(k)).map((f) => f.field));
    expect([...found('int32')]).toEqual(expect.arrayContaining(['ContainerPort.containerPort', 'ContainerPort.hostPort', 'Probe.periodSeconds', 'Probe.failureThreshold', 'GRPCAction.port', 'SecretVolumeSource.defaultMode', 'KeyToPath.mode', 'WeightedPodAffinityTerm.weight']));
    expect([...found('int32-or-string')].sort()).toEqual(['HTTPGetAction.port', 'TCPSocketAction.port']);
    expect([...found('int64')]).toEqual(expect.arrayContaining(['SecurityContext.runAsUser', 'PodSecurityContext.fsGroup', 'Probe.terminationGracePeriodSeconds', 'Toleration.tolerationSeconds']));
    expect([...found('quantity')]).toEqual(expect.arrayContaining(['ResourceRequirements.limits', 'EmptyDirVolumeSource.sizeLimit']));
  });

  it('an int32 field of an embedded core type rejects 2147483648 at the field, naming the 32-bit range', () => {
    expect(judge(() => 2147483648, is('int32', 'int32-or-string'), /must be at most 2147483647 \(the range of a 32-bit integer/, true)).toEqual([]);
  });

  it('an int32 field of an embedded core type rejects -2147483649 at the field', () => {
    expect(judge(() => -2147483649, is('int32', 'int32-or-string'), /must be at least -2147483648/, true)).toEqual([]);
  });

  it('an int32 field of an embedded core type accepts both ends of the 32-bit range', () => {
    expect(judge(() => 2147483647, is('int32', 'int32-or-string'), /./, false)).toEqual([]);
    expect(judge(() => -2147483648, is('int32', 'int32-or-string'), /./, false)).toEqual([]);
  });

  it('the port of an int-or-string keeps its string branch: a named port is accepted', () => {
    expect(judge((f) => (f.intKind === 'int32-or-string' ? 'http' : 1), is('int32-or-string'), /./, false)).toEqual([]);
  });

  it('an int64 field or a quantity of an embedded core type accepts 2147483648 and rejects 2^63', () => {
    expect(judge(() => 2147483648, is('int64', 'quantity'), /./, false)).toEqual([]);
    expect(judge(() => 2 ** 63, is('int64'), /must be an integer from -2\^63 to 2\^63-1/, true)).toEqual([]);
  });

  it('the CRD states every int32 bound as minimum and maximum, so the API server refuses what validate refuses', () => {
    const unbounded = FIELDS.filter(is('int32', 'int32-or-string'))
      .filter((f) => f.schema.minimum !== -2147483648 || f.schema.maximum !== 2147483647)
      .map((f) => `${f.kind} ${pathText(f.path)}`);
    expect(unbounded).toEqual([]);
    // The API server takes an int-or-string only with its bare anyOf; the bounds sit beside it.
    for (const f of FIELDS.filter(is('int32-or-string'))) expect(f.schema.anyOf).toEqual([{ type: 'integer' }, { type: 'string' }]);
    const overBounded = FIELDS.filter(is('int64', 'quantity')).filter((f) => f.schema.maximum !== undefined).map((f) => `${f.kind} ${pathText(f.path)}`);
    expect(overBounded).toEqual([]);
  });
});
