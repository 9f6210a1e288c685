// Field paths in one spelling. diff, plan and `diff --cluster` name a field as
// `spec.template.spec.containers[name=ui].image`: a key that is not a plain name in brackets
// (`data["config.json"]`, `metadata.labels["app.kubernetes.io/name"]`), an entry of a list of named
// entries by its name, another list entry by its position (`spec.ports[0].port`). The API server
// spells the field of a conflict its own way (`.data.config.json`, `[name="ui"]`,
// `[containerPort=80,protocol="TCP"]`, `[="value"]`): `serverSteps` reads that against the object the
// field is in, so that a conflict prints like a change or a drift. `covers` matches a path the user
// wrote (an `--ignore` rule) against a field in either spelling.
import { deepEqual, keyStep } from './objects.ts';

/** One step of a path: a map key, a list entry by its name, or a list entry by position; `item` is the entry itself when known. */
export type PathStep = { key: string } | { name: string; item?: unknown } | { index: number; item?: unknown };

const PLAIN_NAME = /^[A-Za-z_][A-Za-z0-9_-]*$/;

function isMap(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The steps in the output's spelling. */
export function formatPath(steps: readonly PathStep[]): string {
  let out = '';
  for (const s of steps) {
    if ('key' in s) out = keyStep(out, s.key);
    else if ('name' in s) out += `[name=${PLAIN_NAME.test(s.name) ? s.name : JSON.stringify(s.name)}]`;
    else out += `[${s.index}]`;
  }
  return out;
}

/** A JSON string at `at` (which holds a `"`): its value and where it ends, or undefined. */
function jsonStringAt(text: string, at: number): { value: string; end: number } | undefined {
  let i = at + 1;
  while (i < text.length && text[i] !== '"') i += text[i] === '\\' ? 2 : 1;
  if (i >= text.length) return undefined;
  try {
    return { value: JSON.parse(text.slice(at, i + 1)) as string, end: i + 1 };
  } catch {
    return undefined;
  }
}

/** A JSON value at `at` that ends before `,` or `]` (a quoted string, a number, true/false/null). */
function jsonValueAt(text: string, at: number): { value: unknown; end: number } | undefined {
  if (text[at] === '"') return jsonStringAt(text, at);
  let end = at;
  while (end < text.length && text[end] !== ',' && text[end] !== ']') end++;
  const raw = text.slice(at, end);
  if (raw === '') return undefined;
  try {
    return { value: JSON.parse(raw), end };
  } catch {
    return { value: raw, end };
  }
}

type Bracket = { kind: 'string'; value: string } | { kind: 'index'; value: number } | { kind: 'keys'; value: Record<string, unknown> } | { kind: 'value'; value: unknown };

/**
 * What a `[…]` at `at` holds: `["key"]`, `[3]`, `[name=ui]` / `[name="ui"]` / `[port=80,protocol="TCP"]`
 * (an entry by its key fields; a bare word is a string), `[=value]` (an entry of a set by its value).
 */
function bracketAt(text: string, at: number): { b: Bracket; end: number } | undefined {
  if (text[at] !== '[') return undefined;
  const i = at + 1;
  if (text[i] === '"') {
    const s = jsonStringAt(text, i);
    return s && text[s.end] === ']' ? { b: { kind: 'string', value: s.value }, end: s.end + 1 } : undefined;
  }
  const index = /^(\d+)\]/.exec(text.slice(i));
  if (index) return { b: { kind: 'index', value: Number(index[1]) }, end: i + index[0].length };
  if (text[i] === '=') {
    const v = jsonValueAt(text, i + 1);
    return v && text[v.end] === ']' ? { b: { kind: 'value', value: v.value }, end: v.end + 1 } : undefined;
  }
  const keys: Record<string, unknown> = {};
  let j = i;
  for (;;) {
    const field = /^([A-Za-z_][A-Za-z0-9_-]*)=/.exec(text.slice(j));
    if (!field) return undefined;
    j += field[0].length;
    let v: { value: unknown; end: number } | undefined;
    if (text[j] === '"') v = jsonStringAt(text, j);
    else {
      // A bare word, as the output writes a plain name: `[name=ui]`.
      let end = j;
      while (end < text.length && text[end] !== ',' && text[end] !== ']') end++;
      const raw = text.slice(j, end);
      // A number as the server writes a port; any other word a string (entries match either way, entryHas).
      v = raw === '' ? undefined : { value: /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw, end };
    }
    if (!v) return undefined;
    keys[field[1]!] = v.value;
    j = v.end;
    if (text[j] === ']') return { b: { kind: 'keys', value: keys }, end: j + 1 };
    if (text[j] !== ',') return undefined;
    j++;
  }
}

