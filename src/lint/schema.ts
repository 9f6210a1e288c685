// Turns the values schema's verdict (ajv errors) into findings a person can act on: the key path,
// what was expected, what was found (never a secret value), and a fix — "did you mean …" for a
// misspelled key, "exists only in revision A" for a key of the other revision.

import type { ErrorObject } from 'ajv';
import { readPackageFile } from '../package-root.ts';
import { otherRevision, REVISION_IDS, type Revision } from '../chart/revisions.ts';
import type { PathSegment } from '../values/source.ts';
import { describe } from '../values/source.ts';
import { getPath, joinPath, splitPath } from '../values/merge.ts';
import type { RuleFinding } from './rules/types.ts';
import { valuesSchemaAccepts, valuesValidator } from './schema-validators.ts';
import type { Touched } from '../chart/schema-accepts.ts';
import { bigIntsAsNumbers } from '../values/big-integers.ts';
import { VALUES_SECRETS } from '../problems/secrets.ts';
import { didYouMean, nearest } from '../problems/nearest.ts';
import { oddCharacter, visibleText, withoutOddCharacters, type OddCharacter } from '../problems/invisible.ts';
import { replacementHint } from '../chart/replacements.ts';
import { schemaSentence, showValue, typeWord } from '../problems/schema-wording.ts';

type SchemaNode = {
  type?: string | string[];
  properties?: Record<string, SchemaNode>;
  patternProperties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  enum?: unknown[];
  pattern?: string;
  $ref?: string;
  definitions?: Record<string, SchemaNode>;
  description?: string;
  'x-agentplat-secret'?: boolean;
  'x-agentplat-kind'?: string;
};

const schemaCache = new Map<Revision, SchemaNode>();

/** The values schema of a revision as data (read only when a hint needs it). */
export function valuesSchema(revision: Revision): SchemaNode {
  let s = schemaCache.get(revision);
  if (!s) {
    s = JSON.parse(readPackageFile('schemas', `values-${revision.toLowerCase()}.schema.json`)) as SchemaNode;
    schemaCache.set(revision, s);
  }
  return s;
}

/**
 * Validates merged values; returns findings with values paths (rule `values/schema` or
 * `values/unknown-key`). `touched`: the paths the user's layers write (the rest is the defaults).
 */
