// What `agentplat validate` needs from the CRDs, derived from the model: the kinds and their
// served versions, the JSON schemas ajv checks (core types as shared definitions), and a small
// schema holding only defaults and CEL rules. The build (scripts/gen-crd-validators.mjs) calls
// these functions and writes their results as data and ajv standalone code, which validate reads
// (./validation-data.ts, ./crd-validators.ts); no run builds the model.

import { modelChartCrdDocs as chartCrdDocs, modelMcpopCrdDocs as mcpopCrdDocs } from './model-docs.ts';
import { coreUri, INT64_BOUND } from './ids.ts';
import { coreTypeOf } from './generate.ts';
import type { Schema } from './k8s-types.ts';
import { secretFields } from './dsl.ts';
import { MCPSERVER_KIND } from './mcpop.ts';
import { KINDS } from './model.ts';

/** Per kind: its served versions, in CRD order, each with its defaults-and-rules schema. */
export interface KindValidationData {
  versions: string[];
  /** The root schema reduced to the nodes applyDefaults and runCel visit (see pruneForWalk). */
  walk: Record<string, Schema>;
  /** Versions served with the status subresource: the API server ignores `status` on create and update. */
  statusSubresource: string[];
  /** Fields the model marks secret (`*`: any list entry or map key), masked wherever validate echoes input. */
  secrets: string[][];
}

/** Kinds in CRD order (the order the unknown-kind hint lists them in). */
export type CrdValidationData = Record<string, KindValidationData>;

interface ServedVersion {
  name: string;
  served: boolean;
  subresources?: { status?: object };
  schema: { openAPIV3Schema: Schema };
}

function servedVersions(): Map<string, ServedVersion[]> {
  const out = new Map<string, ServedVersion[]>();
  for (const d of [...chartCrdDocs(), ...mcpopCrdDocs()]) {
    const spec = d.object.spec as { names: { kind: string }; versions: ServedVersion[] };
    out.set(spec.names.kind, spec.versions.filter((v) => v.served));
  }
  return out;
}

/** The data validate reads for every kind (no ajv schema: that is compiled code). */
export function computeValidationData(): CrdValidationData {
  const out: CrdValidationData = {};
  const models = new Map([...KINDS, MCPSERVER_KIND].map((k) => [k.kind, k]));
  for (const [kind, versions] of servedVersions()) {
    const model = models.get(kind);
    out[kind] = {
      versions: versions.map((v) => v.name),
      walk: Object.fromEntries(versions.map((v) => [v.name, pruneForWalk(v.schema.openAPIV3Schema) ?? {}])),
      statusSubresource: versions.filter((v) => v.subresources?.status !== undefined).map((v) => v.name),
      secrets: model ? [...secretFields(model.spec, ['spec']), ...secretFields(model.status, ['status'])] : [],
    };
  }
  return out;
}

/** The root schema of one served version, or undefined when the kind does not serve it. */
export function rootSchemaOf(kind: string, version: string): Schema | undefined {
  return servedVersions()
    .get(kind)
    ?.find((v) => v.name === version)?.schema.openAPIV3Schema;
}

// ---- defaults and CEL rules ----

/**
 * The part of a schema that applyDefaults and runCel act on: defaults, rules, and the
 * properties/items/additionalProperties leading to them. A subtree without either is dropped
 * (both walks do nothing there). A node that had `properties` keeps the key, even empty: both
 * walks descend into additionalProperties only when there are no properties.
 */
export function pruneForWalk(s: Schema): Schema | undefined {
  const out: Schema = {};
  let keep = false;
  if (s.default !== undefined) {
    out.default = s.default;
    keep = true;
  }
  if (s['x-kubernetes-validations']?.length) {
    out['x-kubernetes-validations'] = s['x-kubernetes-validations'].map((v) => ({ rule: v.rule, message: v.message, ...(v.fieldPath !== undefined ? { fieldPath: v.fieldPath } : {}) }));
    keep = true;
  }
  if (s.properties) {
    const props: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(s.properties)) {
      const p = pruneForWalk(v);
      if (p) props[k] = p;
    }
    out.properties = props;
    if (Object.keys(props).length) keep = true;
  }
  if (s.items) {
    const i = pruneForWalk(s.items);
    if (i) {
      out.items = i;
      keep = true;
    }
  }
  if (s.additionalProperties) {
    const a = pruneForWalk(s.additionalProperties);
    if (a) {
      out.additionalProperties = a;
      keep = true;
    }
  }
  return keep ? out : undefined;
}

