// Checks an object against a Kubernetes OpenAPI schema the way the API server decodes it with
// strict field validation, every problem at once (the server stops at fewer):
// - `builtin`: a core kind (schemas/kubernetes/openapi.json). The server decodes the JSON into
//   its Go types: a key the type does not have is an unknown field, a value of another JSON type
//   cannot be decoded, an integer must fit its Go type (int32, int64), a quantity or a base64
//   field must parse, a date must be RFC 3339; `null` is the field's zero value. Enums and
//   required fields are the Go validation's: an empty string is "not set" (the server defaults
//   it or reports it as required), and so is an empty required list.
// - `crd`: a custom resource of a foreign CRD (schemas/kubernetes/crds.json). The server checks
//   the CRD's structural schema: `null` is dropped where the field is not nullable, an empty
//   string is a value like any other, and the schema's own bounds and patterns apply.
// Schema nodes reference definitions by name (`$ref`), resolved by the caller.
import { nearest } from '../problems/nearest.ts';
import { schemaSentence, showValue, typeWord } from '../problems/schema-wording.ts';
import { CRD_FORMAT_CHECKS } from './formats.ts';
import { INT64_BOUND } from '../crds/ids.ts';
import { QUANTITY_PATTERN } from '../chart/values-nodes.ts';
import { labelKeyProblem, labelValueProblem, nameProblem } from './metadata.ts';
import type { CrdRuleId } from './rules.ts';

export interface OpenapiNode {
  $ref?: string;
  type?: string;
  format?: string;
  properties?: Record<string, OpenapiNode>;
  required?: string[];
  items?: OpenapiNode;
  additionalProperties?: OpenapiNode | boolean;
  enum?: unknown[];
  anyOf?: OpenapiNode[];
  oneOf?: OpenapiNode[];
  allOf?: OpenapiNode[];
  nullable?: boolean;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  maxProperties?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
  'x-kubernetes-int-or-string'?: boolean;
  /** Bounds and enums of this node are the API server's Go validation (crd/value), not the schema's. */
  'x-agentplat-go-validation'?: boolean;
  /**
   * What the Go validation requires of the value beyond its type (crd/value): a name of an object
   * (a DNS-1123 subdomain), a map of label keys to label values, a downward-API field path.
   */
  'x-agentplat-format'?: 'object-name' | 'labels' | 'env-field-path' | 'config-key' | 'config-keys';
  /** With x-agentplat-format: an empty string is not "not set" but a bad value. */
  'x-agentplat-nonempty'?: boolean;
}

export type Path = (string | number)[];

export interface SchemaIssue {
  rule: CrdRuleId;
  path: Path;
  message: string;
  hint?: string;
  /** Where to point when not at `path` (a missing field: its parent). */
  at?: Path;
}

export type CheckMode = 'builtin' | 'crd';

export interface CheckContext {
  mode: CheckMode;
  resolve(ref: string): OpenapiNode | undefined;
  /** The schema of `metadata` in an embedded resource (ObjectMeta). */
  objectMeta?: OpenapiNode;
}

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * A resource.Quantity as the API server parses it: the quantity notation values use (a decimal
 * number and an optional suffix, binary Ki … Ei, decimal n u m k M G T P E, or an exponent e3),
 * with a sign, which the server's decoding takes (its validation then refuses negative requests).
 */
const QUANTITY = new RegExp(`^[+-]?${QUANTITY_PATTERN.slice(1)}`);

/** Base64 as Go's encoding/json decodes a []byte: the standard alphabet with padding. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** RFC 3339 as Go's time.Parse(time.RFC3339) reads it. */
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/;

export function isQuantity(v: unknown): boolean {
  if (typeof v === 'number') return Number.isFinite(v) && QUANTITY.test(String(v).replace(/e\+/, 'e'));
  return typeof v === 'string' && QUANTITY.test(v);
}

function isDateTime(s: string): boolean {
  const m = RFC3339.exec(s);
  if (!m) return false;
  const [, , mo, d, h, mi, sec, oh, om] = m.map(Number) as number[];
  return mo! >= 1 && mo! <= 12 && d! >= 1 && d! <= 31 && h! <= 23 && mi! <= 59 && sec! <= 60 && (oh === undefined || Number.isNaN(oh) || (oh <= 23 && om! <= 59));
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number' || typeof v === 'bigint') return Number.isInteger(Number(v)) ? 'integer' : 'number';
  return typeof v;
}