export function checkSchema(revision: Revision, values: unknown, skipPath: (path: string) => boolean = () => false, touched?: Touched): RuleFinding[] {
  // An int64 past 2^53 (a BigInt from --set) is an integer to the schema.
  const typed = bigIntsAsNumbers(values);
  if (valuesSchemaAccepts(revision, typed, touched)) return [];
  const validate = valuesValidator(revision);
  if (validate(typed)) return [];
  // The bundled validators are generated without ajv's `verbose` option (much smaller code), so
  // the schema node and the offending value are looked up here, only when there are errors.
  const errors = pruneBranchErrors(
    ((validate.errors ?? []) as ErrorObject[]).map((e) => ({
      ...e,
      parentSchema: e.parentSchema ?? nodeAtSchemaPath(revision, e.schemaPath),
      data: e.data !== undefined ? e.data : getPath(values, pointerToPath(e.instancePath)),
    })),
    valuesSchema(revision),
  );
  const out: RuleFinding[] = [];
  const seen = new Set<string>();
  for (const e of errors) {
    const found = toFinding(revision, e);
    if (!found) continue;
    const f = withEmptyBracesHint(found, values);
    if (skipPath(typeof f.path === 'string' ? f.path : joinPath(f.path))) continue;
    // A value of the wrong kind fails the chart's own schema and the Kubernetes type it extends
    // alike: one "must be …" per key says it.
    const shape = e.keyword === 'type' || e.keyword === 'anyOf' || e.keyword === 'oneOf';
    const key = `${joinPath(f.path as PathSegment[])}\u0000${shape ? 'shape' : f.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(f);
  }
  return out;
}

/**
 * `--set key={}` is a list of one empty string, as in helm, not an empty list or map: a finding on
 * such a list's one item (a list of names wants no empty name) or on such a list where a map
 * belongs tells a user of --set or --set-string to write the empty value with --set-json.
 */
function withEmptyBracesHint(f: RuleFinding, values: unknown): RuleFinding {
  if (f.rule !== 'values/schema') return f;
  const path = typeof f.path === 'string' ? splitPath(f.path) : f.path;
  const oneEmpty = (v: unknown) => Array.isArray(v) && v.length === 1 && v[0] === '';
  let hint: string | undefined;
  if (path[path.length - 1] === 0 && oneEmpty(getPath(values, path.slice(0, -1)))) {
    hint = `to set an empty list, use --set-json '${joinPath(path.slice(0, -1))}=[]'`;
  } else if (oneEmpty(getPath(values, path)) && /must be a map/.test(f.message)) {
    hint = `to set an empty map, use --set-json '${joinPath(path)}={}'`;
  }
  if (hint === undefined) return f;
  const why = (flag: string) => `${flag} reads \`{}\` as a list of one empty string, as helm does: ${hint}`;
  return { ...f, hintFor: { ...f.hintFor, '--set': why('--set'), '--set-string': why('--set-string') } };
}

function pointerToPath(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/**
 * anyOf/oneOf report one error per failed branch. When the value's type selects exactly one
 * branch, keep that branch's errors (they are precise); otherwise keep one summary error.
 * An error belongs to the alternatives that enclose it: same or deeper instance path, schema path
 * inside one of their branches. Each error finds them by lookup, not by a scan of the others, so
 * a list of thousands of wrong entries costs thousands of steps, not millions.
 */
export function pruneBranchErrors(errors: ErrorObject[], root?: SchemaNode): ErrorObject[] {
  const isBranchy = (e: ErrorObject) => e.keyword === 'anyOf' || e.keyword === 'oneOf';
  if (!errors.some(isBranchy)) return errors;
  const key = (instancePath: string, schemaPath: string) => `${instancePath}\u0000${schemaPath}`;
  /** Per alternative: the branch its value's type selects, or -1 (none or several: keep the summary). */
  const chosen = new Map<ErrorObject, number>();
  const byKey = new Map<string, ErrorObject>();
  /** A branch that is a `$ref`: its errors carry the definition's schema path, not the branch's. */
  const byRef = new Map<string, { b: ErrorObject; branch: number }>();
  for (const b of errors) {
    if (!isBranchy(b)) continue;
    byKey.set(key(b.instancePath, b.schemaPath), b);
    const branches = ((b.parentSchema as SchemaNode | undefined)?.[b.keyword as 'anyOf' | 'oneOf'] ?? []) as SchemaNode[];
    branches.forEach((br, i) => {
      if (br.$ref?.startsWith('#/')) byRef.set(key(b.instancePath, `${br.$ref}/`), { b, branch: i });
    });
    const t = jsonType(b.data);
    // A `$ref` branch is judged by the definition it names (its type, not "any").
    const matching = branches.flatMap((br, i) => (typeMatches((root && resolve(root, br)) ?? br, t) ? [i] : []));
    chosen.set(b, matching.length === 1 ? matching[0]! : -1);
  }
  /** The alternatives enclosing `e`, innermost first, each with the branch `e` sits in. */
  const enclosing = (e: ErrorObject): { b: ErrorObject; branch: number }[] => {
    const out: { b: ErrorObject; branch: number }[] = [];
    const prefixes: string[] = [];
    for (let i = e.instancePath.length; i >= 0; i = e.instancePath.lastIndexOf('/', i - 1)) {
      prefixes.push(e.instancePath.slice(0, i));
      if (i === 0) break;
    }
    const re = /\/(anyOf|oneOf)\/(\d+)(?=\/|$)/g;
    const found: { b: ErrorObject; branch: number }[] = [];
    for (let m = re.exec(e.schemaPath); m; m = re.exec(e.schemaPath)) {
      const at = e.schemaPath.slice(0, m.index + m[1]!.length + 1);
      for (const ip of prefixes) {
        const b = byKey.get(key(ip, at));
        if (b && b !== e) {
          found.push({ b, branch: Number(m[2]) });
          break;
        }
      }
    }
    for (let i = found.length - 1; i >= 0; i--) out.push(found[i]!);
    const def = /^#\/(?:definitions|\$defs)\/[^/]+\//.exec(e.schemaPath)?.[0];
    if (def && out.length === 0) {
      for (const ip of prefixes) {
        const hit = byRef.get(key(ip, def));
        if (hit && hit.b !== e) {
          out.push(hit);
          break;
        }
      }
    }
    return out;
  };
  const allowed = (chain: { b: ErrorObject; branch: number }[]) => chain.every(({ b, branch }) => chosen.get(b) === branch);
  const keep = new Set<ErrorObject>();
  /** Per alternative with a chosen branch: how many errors inside that branch are kept. */
  const keptInside = new Map<ErrorObject, number>();
  const count = (chain: { b: ErrorObject; branch: number }[]) => {
    for (const { b, branch } of chain) if (chosen.get(b) === branch) keptInside.set(b, (keptInside.get(b) ?? 0) + 1);
  };
  for (const e of errors) {
    if (isBranchy(e)) continue;
    const chain = enclosing(e);
    if (allowed(chain)) {
      keep.add(e);
      count(chain);
    }
  }
  // Innermost alternatives first: whether one stays decides whether its enclosing ones have an error left.
  const alternatives = errors.filter(isBranchy).map((b) => ({ b, chain: enclosing(b) })).sort((x, y) => y.chain.length - x.chain.length);
  for (const { b, chain } of alternatives) {
    if (!allowed(chain)) continue;
    // A branch chosen by type with no error of its own left means the alternative failed elsewhere.
    if (chosen.get(b) === -1 || !keptInside.get(b)) {
      keep.add(b);
      count(chain);
    }
  }
  return errors.filter((e) => keep.has(e));
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  if (typeof v === 'bigint') return 'integer';
  return typeof v;
}

function typeMatches(s: SchemaNode, t: string): boolean {
  if (!s.type) return !s.$ref && !s.enum ? false : true;
  const types = Array.isArray(s.type) ? s.type : [s.type];
  return types.includes(t) || (t === 'integer' && types.includes('number'));
}

function show(value: unknown, secret: boolean): string {
  if (secret) return `${describe(value)} (value hidden)`;
  return showValue(value);
}

function toFinding(revision: Revision, e: ErrorObject): RuleFinding | undefined {
  const path = pointerToPath(e.instancePath);
  const where = joinPath(path) || 'the top level';
  const parent = (e.parentSchema ?? {}) as SchemaNode;
  const secret = Boolean(parent['x-agentplat-secret']) || VALUES_SECRETS.covers(path);
  const p = e.params as Record<string, unknown>;
  const sentence = (): string => `\`${where}\` ${schemaSentence({ keyword: e.keyword, params: p, value: e.data }, { show: (v) => show(v, secret) })}`;
  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(p.additionalProperty);
      const full = [...path, key];
      const value = isMapData(e.data) ? e.data[key] : undefined;
      const odd = oddCharacter(key);
      if (odd) return oddKeyFinding(revision, path, key, parent, value, odd);
      const other = revisionWithKey(revision, full);
      return {
        rule: 'values/unknown-key',
        severity: 'error',
        path: full,
        message: `unknown key \`${joinPath(full)}\` in revision ${revision}`,
        ...unknownKeyHint(revision, path, key, parent, value, other),
        ...(other ? { onlyInRevision: other } : {}),
      };
    }
    case 'type': {
      const want = Array.isArray(p.type) ? (p.type as string[]).join(' or ') : String(p.type);
      // The key written in the shape the other revision gives it (ui.env as a list or a map).
      const shape = replacementHint(revision, joinPath(path), e.data, true);
      return { rule: 'values/schema', severity: 'error', path, message: sentence(), ...(shape ? { hint: shape, onlyInRevision: otherRevision(revision) } : typeHint(want, e.data)) };
    }
    case 'enum': {
      const other = otherRevisionValue(revision, path, e.data);
      return {
        rule: 'values/schema',
        severity: 'error',
        path,
        message: sentence(),
        hint: other?.hint ?? didYouMean(String(e.data), (p.allowedValues as unknown[]).map(String)),
        ...(other ? { onlyInRevision: other.revision } : {}),
        ...enumFix(other ? undefined : e.data, p.allowedValues as unknown[]),
      };
    }
    case 'pattern': {
      const kind = patternKind(parent);
      return {
        rule: 'values/schema',
        severity: 'error',
        path,
        message: kind ? `\`${where}\` must be ${kind.what}, found ${show(e.data, secret)}` : sentence(),
        ...(kind ? { hint: kind.hint } : {}),
      };
    }
    case 'required': {
      const key = String(p.missingProperty);
      return { rule: 'values/schema', severity: 'error', path: [...path, key], message: `\`${joinPath([...path, key])}\` is required here`, hint: `add \`${key}:\` under \`${where}\`` };
    }
    case 'anyOf':
    case 'oneOf': {
      const branches = (parent[e.keyword] ?? []) as SchemaNode[];
      const types = [...new Set(branches.flatMap((b) => (b.type ? (Array.isArray(b.type) ? b.type : [b.type]) : ['object'])))];
      return { rule: 'values/schema', severity: 'error', path, message: `\`${where}\` must be ${types.map(typeWord).join(' or ')}, found ${show(e.data, secret)}` };
    }
    case 'if':
    case 'propertyNames':
      return undefined;
    default:
      return { rule: 'values/schema', severity: 'error', path, message: sentence() };
  }
}

