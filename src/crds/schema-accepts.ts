// A quick "valid" for custom resources: one small function that walks a CRD's JSON schema (as ajv
// gets it, validation-model.ts) along the document. Most documents are valid, and ajv's generated
// code is thousands of property checks that every process runs cold; this walker is a few dozen
// lines that warm up after a handful of documents. It answers only yes or "ask ajv": a node using
// a keyword it does not know, or any doubt, is "ask ajv", and ajv's verdict and errors stand.
// A property test holds it to ajv: it never accepts what ajv rejects
// (test/crds/schema-accepts.test.ts).
import equalModule from 'ajv/dist/runtime/equal.js';
import ucs2lengthModule from 'ajv/dist/runtime/ucs2length.js';
import { fullFormats } from 'ajv-formats/dist/formats.js';
import type { Schema } from './k8s-types.ts';

// The very functions ajv's generated code calls (CommonJS modules: the default export is the
// function or, under Node's own interop, the module object holding it).
const interop = <T>(m: T): T => ((m as { default?: T }).default ?? m);
const equal = interop(equalModule) as unknown as (a: unknown, b: unknown) => boolean;
const ucs2length = interop(ucs2lengthModule) as unknown as (s: string) => number;

const REF_PREFIX = 'https://agentplat.dev/schemas/k8s/';

/** The keywords the walker decides (annotations ajv ignores are listed too). */
const KNOWN = new Set(['type', 'properties', 'additionalProperties', 'required', 'items', 'enum', 'minItems', 'maxItems', 'minLength', 'maxLength', 'minimum', 'maximum', 'pattern', 'format', 'anyOf', '$ref', 'description', 'title']);

type Node = Schema & Record<string, unknown>;

/** Per schema node: whether every keyword of it is one the walker decides. */
const understood = new WeakMap<object, boolean>();
const patterns = new Map<string, RegExp>();

/** True when `data` is valid for `root` (with core types in `defs`); false means "ask ajv". */
export function schemaAccepts(root: Schema, defs: Record<string, Schema>, data: unknown): boolean {
  return accepts(root as Node, defs, data, 0);
}

function accepts(s: Node, defs: Record<string, Schema>, v: unknown, depth: number): boolean {
  if (depth > 64 || !knows(s)) return false;
  if (s.$ref !== undefined) {
    const ref = s.$ref as string;
    const target = ref.startsWith(REF_PREFIX) && ref.endsWith('.json') ? defs[ref.slice(REF_PREFIX.length, -'.json'.length)] : undefined;
    if (!target || !accepts(target as Node, defs, v, depth + 1)) return false;
  }
  if (s.type !== undefined && !(Array.isArray(s.type) ? (s.type as string[]).some((t) => isType(t, v)) : isType(s.type as string, v))) return false;
  if (s.enum !== undefined && !(s.enum as unknown[]).some((e) => e === v || (e !== null && typeof e === 'object' && equal(e, v)))) return false;
  if (s.anyOf !== undefined && !(s.anyOf as Node[]).some((b) => accepts(b, defs, v, depth + 1))) return false;
  if (typeof v === 'string') {
    if (s.minLength !== undefined && ucs2length(v) < (s.minLength as number)) return false;
    if (s.maxLength !== undefined && ucs2length(v) > (s.maxLength as number)) return false;
    if (s.pattern !== undefined && !pattern(s.pattern as string).test(v)) return false;
    if (s.format !== undefined && !formatOk(s.format as string, v)) return false;
  } else if (typeof v === 'number') {
    if (s.minimum !== undefined && !(v >= (s.minimum as number))) return false;
    if (s.maximum !== undefined && !(v <= (s.maximum as number))) return false;
  } else if (Array.isArray(v)) {
    if (s.minItems !== undefined && v.length < (s.minItems as number)) return false;
    if (s.maxItems !== undefined && v.length > (s.maxItems as number)) return false;
    if (s.items !== undefined) {
      if (s.items === null || typeof s.items !== 'object' || Array.isArray(s.items)) return false;
      for (const item of v) if (!accepts(s.items as Node, defs, item, depth + 1)) return false;
    }
  } else if (v !== null && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (s.required !== undefined) for (const k of s.required as string[]) if (o[k] === undefined) return false;
    const props = s.properties as Record<string, Node> | undefined;
    const extra = s.additionalProperties as boolean | Node | undefined;
    // ajv goes over the keys with for…in; so does this.
    for (const k in o) {
      const sub = props !== undefined && Object.hasOwn(props, k) ? props[k] : undefined;
      if (sub !== undefined) {
        if (o[k] !== undefined && !accepts(sub, defs, o[k], depth + 1)) return false;
      } else if (extra === false) return false;
      else if (extra !== undefined && extra !== true && !accepts(extra, defs, o[k], depth + 1)) return false;
    }
  }
  return true;
}

function knows(s: Node): boolean {
  if (s === null || typeof s !== 'object') return false;
  let ok = understood.get(s);
  if (ok === undefined) {
    ok = Object.keys(s).every((k) => KNOWN.has(k));
    understood.set(s, ok);
  }
  return ok;
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

/**
 * An http(s) URL of the plainest kind: host name, port, path of unreserved characters. Every
 * such string is a URI by RFC 3986 (a property test checks it against the full format), and
 * answering it here spares each process compiling the full format's very large regular expression.
 */
export const PLAIN_HTTP_URL = /^https?:\/\/[a-z0-9](?:[a-z0-9.-]*[a-z0-9])?(?::[0-9]{1,5})?(?:\/[a-z0-9._~-]*)*$/i;

function formatOk(name: string, v: string): boolean {
  if (name === 'uri' && PLAIN_HTTP_URL.test(v)) return true;
  if (name !== 'uri' && name !== 'date-time') return false;
  const f = fullFormats[name] as unknown;
  if (typeof f === 'function') return (f as (s: string) => boolean)(v);
  if (f instanceof RegExp) return f.test(v);
  return (f as { validate: (s: string) => boolean }).validate(v);
}