/** `spec.tools[0].type`; keys that are not identifiers are bracketed. */
export function pathText(path: Path): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(seg)) out += out ? `.${seg}` : seg;
    else out += `[${JSON.stringify(seg)}]`;
  }
  return out;
}

const where = (path: Path): string => pathText(path) || 'object';

function deref(node: OpenapiNode, ctx: CheckContext): OpenapiNode {
  let n = node;
  for (let i = 0; n.$ref !== undefined && i < 8; i++) {
    const target = ctx.resolve(n.$ref);
    if (target === undefined) throw new Error(`schema reference ${n.$ref} is not defined`);
    const { $ref: _, ...rest } = n;
    n = Object.keys(rest).length === 0 ? target : { ...target, ...rest };
  }
  return n;
}

/** True when `v` is empty the way Go validation's "required" sees it: unset, "" or []. */
function emptyForGo(v: unknown): boolean {
  return v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
}

/** The problems of `data` against `root`; `data` is not changed. */
export function checkOpenapi(root: OpenapiNode, data: unknown, ctx: CheckContext, base: Path = []): SchemaIssue[] {
  const out: SchemaIssue[] = [];
  walk(root, data, base, ctx, out, 0);
  return out;
}

function walk(node0: OpenapiNode, v: unknown, path: Path, ctx: CheckContext, out: SchemaIssue[], depth: number): void {
  if (depth > 200) {
    out.push({ rule: 'crd/schema', path, message: `${where(path)} nests too deeply to be checked` });
    return;
  }
  const node = deref(node0, ctx);
  const builtin = ctx.mode === 'builtin';
  if (v === null) {
    // Go decodes null as the zero value; a structural schema drops it where not nullable (the
    // caller has pruned those of known fields), and keeps it where nullable.
    if (builtin || node.nullable) return;
    out.push({ rule: 'crd/schema', path, message: `${where(path)} must not be null` });
    return;
  }
  const schema = (message: string, hint?: string): void => void out.push({ rule: 'crd/schema', path, message: `${where(path)} ${message}`, ...(hint ? { hint } : {}) });
  // A value outside the bounds or enum the API server's Go validation adds to the schema's.
  const bound = node['x-agentplat-go-validation'] ? (message: string, hint?: string): void => void out.push({ rule: 'crd/value', path, message: `${where(path)} ${message}`, ...(hint ? { hint } : {}) }) : schema;
  const isIntOrString = node.format === 'int-or-string' || node['x-kubernetes-int-or-string'] === true;
  if (isIntOrString) {
    if (typeof v === 'string') return checkString(node, v, ctx, bound);
    if (jsonType(v) !== 'integer') return schema(`must be an integer or a string, found ${showValue(v)}`);
    // IntOrString holds an int32.
    if (builtin && (Number(v) < INT32_MIN || Number(v) > INT32_MAX)) return schema(`must be a string or an integer from -2147483648 to 2147483647 (int32), found ${showValue(v)}`);
    return checkNumber(node, Number(v), bound);
  }
  if (node.format === 'quantity') {
    if ((typeof v === 'string' || typeof v === 'number') && isQuantity(v)) return;
    return schema(
      typeof v === 'string' || typeof v === 'number' ? `must be a quantity, found ${showValue(v)}` : `must be a quantity (a string or a number), found ${showValue(v)}`,
      'a quantity is a number with an optional suffix: 500m, 1.5, 128Mi, 2Gi, 1e3',
    );
  }
  if (node.anyOf !== undefined && node.type === undefined) {
    // The schema-or-bool, schema-or-array forms: the branch of the value's JSON type decides.
    const t = jsonType(v);
    const branch = node.anyOf.find((b) => {
      const bt = deref(b, ctx).type;
      return bt === undefined || bt === t || (bt === 'number' && t === 'integer') || (bt === 'object' && t === 'object');
    });
    if (branch === undefined) return schema(`must be ${[...new Set(node.anyOf.map((b) => typeWord(deref(b, ctx).type ?? 'object')))].join(' or ')}, found ${showValue(v)}`);
    walk(branch, v, path, ctx, out, depth + 1);
    return;
  }
  const type = node.type;
  if (type === undefined && node.properties === undefined && node.items === undefined && node.additionalProperties === undefined) {
    // Anything (raw JSON), unless the node is an embedded resource or an object of its own.
    if (!node['x-kubernetes-embedded-resource']) return;
  }
  switch (type) {
    case 'string':
      if (typeof v !== 'string') return schema(`must be a string, found ${showValue(v)}`);
      return checkString(node, v, ctx, bound);
    case 'boolean':
      if (typeof v !== 'boolean') return schema(`must be a boolean (true or false), found ${showValue(v)}`);
      return checkEnum(node, v, ctx, schema);
    case 'integer': {
      if (jsonType(v) !== 'integer') return schema(`must be an integer, found ${showValue(v)}`);
      const n = Number(v);
      if (node.format === 'int32' && (n < INT32_MIN || n > INT32_MAX)) return schema(`must be an integer from -2147483648 to 2147483647 (int32), found ${showValue(v)}`);
      if (n < -INT64_BOUND || n >= INT64_BOUND) return schema(`must be an integer from -2^63 to 2^63-1 (int64), found ${showValue(v)}`);
      checkNumber(node, n, bound);
      return checkEnum(node, v, ctx, bound);
    }
    case 'number':
      if (typeof v !== 'number' && typeof v !== 'bigint') return schema(`must be a number, found ${showValue(v)}`);
      if (!Number.isFinite(Number(v))) return schema(`must be a finite number, found ${showValue(v)}`);
      return checkNumber(node, Number(v), bound);
    case 'array':
      if (!Array.isArray(v)) return schema(`must be a list, found ${showValue(v)}`);
      if (node.minItems !== undefined && v.length < node.minItems) schema(schemaSentence({ keyword: 'minItems', params: { limit: node.minItems }, value: v }));
      if (node.maxItems !== undefined && v.length > node.maxItems) schema(schemaSentence({ keyword: 'maxItems', params: { limit: node.maxItems }, value: v }));
      if (node.items !== undefined) {
        const items = node.items;
        v.forEach((item, i) => walk(items, item === null && builtin ? zeroOf(items, ctx) : item, [...path, i], ctx, out, depth + 1));
      }
      return;
    case 'object':
    case undefined:
      if (!isObject(v)) return schema(`must be a map, found ${showValue(v)}`);
      return checkObject(node, v, path, ctx, out, depth);
    default:
      return schema(`has a schema of unknown type ${String(type)}`);
  }
}