type Hints = Pick<RuleFinding, 'hint' | 'hintFor'>;

/**
 * How to write a value of the wanted type, in the words of the input it came from: quotes in a
 * file, the right flag on the command line (--set types true, false, null and whole numbers only;
 * a number with leading zeros stays a string, as in Helm).
 */
function typeHint(want: string, data: unknown): Hints {
  const wantsInteger = want.includes('integer');
  const wantsNumber = wantsInteger || want.includes('number');
  if (want.includes('boolean') && typeof data === 'string' && /^(true|false|yes|no|on|off)$/i.test(data)) {
    const word = /^(true|yes|on)$/i.test(data) ? 'true' : 'false';
    return {
      hint: 'write true or false without quotes (YAML 1.2: yes/no/on/off are strings)',
      hintFor: {
        '--set': `write ${word}: --set keeps yes, no, on and off as strings`,
        '--set-string': /^(true|false)$/.test(data) ? 'use --set, not --set-string: --set types true and false' : `use --set and write ${word}`,
        '--set-json': `write ${word} without quotes in the JSON`,
      },
    };
  }
  if (wantsNumber && typeof data === 'number' && wantsInteger && !want.includes('number') && !Number.isInteger(data)) {
    return { hint: `write a whole number, such as ${Math.floor(data)}` };
  }
  if (wantsNumber && typeof data === 'string' && /^[-+]?\d+(\.\d+)?$/.test(data)) {
    const n = Number(data);
    if (wantsInteger && !want.includes('number') && !Number.isInteger(n)) return { hint: `write a whole number, such as ${Math.floor(n)}` };
    if (!Number.isInteger(n)) {
      return { hint: 'write the number without quotes', hintFor: { '--set': `use --set-json for a number with a fraction: --set types whole numbers only`, '--set-string': 'use --set-json for a number with a fraction' } };
    }
    const plain = String(n);
    if (plain !== data.replace(/^\+/, '')) {
      // Leading zeros (or a sign) keep the text a string on the command line.
      return {
        hint: `write ${plain} without quotes`,
        hintFor: { '--set': `write ${plain}: --set keeps a number with leading zeros as a string`, '--set-string': `use --set and write ${plain}`, '--set-json': `write ${plain} without quotes in the JSON` },
      };
    }
    return {
      hint: 'write the number without quotes',
      hintFor: { '--set-string': 'use --set, not --set-string: --set types whole numbers', '--set-json': 'write the number without quotes in the JSON' },
    };
  }
  if (want.includes('string') && (typeof data === 'number' || typeof data === 'bigint' || typeof data === 'boolean')) {
    return {
      hint: 'quote the value to make it a string',
      hintFor: {
        '--set': 'use --set-string to keep it a string: --set types true, false, null and whole numbers',
        '--set-json': 'quote it in the JSON to make it a string',
      },
    };
  }
  if (want === 'object' && data === null) return { hint: 'write `{}` for an empty map, or remove the key to keep the default' };
  return {};
}