// ---- the JSON schemas ajv compiles ----

/** The JSON schemas of one kind and version: the root, and the core types it references by $id. */
export interface AjvSchemas {
  root: Record<string, unknown>;
  /** Core type id → its JSON schema (without $id; see coreUri). */
  defs: Record<string, Record<string, unknown>>;
}

export function ajvSchemasOf(kind: string, version: string): AjvSchemas | undefined {
  const schema = rootSchemaOf(kind, version);
  if (!schema) return undefined;
  const defs: Record<string, Record<string, unknown>> = {};
  const root = toAjvSchema(schema, true, defs);
  return { root, defs };
}

/** CRD schema → JSON Schema in which unknown fields fail (the API server would prune them). */
export function toAjvSchema(s: Schema, root = false, defs: Record<string, Record<string, unknown>> = {}): Record<string, unknown> {
  const core = coreTypeOf(s);
  if (core) {
    if (!(core.id in defs)) {
      defs[core.id] = {};
      defs[core.id] = convert(core.schema, false, defs);
    }
    return { $ref: coreUri(core.id) };
  }
  return convert(s, root, defs);
}

function convert(s: Schema, root: boolean, defs: Record<string, Record<string, unknown>>): Record<string, unknown> {
  if (s['x-kubernetes-preserve-unknown-fields'] && !s.type && !s.properties) return {};
  const out: Record<string, unknown> = {};
  if (s.type) out.type = s.type;
  for (const k of ['enum', 'format', 'pattern', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems', 'required'] as const) {
    if (s[k] !== undefined) out[k] = s[k];
  }
  if (s.type === 'integer') {
    out.minimum ??= -INT64_BOUND;
    if (out.maximum === undefined) out.exclusiveMaximum = INT64_BOUND;
  }
  if (s.anyOf) out.anyOf = s.anyOf.map((x) => toAjvSchema(x, false, defs));
  if (s.items) out.items = toAjvSchema(s.items, false, defs);
  if (s.properties) {
    out.properties = Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, root && k === 'metadata' ? METADATA : toAjvSchema(v, false, defs)]));
  }
  if (s.additionalProperties) out.additionalProperties = toAjvSchema(s.additionalProperties, false, defs);
  else if (s.type === 'object' && !s['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  return out;
}

/**
 * ObjectMeta as the API server decodes it: its fields, and no other (strict field validation
 * refuses an unknown metadata field like any other). Fields the server sets itself are accepted
 * as it accepts them; their inner structure is the server's business.
 */
const METADATA = {
  type: 'object',
  properties: {
    name: { type: 'string' },
    generateName: { type: 'string' },
    namespace: { type: 'string' },
    labels: { type: 'object', additionalProperties: { type: 'string' } },
    annotations: { type: 'object', additionalProperties: { type: 'string' } },
    finalizers: { type: 'array', items: { type: 'string' } },
    ownerReferences: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          apiVersion: { type: 'string' },
          kind: { type: 'string' },
          name: { type: 'string' },
          uid: { type: 'string' },
          controller: { type: 'boolean' },
          blockOwnerDeletion: { type: 'boolean' },
        },
        additionalProperties: false,
      },
    },
    managedFields: { type: 'array', items: { type: 'object' } },
    selfLink: { type: 'string' },
    uid: { type: 'string' },
    resourceVersion: { type: 'string' },
    generation: { type: 'integer' },
    creationTimestamp: { type: 'string' },
    deletionTimestamp: { type: 'string' },
    deletionGracePeriodSeconds: { type: 'integer' },
  },
  additionalProperties: false,
};