/** The value Go decodes a `null` list item to: the zero value of the item's type. */
function zeroOf(node: OpenapiNode, ctx: CheckContext): unknown {
  const n = deref(node, ctx);
  if (n.format === 'int-or-string' || n.format === 'quantity') return 0;
  switch (n.type) {
    case 'string':
      return '';
    case 'integer':
    case 'number':
      return 0;
    case 'boolean':
      return false;
    case 'array':
      return [];
    default:
      return n.properties !== undefined ? {} : null;
  }
}

function checkEnum(node: OpenapiNode, v: unknown, ctx: CheckContext, schema: (m: string, h?: string) => void): void {
  if (node.enum === undefined || node.enum.some((e) => e === v)) return;
  // An empty string is "not set" to a built-in type: its default or its absence applies.
  if (ctx.mode === 'builtin' && v === '') return;
  const guess = typeof v === 'string' ? nearest(v, node.enum.map(String)) : undefined;
  schema(schemaSentence({ keyword: 'enum', params: { allowedValues: node.enum }, value: v }), guess ? `did you mean ${guess}?` : undefined);
}

/** Why `key` cannot be a key of a ConfigMap's or Secret's data (a file name in a volume), or undefined. */
export function configKeyProblem(key: string): string | undefined {
  if (key === '') return 'it is empty';
  if (key.length > 253) return `it must be at most 253 characters, and it has ${key.length}`;
  if (!/^[-._a-zA-Z0-9]+$/.test(key)) return 'it must be letters, digits, "-", "_" and "."';
  if (key === '.' || key === '..' || key.startsWith('..')) return 'it must not be "." or start with ".."';
  return undefined;
}