function patternKind(node: SchemaNode): { what: string; hint: string } | undefined {
  const kind = node['x-agentplat-kind'] ?? '';
  const pat = node.pattern ?? '';
  if (kind === 'quantity' || /Mi|Gi|\[KMGTPE\]i/.test(pat)) return { what: 'a Kubernetes quantity such as 128Mi, 1Gi, 500m or 2', hint: 'use binary suffixes Ki/Mi/Gi (not MB/GB) and m for milli-CPU' };
  if (/%\|100%/.test(pat)) return { what: 'a whole number (unquoted) or a percentage such as 50%', hint: 'write a count without quotes (1), or a percentage in quotes ("50%")' };
  if (kind === 'duration' || /ms\||\|h\)|s\|m\|h/.test(pat)) return { what: 'a duration such as 30s, 30m or 1h', hint: 'write a number followed by ms, s, m or h (e.g. 1h30m)' };
  return undefined;
}

/** The schema node holding the keyword at `schemaPath` (`#/properties/a/type` → the node of `a`). */
function nodeAtSchemaPath(revision: Revision, schemaPath: string): SchemaNode | undefined {
  const parts = schemaPath.replace(/^#\/?/, '').split('/').filter(Boolean).map((s) => decodeURIComponent(s).replace(/~1/g, '/').replace(/~0/g, '~'));
  parts.pop();
  let node: unknown = valuesSchema(revision);
  for (const p of parts) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[p];
  }
  return node as SchemaNode | undefined;
}

