// The product's own sentence for each way a value can fail a JSON schema. Values lint and
// custom-resource validation both explain ajv's verdicts through here, so a bound reads the same
// everywhere and no validator phrasing ("must NOT have fewer than 1 items") reaches a user.
// Each sentence continues after the field's name: "`ui.replicas` <sentence>".

/** What a sentence needs to know about one failure (the fields of an ajv error it reads). */
export interface SchemaFailure {
  keyword: string;
  params: Record<string, unknown>;
  /** The offending value (for `required`, the map that lacks the key). */
  value: unknown;
}

export interface WordingOptions {
  /** Shows a value the user wrote; secrets are hidden by the caller's version. */
  show?: (value: unknown) => string;
}

/** `1 entry`, `3 entries`. */
export function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** A JSON type as a person says it: `a map`, `a list`, `an integer`. */
export function typeWord(t: string): string {
  const word = { object: 'map', array: 'list', boolean: 'boolean (true or false)', null: 'null' }[t] ?? t;
  if (word === 'null') return 'null';
  return /^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`;
}

/**
 * A value as a message shows it: scalars as written in JSON (`"two"`, `3`, `true`), shortened;
 * maps and lists by what they are (`a map`, `a list of 2 entries`), never their whole content.
 */
export function showValue(v: unknown): string {
  if (v === null || typeof v !== 'object') {
    if (typeof v === 'string') return v === '' ? 'an empty string' : quote(v);
    return v === undefined ? 'nothing' : String(v);
  }
  return describeValue(v);
}

/** What a value is, in words: `a list`, `the string "x"`, `the number 3`. */
export function describeValue(v: unknown): string {
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return v.length === 0 ? 'an empty list' : `a list of ${count(v.length, 'entry', 'entries')}`;
  if (typeof v === 'object') return 'a map';
  if (typeof v === 'string') return v === '' ? 'an empty string' : `the string ${quote(v)}`;
  if (typeof v === 'number') return `the number ${v}`;
  return `${typeof v} ${String(v)}`;
}

function quote(s: string): string {
  const j = JSON.stringify(s);
  return j.length > 60 ? `${j.slice(0, 57)}…"` : j;
}

/** Formats the CRD and values schemas name, in words. */
const FORMATS: Record<string, string> = {
  'date-time': 'a date and time in RFC 3339 form, such as 2025-01-31T09:30:00Z',
  date: 'a date such as 2025-01-31',
  time: 'a time of day such as 09:30:00Z',
  uri: 'an absolute URI with a scheme, such as https://example.com/path',
  'uri-reference': 'a URI or a relative reference',
  url: 'a URL such as https://example.com',
  email: 'an e-mail address',
  hostname: 'a host name',
  ipv4: 'an IPv4 address',
  ipv6: 'an IPv6 address',
  uuid: 'a UUID',
  duration: 'an ISO 8601 duration',
  byte: 'base64-encoded text',
  int32: 'a 32-bit integer',
  int64: 'a 64-bit integer',
  regex: 'a regular expression',
};