/** The field paths a container's env can read through the downward API (fieldRef). */
const ENV_FIELD_PATHS = new Set(['metadata.name', 'metadata.namespace', 'metadata.uid', 'metadata.labels', 'metadata.annotations', 'spec.nodeName', 'spec.serviceAccountName', 'status.hostIP', 'status.hostIPs', 'status.podIP', 'status.podIPs']);

function checkString(node: OpenapiNode, v: string, ctx: CheckContext, schema: (m: string, h?: string) => void): void {
  checkEnum(node, v, ctx, schema);
  const special = node['x-agentplat-format'];
  if (special !== undefined && (v !== '' || node['x-agentplat-nonempty'])) {
    if (special === 'object-name') {
      const why = v === '' ? 'it is empty' : nameProblem(v, 'ConfigMap');
      if (why) schema(`${JSON.stringify(v)} is not an object name: ${why}`, 'names are lower-case letters, digits, "-" and ".", e.g. my-config');
    } else if (special === 'config-key') {
      const why = configKeyProblem(v);
      if (why) schema(`${JSON.stringify(v)} is not a key of a ConfigMap or Secret: ${why}`, 'keys are letters, digits, "-", "_" and ".", e.g. config.yaml or API_KEY');
    } else if (special === 'env-field-path' && !ENV_FIELD_PATHS.has(v) && !/^metadata\.(labels|annotations)\['[^']+'\]$/.test(v)) {
      schema(`${JSON.stringify(v)} is not a field a container can read: ${[...ENV_FIELD_PATHS].join(', ')} or metadata.labels['key'] / metadata.annotations['key']`);
    }
  }
  if (node.minLength !== undefined && [...v].length < node.minLength) schema(schemaSentence({ keyword: 'minLength', params: { limit: node.minLength }, value: v }));
  if (node.maxLength !== undefined && [...v].length > node.maxLength) schema(schemaSentence({ keyword: 'maxLength', params: { limit: node.maxLength }, value: v }));
  if (node.pattern !== undefined && !patternOf(node.pattern).test(v)) schema(schemaSentence({ keyword: 'pattern', params: { pattern: node.pattern }, value: v }));
  switch (node.format) {
    case 'byte':
      if (!BASE64.test(v)) schema(`must be base64-encoded text, found ${showValue(v)}`, 'encode the value with `base64 -w0`, or give it as text under stringData');
      return;
    case 'date-time':
      if (!isDateTime(v)) schema(`must be a date and time in RFC 3339 form, such as 2025-01-31T09:30:00Z, found ${showValue(v)}`);
      return;
    case undefined:
    case 'int-or-string':
      return;
    default: {
      if (ctx.mode !== 'crd' || !Object.hasOwn(CRD_FORMAT_CHECKS, node.format)) return;
      const f = CRD_FORMAT_CHECKS[node.format]!;
      if ('type' in f && f.type === 'number') return;
      const ok = typeof f === 'function' ? f(v) : (f.validate as (s: string) => boolean)(v);
      if (!ok) schema(schemaSentence({ keyword: 'format', params: { format: node.format }, value: v }));
    }
  }
}

function checkNumber(node: OpenapiNode, n: number, schema: (m: string) => void): void {
  if (node.minimum !== undefined) {
    if (node.exclusiveMinimum === true ? !(n > node.minimum) : !(n >= node.minimum)) schema(schemaSentence({ keyword: node.exclusiveMinimum === true ? 'exclusiveMinimum' : 'minimum', params: { limit: node.minimum }, value: n }));
  }
  if (node.maximum !== undefined) {
    if (node.exclusiveMaximum === true ? !(n < node.maximum) : !(n <= node.maximum)) schema(schemaSentence({ keyword: node.exclusiveMaximum === true ? 'exclusiveMaximum' : 'maximum', params: { limit: node.maximum }, value: n }));
  }
}