const sameValue = (a: unknown, b: unknown): boolean => deepEqual(a, b) || (a !== undefined && !isMap(a) && !Array.isArray(a) && String(a) === String(b));

/**
 * Whether a list entry has the given key fields ("80" and 80 alike). A key field the entry leaves
 * out is one the server defaults (a port's `protocol`, "TCP"): it does not count against the
 * entry, as long as one key field is there and equal.
 */
function entryHas(item: unknown, keys: Record<string, unknown>): boolean {
  if (!isMap(item)) return false;
  const present = Object.entries(keys).filter(([f]) => item[f] !== undefined);
  return present.length > 0 && present.every(([f, want]) => sameValue(item[f], want));
}

/** The names of a list's entries when every entry is a map with a distinct string name. */
function entryNames(list: readonly unknown[]): string[] | undefined {
  const out = list.map((e) => (isMap(e) && typeof e.name === 'string' ? e.name : undefined));
  if (out.some((n) => n === undefined) || new Set(out).size !== out.length) return undefined;
  return out as string[];
}

/** The step of a list entry as the output spells it: by name in a list of named entries, else by position. */
function entryStep(list: readonly unknown[], i: number): PathStep {
  const names = entryNames(list);
  return names ? { name: names[i]!, item: list[i] } : { index: i, item: list[i] };
}

/**
 * A field as the API server spells it in a conflict (`.spec.replicas`, `.data.config.json`,
 * `.spec.template.spec.containers[name="ui"].ports[containerPort=80,protocol="TCP"].name`),
 * read against `object`, the object the server was sent: its keys tell `data.config.json` (the key
 * `config.json`) from a key under a key, and its lists tell which entry a `[…]` names. A part that
 * is not in `object` is read as plain names.
 */
