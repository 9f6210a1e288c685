// A quick "valid": one small function that walks a JSON schema as ajv gets it along the data: a
// CRD's (validation-model.ts) along a custom resource, and a revision's values schema along the
// merged values (lint/schema.ts). Most inputs are valid, and ajv's generated code is thousands of
// property checks that every process loads and runs cold; this walker is a few dozen lines. It
// answers only yes or "ask ajv": a node using a keyword it does not know, or any doubt, is "ask
// ajv", and ajv's verdict and errors stand. Property tests hold it to ajv: it never accepts what
// ajv rejects (test/crds/schema-accepts.test.ts, test/lint/values-schema-accepts.test.ts).

/** Deep equality of JSON data, as `enum` compares: same type, same items, same keys and values. */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => jsonEqual(x, b[i]));
  if (Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

/** A string's length as JSON Schema counts it: in code points, a surrogate pair being one. */
function codePoints(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++, n++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
  }
  return n;
}

const REF_PREFIX = 'https://agentplat.dev/schemas/k8s/';

/** The keywords the walker decides (annotations ajv ignores are listed too). */
const KNOWN = new Set(['type', 'properties', 'additionalProperties', 'required', 'items', 'enum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minimum', 'maximum', 'exclusiveMaximum', 'pattern', 'format', 'anyOf', 'allOf', '$ref', 'definitions', '$schema', 'description', 'title']);

/** A reference to a definition of the schema's own `definitions` (JSON pointer escapes undone). */
const LOCAL_REF = '#/definitions/';

/** A JSON schema node as the walker reads it. */
export type Schema = Record<string, unknown>;
type Node = Schema;

/** What a caller's ajv knows beyond the keywords: its references, its no-op keywords, its formats. */
export interface WalkContext {
  /**
   * What references name: the core types of a CRD (`https://agentplat.dev/schemas/k8s/<name>.json`),
   * or the schema's own `definitions` (`#/definitions/<name>`).
   */
  defs: Record<string, Schema>;
  /** Keywords the caller's ajv was given as annotations without a check (values schemas' `x-agentplat-*`). */
  noOps?: ReadonlySet<string>;
  /** Whether a string is of a format, as the caller's ajv checks it; undefined for a format it does not know. */
  format?: (name: string, value: string) => boolean | undefined;
}

/**
 * What the walker needs of a schema node, in one shape for every node (the nodes themselves have
 * as many shapes as keyword sets, which makes every property read a slow one in a short run).
 * Made once per node; undefined fields are absent keywords. `ask`: a keyword the walker does not
 * decide, or a reference it cannot follow.
 */
interface Plan {
  ask: boolean;
  ref: Node | undefined;
  types: readonly string[] | undefined;
  enumValues: readonly unknown[] | undefined;
  anyOf: readonly Node[] | undefined;
  allOf: readonly Node[] | undefined;
  minLength: number | undefined;
  maxLength: number | undefined;
  pattern: RegExp | undefined;
  format: string | undefined;
  minimum: number | undefined;
  maximum: number | undefined;
  exclusiveMaximum: number | undefined;
  minItems: number | undefined;
  maxItems: number | undefined;
  items: Node | undefined;
  required: readonly string[] | undefined;
  properties: Record<string, Node> | undefined;
  /** additionalProperties: false, or the schema of the other keys (true and absent: undefined). */
  extra: false | Node | undefined;
}

const plans = new WeakMap<object, Plan>();
const patterns = new Map<string, RegExp>();
/** Schema nodes given as their JSON text, read when first walked (see schemaAccepts). */
const texts = new Map<string, Node>();

/**
 * Where a caller's data differs from data known to be valid: the keys of an object that may
 * differ, each with its own tree, or 'all' (everything below may differ). A key an object's tree
 * does not list holds the known-valid value, and is not walked.
 */
export type Touched = ReadonlyMap<string, Touched | 'all'>;

/**
 * True when `data` is valid for `root`; false means "ask ajv".
 *
 * A schema node may be given as its JSON text (a string where a schema is expected: a property's,
 * a definition's): it is parsed when the walk first reaches it, so the parts of a large schema the
 * data never reaches are never built.
 *
 * With `touched`, `data` is data known to be valid (the chart's defaults, which a test holds to the
 * schema) with the changes `touched` names: only the objects on those paths are walked, with every
 * keyword (their `required` too), and what lies below a key they do not list is taken as valid.
 * That holds only where the schema node of a value is fixed by its path, so below an anyOf, allOf
 * or list item the walk checks everything.
 */
export function schemaAccepts(root: Schema, context: WalkContext, data: unknown, touched?: Touched): boolean {
  return accepts(root, context, data, 0, touched);
}

function nodeOf(s: Node | string): Node {
  if (typeof s !== 'string') return s;
  let node = texts.get(s);
  if (!node) {
    node = JSON.parse(s) as Node;
    texts.set(s, node);
  }
  return node;
}

