// Turns the model into CustomResourceDefinition objects: core types inlined from the generated
// Kubernetes schemas, CEL rules written as x-kubernetes-validations (their ids stay behind).

import type { Node } from './dsl.ts';
import { K8S_DEFS, K8S_ROOTS } from './k8s-schemas.generated.ts';
import type { Schema } from './k8s-types.ts';

const inlined = new Map<string, Schema>();
/** Which core type a schema node is (validators compile each core type once, by reference). */
const coreIds = new WeakMap<Schema, string>();

export function coreTypeOf(s: Schema): { id: string; schema: Schema } | undefined {
  const id = coreIds.get(s);
  return id ? { id, schema: inlined.get(id)! } : undefined;
}

/** The expansion of a core type; shared between uses (serializers must not alias it). */
function coreType(name: string): Schema {
  const id = K8S_ROOTS[name] ?? name;
  let s = inlined.get(id);
  if (!s) {
    const def = K8S_DEFS[id];
    if (!def) throw new Error(`unknown Kubernetes type ${name}`);
    s = toSchema(def as Node);
    inlined.set(id, s);
    coreIds.set(s, id);
  }
  return s;
}

/** Model node → CRD schema node (keys in a stable order). */
export function toSchema(n: Node): Schema {
  if (n.$def) {
    const base = coreType(n.$def);
    if (!n.description) return base;
    const described: Schema = { description: n.description, ...base };
    coreIds.set(described, coreIds.get(base)!);
    return described;
  }
  const out: Schema = {};
  if (n.description !== undefined) out.description = n.description;
  if (n.type !== undefined) out.type = n.type;
  for (const k of ['format', 'pattern', 'enum', 'default', 'minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) {
    if (n[k] !== undefined) (out as Record<string, unknown>)[k] = n[k];
  }
  // An object without fields has no `properties`: the API server drops an empty one from the
  // stored CRD, and a second field manager's apply of `properties: {}` would conflict over it.
  if (n.properties && Object.keys(n.properties).length > 0) out.properties = Object.fromEntries(Object.entries(n.properties).map(([k, v]) => [k, toSchema(v)]));
  if (n.required?.length) out.required = n.required;
  if (n.items) out.items = toSchema(n.items);
  if (n.additionalProperties) out.additionalProperties = toSchema(n.additionalProperties);
  if (n.anyOf) out.anyOf = n.anyOf.map(toSchema);
  if (n['x-kubernetes-int-or-string']) out['x-kubernetes-int-or-string'] = true;
  if (n['x-kubernetes-preserve-unknown-fields']) out['x-kubernetes-preserve-unknown-fields'] = true;
  if (n.rules?.length) {
    out['x-kubernetes-validations'] = n.rules.map((r) => ({ rule: r.rule, message: r.message, ...(r.fieldPath ? { fieldPath: r.fieldPath } : {}) }));
  }
  return out;
}

export interface CrdInput {
  group: string;
  kind: string;
  plural: string;
  singular: string;
  shortNames: string[];
  version: string;
  description: string;
  spec: Node;
  status: Node;
  columns: { name: string; type: string; jsonPath: string; description?: string }[];
}

export const CRD_LABELS = { 'app.kubernetes.io/part-of': 'agentplat', 'app.kubernetes.io/managed-by': 'agentplat' };

export function buildCrd(c: CrdInput): Record<string, unknown> {
  const names: Record<string, unknown> = { kind: c.kind, listKind: `${c.kind}List`, plural: c.plural, singular: c.singular };
  if (c.shortNames.length) names.shortNames = c.shortNames;
  names.categories = ['agentplat'];
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${c.plural}.${c.group}`, labels: { ...CRD_LABELS } },
    spec: {
      group: c.group,
      names,
      scope: 'Namespaced',
      versions: [
        {
          name: c.version,
          served: true,
          storage: true,
          subresources: { status: {} },
          additionalPrinterColumns: c.columns,
          schema: {
            openAPIV3Schema: {
              description: c.description,
              type: 'object',
              properties: {
                apiVersion: { description: 'Versioned schema of this object', type: 'string' },
                kind: { description: 'Kind of this object', type: 'string' },
                metadata: { type: 'object' },
                spec: toSchema({ ...c.spec, description: `Desired state of the ${c.kind}` }),
                status: toSchema({ ...c.status, description: `Observed state of the ${c.kind}` }),
              },
            },
          },
        },
      ],
    },
  };
}