export function serverSteps(serverField: string, object: unknown): PathStep[] | undefined {
  const field = serverField.startsWith('.') ? serverField : `.${serverField}`;
  const read = (at: number, node: unknown): PathStep[] | undefined => {
    if (at >= field.length) return [];
    if (field[at] === '.') {
      const rest = field.slice(at + 1);
      if (isMap(node)) {
        // The longest key of the object that the text spells out up to a step boundary, and that the rest reads after.
        const keys = Object.keys(node).filter((k) => rest.startsWith(k) && (rest.length === k.length || rest[k.length] === '.' || rest[k.length] === '['));
        for (const k of keys.sort((a, b) => b.length - a.length)) {
          const tail = read(at + 1 + k.length, node[k]);
          if (tail) return [{ key: k }, ...tail];
        }
      }
      const plain = /^[^.[]+/.exec(rest);
      if (!plain) return undefined;
      const tail = read(at + 1 + plain[0].length, undefined);
      return tail && [{ key: plain[0] }, ...tail];
    }
    const br = bracketAt(field, at);
    if (!br) return undefined;
    const { b, end } = br;
    const list = Array.isArray(node) ? node : [];
    let i = -1;
    if (b.kind === 'index') i = b.value < list.length ? b.value : -1;
    else if (b.kind === 'keys') {
      // The entry with every key field, else the one with every key field it has (the rest defaulted by the server).
      i = list.findIndex((e) => isMap(e) && Object.entries(b.value).every(([f, want]) => sameValue(e[f], want)));
      if (i < 0) i = list.findIndex((e) => entryHas(e, b.value));
    }
    else if (b.kind === 'value') i = list.findIndex((e) => deepEqual(e, b.value));
    else if (isMap(node)) {
      const tail = read(end, node[b.value]);
      return tail && [{ key: b.value }, ...tail];
    }
    let step: PathStep;
    if (i >= 0) step = entryStep(list, i);
    else if (b.kind === 'keys' && typeof b.value.name === 'string' && Object.keys(b.value).length === 1) step = { name: b.value.name };
    else if (b.kind === 'index') step = { index: b.value };
    else if (b.kind === 'string') step = { key: b.value };
    else return undefined;
    const tail = read(end, i >= 0 ? list[i] : undefined);
    return tail && [step, ...tail];
  };
  return read(0, object);
}

/** A server's field in the output's spelling (as written, less the leading dot, when it cannot be read). */
export function serverPath(field: string, object: unknown): string {
  const steps = serverSteps(field, object);
  return steps ? formatPath(steps) : field.replace(/^\./, '');
}

/** A path in the output's spelling → its steps (undefined when it is not one). */
export function parsePath(path: string): PathStep[] | undefined {
  const out: PathStep[] = [];
  let at = 0;
  while (at < path.length) {
    if (path[at] === '[') {
      const br = bracketAt(path, at);
      if (!br) return undefined;
      const { b } = br;
      if (b.kind === 'string') out.push({ key: b.value });
      else if (b.kind === 'index') out.push({ index: b.value });
      else if (b.kind === 'keys' && Object.keys(b.value).length === 1 && typeof b.value.name === 'string') out.push({ name: b.value.name });
      else return undefined;
      at = br.end;
      continue;
    }
    if (at > 0 && path[at] !== '.') return undefined;
    const m = /^\.?([A-Za-z_][A-Za-z0-9_-]*)/.exec(path.slice(at));
    if (!m) return undefined;
    out.push({ key: m[1]! });
    at += m[0].length;
  }
  return out;
}

/**
 * Whether `rule` (a path as the user wrote it, in the output's spelling or the server's) names the
 * field at `steps` or a field above it. Keys may be dotted or bracketed (`data.config.json` and
 * `data["config.json"]`), entries named `[name=ui]` or `[name="ui"]`, by position `[0]`, or by
 * their key fields or value as the server writes them (`[containerPort=80,protocol="TCP"]`,
 * `[="x"]`), which match when the entry is known.
 */
export function covers(rule: string, steps: readonly PathStep[]): boolean {
  const text = rule.startsWith('.') ? rule.slice(1) : rule;
  const match = (at: number, i: number): boolean => {
    if (at === text.length) return i > 0;
    if (i === steps.length) return false;
    const s = steps[i]!;
    if ('key' in s) {
      const dotted = at === 0 ? s.key : `.${s.key}`;
      if (text.startsWith(dotted, at)) {
        const end = at + dotted.length;
        if ((end === text.length || text[end] === '.' || text[end] === '[') && match(end, i + 1)) return true;
      }
      const br = text[at] === '[' ? bracketAt(text, at) : undefined;
      return br !== undefined && br.b.kind === 'string' && br.b.value === s.key && match(br.end, i + 1);
    }
    const br = text[at] === '[' ? bracketAt(text, at) : undefined;
    if (!br) return false;
    const { b } = br;
    let hit = false;
    if (b.kind === 'index') hit = 'index' in s && s.index === b.value;
    else if (b.kind === 'value') hit = s.item !== undefined && deepEqual(s.item, b.value);
    else if (b.kind === 'keys') {
      const onlyName = Object.keys(b.value).length === 1 && b.value.name !== undefined;
      hit = ('name' in s && onlyName && String(b.value.name) === s.name) || (s.item !== undefined && entryHas(s.item, b.value));
    }
    return hit && match(br.end, i + 1);
  };
  return match(0, 0);
}

/** The value at `steps` in `object`, or undefined. */
export function valueAt(object: unknown, steps: readonly PathStep[]): unknown {
  let node = object;
  for (const s of steps) {
    if ('key' in s) node = isMap(node) ? node[s.key] : undefined;
    else if (!Array.isArray(node)) node = undefined;
    else if ('name' in s) node = node.find((e) => isMap(e) && e.name === s.name);
    else node = node[s.index];
    if (node === undefined) return undefined;
  }
  return node;
}