const patterns = new Map<string, RegExp>();
function patternOf(p: string): RegExp {
  let re = patterns.get(p);
  if (!re) patterns.set(p, (re = new RegExp(p, 'u')));
  return re;
}

const EMBEDDED_KEYS = new Set(['apiVersion', 'kind', 'metadata']);

function checkObject(node: OpenapiNode, v: Record<string, unknown>, path: Path, ctx: CheckContext, out: SchemaIssue[], depth: number): void {
  const builtin = ctx.mode === 'builtin';
  const props = node.properties;
  const extra = node.additionalProperties;
  const keepsUnknown = node['x-kubernetes-preserve-unknown-fields'] === true || extra === true;
  const embedded = node['x-kubernetes-embedded-resource'] === true;
  for (const k of node.required ?? []) {
    const value = v[k];
    const missing = builtin ? emptyForGo(value) : value === undefined;
    if (missing) {
      const empty = value === undefined || value === null ? '' : `, and ${showValue(value)} is not a value`;
      out.push({ rule: 'crd/schema', path: [...path, k], message: `${pathText([...path, k])} is required${empty}`, at: value === undefined ? path : [...path, k] });
    }
  }
  if (!builtin) {
    const n = Object.keys(v).length;
    if (node.minProperties !== undefined && n < node.minProperties) out.push({ rule: 'crd/schema', path, message: `${where(path)} must have at least ${node.minProperties} entries, found ${n}` });
    if (node.maxProperties !== undefined && n > node.maxProperties) out.push({ rule: 'crd/schema', path, message: `${where(path)} must have at most ${node.maxProperties} entries, found ${n}` });
  }
  if (node['x-agentplat-format'] === 'config-keys') {
    for (const k of Object.keys(v)) {
      const why = configKeyProblem(k);
      if (why) out.push({ rule: 'crd/value', path: [...path, k], message: `${pathText([...path, k])}: ${JSON.stringify(k)} is not a key of a ConfigMap or Secret: ${why}`, hint: 'keys are letters, digits, "-", "_" and ".", e.g. config.yaml or API_KEY' });
    }
  }
  if (node['x-agentplat-format'] === 'labels') {
    for (const [k, value] of Object.entries(v)) {
      const why = labelKeyProblem(k) ?? (typeof value === 'string' ? labelValueProblem(value) : undefined);
      if (why) out.push({ rule: 'crd/value', path: [...path, k], message: `${pathText([...path, k])}: label ${JSON.stringify(k)}${typeof value === 'string' ? `: ${JSON.stringify(value)}` : ''} is not valid: ${why}`, hint: 'a label key is name or prefix/name (e.g. app or example.com/team); a value is at most 63 letters, digits, "-", "_" and "."' });
    }
  }
  for (const [k, value] of Object.entries(v)) {
    const sub = props !== undefined && Object.hasOwn(props, k) ? props[k] : undefined;
    if (sub !== undefined) {
      // A custom resource's null in a field that is not nullable is dropped, as the server does.
      if (value === null && !builtin && !deref(sub, ctx).nullable) continue;
      walk(sub, value, [...path, k], ctx, out, depth + 1);
    } else if (typeof extra === 'object') {
      walk(extra, value === null && builtin ? zeroOf(extra, ctx) : value, [...path, k], ctx, out, depth + 1);
    } else if (embedded && EMBEDDED_KEYS.has(k)) {
      if (k === 'metadata' && ctx.objectMeta) walk(ctx.objectMeta, value, [...path, k], ctx, out, depth + 1);
      else if (k !== 'metadata' && typeof value !== 'string') out.push({ rule: 'crd/schema', path: [...path, k], message: `${pathText([...path, k])} must be a string, found ${showValue(value)}` });
    } else if (!keepsUnknown) {
      const fields = [...(props ? Object.keys(props) : []), ...(embedded ? [...EMBEDDED_KEYS] : [])];
      const guess = nearest(k, fields);
      out.push({
        rule: 'crd/unknown-field',
        path: [...path, k],
        message: `unknown field ${pathText([...path, k])}`,
        hint: guess ? `did you mean ${guess}?` : fields.length ? `known fields: ${fields.join(', ')}` : `${where(path)} takes no fields`,
      });
    }
  }
}