/** The schema node that describes `path` in a revision (following properties, patterns and items). */
export function schemaAt(revision: Revision, path: readonly PathSegment[]): SchemaNode | undefined {
  const root = valuesSchema(revision);
  let node: SchemaNode | undefined = root;
  for (const seg of path) {
    node = resolve(root, node);
    if (!node) return undefined;
    if (typeof seg === 'number') {
      node = node.items;
      continue;
    }
    // Own properties only: a key named `toString` or `constructor` is the user's, not Object's.
    let next: SchemaNode | undefined = node.properties && Object.hasOwn(node.properties, seg) ? node.properties[seg] : undefined;
    if (!next && node.patternProperties) {
      for (const [re, sub] of Object.entries(node.patternProperties)) if (new RegExp(re, 'u').test(seg)) next = sub;
    }
    if (!next && typeof node.additionalProperties === 'object') next = node.additionalProperties;
    if (!next) {
      for (const alt of [...(node.anyOf ?? []), ...(node.oneOf ?? [])]) {
        const r = resolve(root, alt);
        if (r?.properties && Object.hasOwn(r.properties, seg)) next = r.properties[seg];
      }
    }
    node = next;
  }
  return resolve(root, node);
}

function resolve(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  let n = node;
  for (let i = 0; n?.$ref && i < 10; i++) {
    const m = /^#\/(definitions|\$defs)\/(.+)$/.exec(n.$ref);
    n = m ? ((root as Record<string, Record<string, SchemaNode>>)[m[1]!]?.[decodeURIComponent(m[2]!)]) : undefined;
  }
  return n;
}

const isMapData = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The other revision whose values have the key at `path`, which `revision` does not know. */
function revisionWithKey(revision: Revision, path: readonly PathSegment[]): Revision | undefined {
  return REVISION_IDS.find((other) => other !== revision && schemaAt(other, path) !== undefined);
}