function list(values: readonly unknown[]): string {
  const shown = values.map((v) => JSON.stringify(v));
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1]}`;
}

function num(v: unknown): number {
  return typeof v === 'number' ? v : Number(v);
}

/**
 * The sentence for one failure, without the field's name in front. `additionalProperties` and
 * `required` name another key than the failing map's; callers usually word those themselves
 * (unknown-key hints, "is required here"), and get a fallback sentence here.
 */
export function schemaSentence(f: SchemaFailure, opts: WordingOptions = {}): string {
  const show = opts.show ?? showValue;
  const p = f.params;
  const v = f.value;
  switch (f.keyword) {
    case 'type': {
      const types = Array.isArray(p.type) ? (p.type as string[]) : String(p.type).split(',');
      return `must be ${types.map(typeWord).join(' or ')}, found ${show(v)}`;
    }
    case 'enum': {
      const allowed = (p.allowedValues as unknown[]) ?? [];
      return allowed.length === 1 ? `must be ${list(allowed)}, found ${show(v)}` : `must be one of ${list(allowed)}, found ${show(v)}`;
    }
    case 'const':
      return `must be ${JSON.stringify(p.allowedValue)}, found ${show(v)}`;
    case 'minimum':
      return `must be at least ${num(p.limit)}${int32Note(p.limit)}, found ${show(v)}`;
    case 'maximum':
      return `must be at most ${num(p.limit)}${int32Note(p.limit)}, found ${show(v)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${num(p.limit)}, found ${show(v)}`;
    case 'exclusiveMaximum':
      return `must be less than ${num(p.limit)}, found ${show(v)}`;
    case 'multipleOf':
      return `must be a multiple of ${num(p.multipleOf)}, found ${show(v)}`;
    case 'minLength': {
      const len = typeof v === 'string' ? [...v].length : 0;
      return `must be at least ${count(num(p.limit), 'character', 'characters')} long, found ${len === 0 ? 'an empty string' : count(len, 'character', 'characters')}`;
    }
    case 'maxLength': {
      const len = typeof v === 'string' ? [...v].length : 0;
      return `must be at most ${count(num(p.limit), 'character', 'characters')} long, found ${count(len, 'character', 'characters')}`;
    }
    case 'minItems': {
      const n = Array.isArray(v) ? v.length : 0;
      return `must have at least ${count(num(p.limit), 'entry', 'entries')}, found ${n === 0 ? 'an empty list' : count(n, 'entry', 'entries')}`;
    }
    case 'maxItems': {
      const n = Array.isArray(v) ? v.length : 0;
      return `must have at most ${count(num(p.limit), 'entry', 'entries')}, found ${count(n, 'entry', 'entries')}`;
    }
    case 'uniqueItems':
      return `must not list the same entry twice: entries ${String(p.j)} and ${String(p.i)} are equal`;
    case 'minProperties': {
      const n = v !== null && typeof v === 'object' ? Object.keys(v).length : 0;
      return `must have at least ${count(num(p.limit), 'key', 'keys')}, found ${n === 0 ? 'an empty map' : count(n, 'key', 'keys')}`;
    }
    case 'maxProperties': {
      const n = v !== null && typeof v === 'object' ? Object.keys(v).length : 0;
      return `must have at most ${count(num(p.limit), 'key', 'keys')}, found ${count(n, 'key', 'keys')}`;
    }
    case 'pattern':
      return `does not have the expected form (regular expression ${String(p.pattern)}), found ${show(v)}`;
    case 'format': {
      const name = String(p.format);
      return `must be ${FORMATS[name] ?? `in the ${name} format`}, found ${show(v)}`;
    }
    case 'required':
      return `lacks the required key \`${String(p.missingProperty)}\``;
    case 'dependencies':
    case 'dependentRequired':
      return `sets \`${String(p.property)}\`, which needs \`${String(p.missingProperty)}\` set as well`;
    case 'additionalProperties':
    case 'unevaluatedProperties':
      return `has the unknown key \`${String(p.additionalProperty ?? p.unevaluatedProperty)}\``;
    case 'propertyNames':
      return `has a key that is not allowed here: ${JSON.stringify(p.propertyName)}`;
    case 'additionalItems':
    case 'unevaluatedItems':
      return `has more entries than allowed (at most ${count(num(p.limit), 'entry', 'entries')})`;
    case 'contains':
    case 'minContains':
      return `must include at least ${count(num(p.minContains ?? 1), 'matching entry', 'matching entries')}`;
    case 'maxContains':
      return `must include at most ${count(num(p.maxContains), 'matching entry', 'matching entries')}`;
    case 'oneOf':
      if (Array.isArray(p.passingSchemas)) return `matches more than one of the accepted shapes, and must match exactly one, found ${show(v)}`;
      return `does not match any of the accepted shapes, found ${show(v)}`;
    case 'anyOf':
      return `does not match any of the accepted shapes, found ${show(v)}`;
    case 'not':
      return `has a value that is not allowed here, found ${show(v)}`;
    case 'false schema':
      return 'is not allowed here';
    default:
      return `does not satisfy the schema's \`${f.keyword}\` rule, found ${show(v)}`;
  }
}

/** A bound at the edge of the int32 range says why: the Kubernetes field the value lands in holds no more. */
function int32Note(limit: unknown): string {
  return limit === 2147483647 || limit === -2147483648 ? ' (the range of a 32-bit integer, which the Kubernetes field it lands in holds)' : '';
}
