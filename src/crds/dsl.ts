// The small vocabulary the Resource API model is written in: each helper returns an OpenAPI
// schema node with a one-line description, so the model reads like the spec's tables.

import type { Schema } from './k8s-types.ts';

/** A CEL rule with the id our enforcement table and tests use; `id` never reaches the CRD. */
export interface CelRule {
  id: string;
  rule: string;
  message: string;
  /** Relative path (`.field`) of the field the message is about, as Kubernetes' fieldPath. */
  fieldPath?: string;
}

/** A model node: a Schema whose validations still carry ids. */
export type Node = Omit<Schema, 'properties' | 'items' | 'additionalProperties' | 'x-kubernetes-validations' | 'anyOf'> & {
  properties?: Record<string, Node>;
  items?: Node;
  additionalProperties?: Node;
  anyOf?: Node[];
  rules?: CelRule[];
  /** The value is a credential: never echoed by validate (stays out of the CRD). */
  secret?: boolean;
};

type Opts = Partial<Pick<Schema, 'enum' | 'default' | 'format' | 'pattern' | 'minLength' | 'maxLength' | 'minItems' | 'maxItems' | 'minimum' | 'maximum'>> & { secret?: boolean };

export const str = (description: string, o: Opts = {}): Node => ({ type: 'string', description, ...o });
export const int = (description: string, o: Opts = {}): Node => ({ type: 'integer', description, ...o });
/**
 * An integer that lands in an int32 field of a Kubernetes object (a Deployment's replicas): the
 * API server's bounds of that field, as a CRD states them.
 */
export const int32 = (description: string, o: Opts = {}): Node => ({ type: 'integer', format: 'int32', minimum: -2147483648, maximum: 2147483647, description, ...o });
export const bool = (description: string, o: Opts = {}): Node => ({ type: 'boolean', description, ...o });
export const strMap = (description: string): Node => ({ type: 'object', description, additionalProperties: { type: 'string' } });
export const list = (description: string, items: Node, o: Opts = {}): Node => ({ type: 'array', description, items, ...o });
export const strList = (description: string, o: Opts = {}): Node => list(description, { type: 'string' }, o);

/** An object type; `required` names its required fields, `rules` its CEL rules. */
export function obj(properties: Record<string, Node>, o: { required?: string[]; rules?: CelRule[] } = {}): Node {
  const n: Node = { type: 'object', properties };
  if (o.required?.length) n.required = o.required;
  if (o.rules?.length) n.rules = o.rules;
  return n;
}

/** A field of object type `t` with its own description (and optionally more rules). */
export function field(description: string, t: Node, extraRules: CelRule[] = []): Node {
  const n: Node = { ...t, description };
  const rules = [...(t.rules ?? []), ...extraRules];
  if (rules.length) n.rules = rules;
  else delete n.rules;
  return n;
}

/** A Kubernetes core type, expanded from the generated schemas when the CRD is built. */
export const k8s = (name: string, description: string): Node => ({ $def: name, description });
export const k8sList = (name: string, description: string, o: Opts = {}): Node => ({ type: 'array', description, items: { $def: name }, ...o });

export const cel = (id: string, rule: string, message: string, fieldPath?: string): CelRule => ({ id, rule, message, ...(fieldPath ? { fieldPath } : {}) });

/**
 * Paths (from the object root) of the fields marked `secret` below `n`, `*` standing for a list
 * entry or a map key. Core types hold none of ours and are not followed.
 */
export function secretFields(n: Node, path: string[]): string[][] {
  if (n.secret) return [path];
  const out: string[][] = [];
  for (const [k, sub] of Object.entries(n.properties ?? {})) out.push(...secretFields(sub, [...path, k]));
  if (n.items) out.push(...secretFields(n.items, [...path, '*']));
  if (n.additionalProperties) out.push(...secretFields(n.additionalProperties, [...path, '*']));
  for (const alt of n.anyOf ?? []) out.push(...secretFields(alt, path));
  return out;
}