/** The hint of an unknown key and, when it is a did-you-mean, the key meant (the editor's quick fix). */
function unknownKeyHint(revision: Revision, parentPath: readonly PathSegment[], key: string, parent: SchemaNode, value: unknown, other: Revision | undefined): { hint?: string; fix?: { replace: string } } {
  const full = joinPath([...parentPath, key]);
  // A key the specification leaves out on purpose: name what replaces it (chart/replacements.ts).
  const replacement = replacementHint(revision, full, value);
  if (other) {
    const area = /^[a-z-]+-agent$/.test(key) && parentPath.length === 0;
    if (area) return { hint: `\`${key}\` is a bundled agent of revision ${other}; revision ${revision} ships none — declare your own Agent resources instead` };
    return { hint: replacement ? `\`${full}\` exists only in revision ${other}: ${replacement}` : `\`${full}\` exists only in revision ${other}; remove it, or lint with --revision ${other}` };
  }
  if (replacement) return { hint: replacement };
  const known = Object.keys(parent.properties ?? {});
  const guess = nearest(key, known);
  if (guess !== undefined) return { hint: didYouMean(key, [guess])!, fix: { replace: guess } };
  if (known.length > 0 && known.length <= 12) return { hint: `known keys here: ${known.join(', ')}` };
  return {};
}

/**
 * An unknown key that holds a character the user cannot see, or a letter of another script drawn
 * like a Latin one: the message names the character and its place in the key (the problem's
 * column points at it, lint.ts), the hint is to delete or retype it, with what the key then is.
 */
function oddKeyFinding(revision: Revision, parentPath: readonly PathSegment[], key: string, parent: SchemaNode, value: unknown, odd: OddCharacter): RuleFinding {
  const shown = visibleText(joinPath([...parentPath, key]));
  const where = `character ${odd.index + 1} of the key`;
  const what = odd.looksLike === undefined ? `an invisible character, ${odd.name}, at ${where}` : `${odd.name} at ${where}, drawn like the Latin \`${odd.looksLike}\``;
  const fix = odd.looksLike === undefined ? 'delete the character' : `type the Latin \`${odd.looksLike}\` instead`;
  const cleaned = withoutOddCharacters(key);
  const then = cleaned === '' ? undefined : schemaAt(revision, [...parentPath, cleaned]) ? didYouMean(cleaned, [cleaned]) : unknownKeyHint(revision, parentPath, cleaned, parent, value, revisionWithKey(revision, [...parentPath, cleaned])).hint;
  return {
    rule: 'values/unknown-key',
    severity: 'error',
    path: [...parentPath, key],
    message: `unknown key \`${shown}\` in revision ${revision}: it holds ${what}`,
    hint: then === undefined ? fix : `${fix}: ${then}`,
    keyCharacter: odd.index,
  };
}

/** The other revision that accepts the word `value` at `path`, which `revision` refuses, and the hint that says so. */
function otherRevisionValue(revision: Revision, path: readonly PathSegment[], value: unknown): { revision: Revision; hint: string } | undefined {
  for (const other of REVISION_IDS) {
    if (other === revision) continue;
    const node = schemaAt(other, path);
    if (node?.enum?.includes(value)) {
      return { revision: other, hint: `${JSON.stringify(value)} is the word revision ${other} uses; revision ${revision} accepts ${(schemaAt(revision, path)?.enum ?? []).map((v) => JSON.stringify(v)).join(', ')}` };
    }
  }
  return undefined;
}

/** The allowed word a misspelled enum value is nearest to, as the fix that writes it (strings only: the word replaces a scalar as written). */
function enumFix(value: unknown, allowed: readonly unknown[]): { fix?: { replace: string } } {
  if (typeof value !== 'string') return {};
  const words = allowed.filter((a): a is string => typeof a === 'string');
  const guess = nearest(value, words);
  return guess === undefined ? {} : { fix: { replace: guess } };
}