function planOf(s: Node, { defs, noOps }: WalkContext): Plan {
  let p = plans.get(s);
  if (p) return p;
  let ask = s === null || typeof s !== 'object' || !Object.keys(s).every((k) => KNOWN.has(k) || noOps?.has(k) === true);
  let ref: Node | undefined;
  if (!ask && s.$ref !== undefined) {
    const r = s.$ref as string;
    const name = r.startsWith(REF_PREFIX) && r.endsWith('.json') ? r.slice(REF_PREFIX.length, -'.json'.length) : r.startsWith(LOCAL_REF) ? r.slice(LOCAL_REF.length).replace(/~1/g, '/').replace(/~0/g, '~') : undefined;
    ref = name !== undefined && Object.hasOwn(defs, name) ? (defs[name] as Node) : undefined;
    if (!ref) ask = true;
  }
  const items = s.items as unknown;
  if (items !== undefined && (items === null || typeof items !== 'object' || Array.isArray(items))) ask = true;
  const extra = s.additionalProperties as boolean | Node | undefined;
  p = {
    ask,
    ref,
    types: s.type === undefined ? undefined : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string],
    enumValues: s.enum as unknown[] | undefined,
    anyOf: s.anyOf as Node[] | undefined,
    allOf: s.allOf as Node[] | undefined,
    minLength: s.minLength as number | undefined,
    maxLength: s.maxLength as number | undefined,
    pattern: s.pattern === undefined ? undefined : pattern(s.pattern as string),
    format: s.format as string | undefined,
    minimum: s.minimum as number | undefined,
    maximum: s.maximum as number | undefined,
    exclusiveMaximum: s.exclusiveMaximum as number | undefined,
    minItems: s.minItems as number | undefined,
    maxItems: s.maxItems as number | undefined,
    items: items as Node | undefined,
    required: s.required as string[] | undefined,
    properties: s.properties as Record<string, Node> | undefined,
    extra: extra === true || extra === undefined ? undefined : extra,
  };
  plans.set(s, p);
  return p;
}

function accepts(node: Node | string, cx: WalkContext, v: unknown, depth: number, touched: Touched | undefined): boolean {
  if (depth > 64) return false;
  const s = nodeOf(node);
  const p = planOf(s, cx);
  if (p.ask) return false;
  if (p.ref !== undefined && !accepts(p.ref, cx, v, depth + 1, touched)) return false;
  if (p.types !== undefined && !p.types.some((t) => isType(t, v))) return false;
  if (p.enumValues !== undefined && !p.enumValues.some((e) => jsonEqual(e, v))) return false;
  if (p.anyOf !== undefined && !p.anyOf.some((b) => accepts(b, cx, v, depth + 1, undefined))) return false;
  if (p.allOf !== undefined && !p.allOf.every((b) => accepts(b, cx, v, depth + 1, undefined))) return false;
  if (typeof v === 'string') {
    if (p.minLength !== undefined && codePoints(v) < p.minLength) return false;
    if (p.maxLength !== undefined && codePoints(v) > p.maxLength) return false;
    if (p.pattern !== undefined && !p.pattern.test(v)) return false;
    if (p.format !== undefined && cx.format?.(p.format, v) !== true) return false;
  } else if (typeof v === 'number') {
    if (p.minimum !== undefined && !(v >= p.minimum)) return false;
    if (p.maximum !== undefined && !(v <= p.maximum)) return false;
    if (p.exclusiveMaximum !== undefined && !(v < p.exclusiveMaximum)) return false;
  } else if (Array.isArray(v)) {
    if (p.minItems !== undefined && v.length < p.minItems) return false;
    if (p.maxItems !== undefined && v.length > p.maxItems) return false;
    if (p.items !== undefined) for (const item of v) if (!accepts(p.items, cx, item, depth + 1, undefined)) return false;
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (p.required !== undefined) for (const k of p.required) if (o[k] === undefined) return false;
    const props = p.properties;
    const extra = p.extra;
    // ajv goes over the keys with for…in; so does this.
    for (const k in o) {
      let below: Touched | undefined;
      if (touched !== undefined) {
        const t = touched.get(k);
        // the known-valid value, as it is
        if (t === undefined) continue;
        below = t === 'all' ? undefined : t;
      }
      const sub = props !== undefined && Object.hasOwn(props, k) ? props[k] : undefined;
      if (sub !== undefined) {
        if (o[k] !== undefined && !accepts(sub, cx, o[k], depth + 1, below)) return false;
      } else if (extra === false) return false;
      else if (extra !== undefined && !accepts(extra, cx, o[k], depth + 1, below)) return false;
    }
  }
  return true;
}

/** JSON Schema types as ajv checks them (numbers must be finite; integers whole). */
function isType(t: string, v: unknown): boolean {
  switch (t) {
    case 'string':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'integer':
      return Number.isInteger(v);
    case 'number':
      return typeof v === 'number' && Number.isFinite(v);
    case 'object':
      return v !== null && typeof v === 'object' && !Array.isArray(v);
    case 'array':
      return Array.isArray(v);
    case 'null':
      return v === null;
    default:
      return false;
  }
}

function pattern(p: string): RegExp {
  let re = patterns.get(p);
  if (!re) {
    re = new RegExp(p, 'u');
    patterns.set(p, re);
  }
  return re;
}
