// Walks the machine-readable spec: every field of every type is in the generated CRDs with its
// type, enum, bounds, pattern, format, schema default and required flag; every admission rule
// maps to a CEL rule or schema keyword of the enforcement table.
import { describe, expect, it } from 'vitest';
import { chartCrdDocs } from '../../src/crds/index.ts';
import { ENFORCEMENT, EXTRA_CEL_RULES } from '../../src/crds/enforcement.ts';
import type { Schema } from '../../src/crds/k8s-types.ts';
import { RESOURCE_RULES as rules, RESOURCE_TYPES as types, type ResourceField as FieldSpec } from '../data/spec.ts';
import { modelRules } from './helpers.ts';

const schemaOf = (kind: string): Schema => {
  const d = chartCrdDocs().find((x) => (x.object.spec as { names: { kind: string } }).names.kind === kind)!;
  return (d.object.spec as { versions: { schema: { openAPIV3Schema: Schema } }[] }).versions[0]!.schema.openAPIV3Schema;
};

const STD_STRINGS: Record<string, Partial<Schema>> = { Duration: { type: 'string' }, Time: { type: 'string', format: 'date-time' }, PullPolicy: { type: 'string' } };

const reached = new Set<string>();

function checkType(typeName: string, s: Schema, where: string, out: string[]): void {
  reached.add(typeName);
  const t = types.types[typeName]!;
  for (const [name, f] of Object.entries(t.fields)) {
    const at = `${where}.${name}`;
    const p = s.properties?.[name];
    if (!p) {
      out.push(`${at}: missing`);
      continue;
    }
    if (f.required !== (s.required ?? []).includes(name)) out.push(`${at}: required should be ${f.required}`);
    const schemaDefault = f.default !== undefined && f.defaultAppliedBy !== 'runtime' ? f.default : undefined;
    if (JSON.stringify(p.default) !== JSON.stringify(schemaDefault)) out.push(`${at}: default ${JSON.stringify(p.default)} should be ${JSON.stringify(schemaDefault)}`);
    for (const k of ['enum', 'format', 'pattern', 'minLength', 'maxLength', 'minItems', 'maxItems', 'minimum'] as const) {
      if (f[k] !== undefined && JSON.stringify(p[k]) !== JSON.stringify(f[k])) out.push(`${at}: ${k} ${JSON.stringify(p[k])} should be ${JSON.stringify(f[k])}`);
    }
    checkValue(f.type, p, at, out);
  }
}

function checkValue(type: string, p: Schema, at: string, out: string[]): void {
  const arr = /^array\((.+)\)$/.exec(type);
  if (type === 'string' || type === 'integer' || type === 'boolean') {
    if (p.type !== type) out.push(`${at}: type ${p.type} should be ${type}`);
  } else if (type === 'map(string->string)') {
    if (p.type !== 'object' || p.additionalProperties?.type !== 'string') out.push(`${at}: should be a string map`);
  } else if (arr) {
    if (p.type !== 'array' || !p.items) out.push(`${at}: should be an array`);
    else checkValue(arr[1]!, p.items, `${at}[]`, out);
  } else if (type === 'JSON') {
    if (!p['x-kubernetes-preserve-unknown-fields']) out.push(`${at}: JSON should preserve unknown fields`);
  } else if (STD_STRINGS[type]) {
    for (const [k, v] of Object.entries(STD_STRINGS[type]!)) if ((p as Record<string, unknown>)[k] !== v) out.push(`${at}: ${k} should be ${String(v)}`);
  } else if (types.standardTypes.includes(type)) {
    if (p.type !== 'object' || !p.properties || Object.keys(p.properties).length === 0) out.push(`${at}: ${type} should be expanded`);
  } else if (types.types[type]) {
    if (p.type !== 'object') out.push(`${at}: should be an object`);
    else checkType(type, p, at, out);
  } else out.push(`${at}: unknown spec type ${type}`);
}

describe('resource-types.json: every field is in the CRDs', () => {
  for (const [kind, k] of Object.entries(types.kinds)) {
    it(`${kind}: spec (${k.spec}) and status (${k.status}) match field by field`, () => {
      const root = schemaOf(kind);
      const out: string[] = [];
      checkType(k.spec, root.properties!.spec!, 'spec', out);
      checkType(k.status, root.properties!.status!, 'status', out);
      expect(out).toEqual([]);
    });
  }
  it('every type of the spec is reached from a kind (SharedDeploymentSpec and CloudProjectBaseConfig are inlined)', () => {
    for (const [kind, k] of Object.entries(types.kinds)) {
      checkType(k.spec, schemaOf(kind).properties!.spec!, 'spec', []);
      checkType(k.status, schemaOf(kind).properties!.status!, 'status', []);
    }
    const unreached = Object.keys(types.types).filter((t) => !reached.has(t));
    expect(unreached.sort()).toEqual(['CloudProjectBaseConfig', 'SharedDeploymentSpec']);
  });
});

describe('resource-rules.json: every admission rule is enforced', () => {
  const model = modelRules();
  const admission = rules.filter((r) => r.enforcement === 'admission');
  it('the table maps every admission rule and nothing else', () => {
    expect(Object.keys(ENFORCEMENT).sort()).toEqual(admission.map((r) => r.id).sort());
  });
  for (const r of admission) {
    it(`${r.id}: enforced by ${'cel' in (ENFORCEMENT[r.id] ?? {}) ? 'CEL' : 'schema keywords'}`, () => {
      const e = ENFORCEMENT[r.id];
      expect(e, `unmapped admission rule ${r.id}`).toBeDefined();
      if ('cel' in e!) for (const id of e.cel) expect(model.has(id), `CEL rule ${id}`).toBe(true);
      else {
        expect(e!.schema.length).toBeGreaterThan(0);
        for (const l of e!.schema) {
          let s: Schema | undefined = schemaOf(l.kind);
          for (const seg of l.path.split('.')) {
            s = s?.properties?.[seg.replace('[]', '')];
            if (seg.endsWith('[]')) s = s?.items;
          }
          expect(s?.[l.keyword], `${l.kind} ${l.path} ${l.keyword}`).toBe(l.value);
        }
      }
    });
  }
  it('every CEL rule of the model is either in the table or a listed extra', () => {
    const mapped = new Set(Object.values(ENFORCEMENT).flatMap((e) => ('cel' in e ? e.cel : [])));
    const unlisted = [...model.keys()].filter((id) => !mapped.has(id) && !EXTRA_CEL_RULES.includes(id));
    expect(unlisted).toEqual([]);
  });
});
