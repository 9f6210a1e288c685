// Templates as line programs. A template (templates/**/*.hbs) is handlebars text restricted to a
// small, line-shaped subset; compileTemplate turns it into a tree of line nodes once (at build
// time in the bundle, on first use in development), and runTemplate executes the tree against the
// data a component passes, giving the lines of each document with the printed values kept as
// data instead of JSON text. The YAML reader builds the objects from those lines directly
// (src/yaml/template-yaml.ts, readTemplateLines), so a render neither concatenates text nor reads it back.
//
// The subset (anything else is refused when the template is compiled, naming file and line):
// - static lines: YAML text without mustaches (blank and comment lines are dropped);
// - `prefix{{json PATH}}` as the end of a line (`key: `, `- `, `- key: ` or nothing before it):
//   the only way a value enters, so a value can never add a key, an item or a document;
// - on lines of their own: `{{#if EXPR}}`, `{{#unless EXPR}}`, `{{else}}`, `{{/if}}`,
//   `{{/unless}}`, `{{#each PATH}}`, `{{/each}}`, and a partial in column 1:
//   `{{> PARTIAL PATH}}` runs it on PATH, `{{> PARTIAL [PATH] KEY=PATH|null …}}` on PATH (or the
//   current data) with the keys laid over it, as handlebars' hash arguments do;
//   EXPR is PATH or `(present PATH)`; PATH is dotted names (`endpoint.interval`).
// Semantics are handlebars' in strict mode, as the templates were written for: own properties
// only, reading through a missing object is an error, printing undefined is an error, `#if` is
// false for false, 0, '', null, undefined, NaN and [], `present` also for {} (see truthy), and
// `#each` runs its body once per array item (or map value) with the item as context. Tests hold
// the two engines to the same objects on every golden and property input (test/render/template-program.test.ts).

import { jsonText } from '../values/big-integers.ts';

/** A line of template output before it is text: `text` holds a hole as NUL + index into the values. */
export interface TemplateLine {
  indent: number;
  text: string;
}

/** One node of a compiled template. Plain data: the build embeds programs as JSON. */
export type TemplateNode =
  /** A static line. */
  | { k: 'line'; line: TemplateLine }
  /** A line that ends with a printed value: `text` is what comes before `{{json …}}`. */
  | { k: 'hole'; indent: number; text: string; path: string[] }
  /** `---` between two documents. */
  | { k: 'doc' }
  | { k: 'if'; path: string[]; present: boolean; negate: boolean; then: TemplateNode[]; else: TemplateNode[] }
  | { k: 'each'; path: string[]; body: TemplateNode[]; else: TemplateNode[] }
  /** `path` [] is the current data; `hash` entries are laid over it (a null path is the literal null). */
  | { k: 'partial'; name: string; path: string[]; hash: { key: string; path: string[] | null }[] };

/** Every template and partial by name: `chart/pdb.yaml.hbs`, `chart/_meta` (partials have no suffix). */
export type TemplateSet = Record<string, TemplateNode[]>;

export class TemplateSyntaxError extends Error {}

/** Thrown while a template runs: the data a component passed does not fit the template (a bug). */
export class TemplateRunError extends Error {}

const NAME = '[A-Za-z_][A-Za-z0-9_]*';
const PATH = `${NAME}(?:\\.${NAME})*`;
const PATH_RE = new RegExp(`^${PATH}$`);
const IF_RE = new RegExp(`^#(if|unless) (?:(${PATH})|\\(present (${PATH})\\))$`);
const EACH_RE = new RegExp(`^#each (${PATH})$`);
const PARTIAL_RE = new RegExp(`^> ([A-Za-z0-9_./-]+)((?: ${PATH})?)((?: ${NAME}=${PATH})*)$`);
const JSON_RE = new RegExp(`^json (${PATH})$`);
/** Before a printed value: nothing, `- `, a plain or JSON-quoted key and `: `, or both. */
const HOLE_PREFIX = /^(- )?([A-Za-z0-9_./-]([A-Za-z0-9_./ -]*[A-Za-z0-9_./-])?: |"[^"\\\u0000-\u001f]*": )?$/;

/** Partial names as templates write them: the file's path under templates/ without `.hbs`. */
export function partialName(file: string): string | undefined {
  const base = file.split('/').pop()!;
  return base.startsWith('_') && file.endsWith('.hbs') ? file.slice(0, -'.hbs'.length) : undefined;
}

/** Compiles every template of a set of files (path under templates/ → text); partials are checked to exist. */
export function compileTemplates(files: Record<string, string>): TemplateSet {
  const set: TemplateSet = {};
  for (const [file, text] of Object.entries(files)) set[partialName(file) ?? file] = compileTemplate(file, text);
  for (const [name, nodes] of Object.entries(set)) {
    for (const partial of partialsOf(nodes)) {
      if (!set[partial]) throw new TemplateSyntaxError(`${name}: partial ${partial} does not exist`);
    }
  }
  return set;
}

function* partialsOf(nodes: TemplateNode[]): Generator<string> {
  for (const n of nodes) {
    if (n.k === 'partial') yield n.name;
    else if (n.k === 'if') yield* [...partialsOf(n.then), ...partialsOf(n.else)];
    else if (n.k === 'each') yield* [...partialsOf(n.body), ...partialsOf(n.else)];
  }
}

interface Open {
  tag: 'if' | 'unless' | 'each';
  node: Extract<TemplateNode, { k: 'if' | 'each' }>;
  /** Where nodes go now: the then/body list, or the else list after `{{else}}`. */
  into: TemplateNode[];
  sawElse: boolean;
  line: number;
}

export function compileTemplate(file: string, text: string): TemplateNode[] {
  const root: TemplateNode[] = [];
  const stack: Open[] = [];
  const into = () => (stack.length > 0 ? stack[stack.length - 1]!.into : root);
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((raw, i) => {
    const fail = (why: string): never => {
      throw new TemplateSyntaxError(`${file}:${i + 1}: ${why}`);
    };
    if (/[\t\r\u0000]/.test(raw)) fail('tabs, carriage returns and NUL are not allowed');
    const content = raw.trimStart();
    const indent = raw.length - content.length;
    const trimmed = content.trimEnd();
    const open = trimmed.indexOf('{{');
    if (open < 0) {
      if (trimmed === '' || trimmed.startsWith('#')) return;
      if (trimmed === '---') {
        into().push({ k: 'doc' });
        return;
      }
      if (trimmed.startsWith('---') || trimmed === '...' || trimmed.startsWith('%')) fail(`"${trimmed}" is not allowed; documents are separated by a line "---"`);
      if (trimmed.includes('}}')) fail('"}}" without "{{"');
      into().push({ k: 'line', line: { indent, text: trimmed } });
      return;
    }
    const close = trimmed.indexOf('}}', open);
    if (close < 0) fail('"{{" without "}}"');
    if (close + 2 !== trimmed.length) fail('a mustache must end its line');
    if (trimmed.indexOf('{{', open + 2) >= 0) fail('one mustache per line');
    const tag = trimmed.slice(open + 2, close);
    const prefix = trimmed.slice(0, open);
    const json = JSON_RE.exec(tag);
    if (json) {
      if (!HOLE_PREFIX.test(prefix)) fail(`what comes before {{json …}} must be "key: ", "- ", "- key: " or nothing, not "${prefix}"`);
      into().push({ k: 'hole', indent, text: prefix, path: json[1]!.split('.') });
      return;
    }
    if (prefix !== '') fail(`{{${tag}}} must be alone on its line; values are printed only with {{json …}}`);
    const cond = IF_RE.exec(tag);
    if (cond) {
      const path = (cond[2] ?? cond[3])!;
      const node: TemplateNode = { k: 'if', path: path.split('.'), present: cond[3] !== undefined, negate: cond[1] === 'unless', then: [], else: [] };
      into().push(node);
      stack.push({ tag: cond[1] as 'if' | 'unless', node, into: node.then, sawElse: false, line: i + 1 });
      return;
    }
    const each = EACH_RE.exec(tag);
    if (each) {
      const node: TemplateNode = { k: 'each', path: each[1]!.split('.'), body: [], else: [] };
      into().push(node);
      stack.push({ tag: 'each', node, into: node.body, sawElse: false, line: i + 1 });
      return;
    }
    if (tag === 'else') {
      const top = stack[stack.length - 1];
      if (!top) fail('{{else}} outside a block');
      if (top!.sawElse) fail('a second {{else}} in one block');
      top!.sawElse = true;
      top!.into = top!.node.else;
      return;
    }
    const end = /^\/(if|unless|each)$/.exec(tag);
    if (end) {
      const top = stack.pop();
      if (!top) fail(`{{${tag}}} closes nothing`);
      if (top!.tag !== end[1]) fail(`{{${tag}}} closes the {{#${top!.tag}}} of line ${top!.line}`);
      return;
    }
    const partial = PARTIAL_RE.exec(tag);
    if (partial) {
      if (indent !== 0) fail('a partial starts in column 1');
      const hash = partial[3]!
        .split(' ')
        .filter((t) => t !== '')
        .map((t) => {
          const [key, value] = t.split('=') as [string, string];
          return { key, path: value === 'null' ? null : value.split('.') };
        });
      const context = partial[2]!.trim();
      if (context === '' && hash.length === 0) fail('a partial names the data it runs on: {{> PARTIAL PATH}} or KEY=PATH arguments');
      into().push({ k: 'partial', name: partial[1]!, path: context === '' ? [] : context.split('.'), hash });
      return;
    }
    fail(`{{${tag}}} is not part of the template language (json, #if, #unless, #each, else, partials)`);
  });
  const unclosed = stack.pop();
  if (unclosed) throw new TemplateSyntaxError(`${file}:${unclosed.line}: {{#${unclosed.tag}}} is never closed`);
  return root;
}

/** What runTemplate gives: each document's lines and the values its holes print. */
export interface TemplateOutput {
  docs: TemplateLine[][];
  values: unknown[];
}

/** Runs a compiled template: every value printed is copied as JSON would carry it. */
export function runTemplate(set: TemplateSet, name: string, data: unknown): TemplateOutput {
  const nodes = Object.hasOwn(set, name) ? set[name] : undefined;
  if (!nodes) throw new TemplateRunError(`unknown template ${name}`);
  const out: TemplateOutput = { docs: [[]], values: [] };
  run(set, name, nodes, data, out);
  return out;
}

/** The same run as text, as the handlebars template prints it (less blank and comment lines). */
export function templateText(set: TemplateSet, name: string, data: unknown): string {
  return outputText(runTemplate(set, name, data));
}

/** A run's lines as text: each value printed as JSON, documents separated by `---`. */
export function outputText({ docs, values }: TemplateOutput): string {
  return docs
    .map((lines) =>
      lines
        .map((l) => {
          const hole = l.text.indexOf('\u0000');
          const text = hole < 0 ? l.text : l.text.slice(0, hole) + jsonText(values[Number(l.text.slice(hole + 1))]);
          return ' '.repeat(l.indent) + text + '\n';
        })
        .join(''),
    )
    .join('---\n');
}

const own = Object.prototype.hasOwnProperty;

function lookup(name: string, data: unknown, path: readonly string[]): unknown {
  let v = data;
  for (const seg of path) {
    if (v === null || v === undefined) throw new TemplateRunError(`${name}: cannot read "${seg}" of ${String(v)} (${path.join('.')})`);
    v = own.call(v, seg) ? (v as Record<string, unknown>)[seg] : undefined;
  }
  return v;
}

/** handlebars' #if: false for falsy values and empty lists. */
function ifTrue(v: unknown): boolean {
  return !!v && !(Array.isArray(v) && v.length === 0);
}

/** Empty strings, empty lists, empty maps, null, undefined and false are "not present". */
export function truthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v as object).length > 0;
  return true;
}

/** The value `{{json v}}` prints, as data: what JSON.parse(JSON.stringify(v)) gives. */
function printed(name: string, path: readonly string[], v: unknown): unknown {
  if (v === undefined) throw new TemplateRunError(`${name}: printed an undefined value (${path.join('.')})`);
  const copy = jsonCopy(v);
  if (copy === OMITTED) throw new TemplateRunError(`${name}: printed a value JSON cannot carry (${path.join('.')})`);
  return copy;
}

/** What JSON leaves out of an object (undefined, functions, symbols); null in a list. */
const OMITTED: unique symbol = Symbol('omitted');

/**
 * JSON.parse(JSON.stringify(v)) without the text: a fresh copy of plain data with JSON's rules
 * (non-finite numbers become null, -0 becomes 0, undefined, functions and symbols are left out of
 * objects and become null in lists), except that a BigInt (an int64 past 2^53 from --set), which
 * JSON.stringify refuses, stays itself. Anything but plain objects and lists (a Date, a boxed value,
 * a class instance, an object with toJSON) goes through JSON itself. OMITTED for a top-level value
 * JSON cannot carry. A property test holds it to JSON on arbitrary values.
 */
export function jsonCopy(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? (v === 0 ? 0 : v) : null;
    case 'object': {
      if (v === null) return null;
      if (Array.isArray(v) && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
        const out = new Array<unknown>(v.length);
        for (let i = 0; i < v.length; i++) {
          const c = jsonCopy(v[i]);
          out[i] = c === OMITTED ? null : c;
        }
        return out;
      }
      const proto = Object.getPrototypeOf(v) as unknown;
      if ((proto !== Object.prototype && proto !== null) || typeof (v as { toJSON?: unknown }).toJSON === 'function') {
        const text = JSON.stringify(v);
        return text === undefined ? OMITTED : (JSON.parse(text) as unknown);
      }
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const c = jsonCopy((v as Record<string, unknown>)[k]);
        if (c === OMITTED) continue;
        // JSON.parse makes `__proto__` an own key; an assignment would set the prototype.
        if (k === '__proto__') Object.defineProperty(out, k, { value: c, enumerable: true, writable: true, configurable: true });
        else out[k] = c;
      }
      return out;
    }
    case 'bigint':
      // An int64 past 2^53 from --set: kept, and written as its digits (a JSON number).
      return v;
    default:
      return OMITTED;
  }
}

function run(set: TemplateSet, name: string, nodes: readonly TemplateNode[], data: unknown, out: TemplateOutput): void {
  for (const n of nodes) {
    switch (n.k) {
      case 'line':
        out.docs[out.docs.length - 1]!.push(n.line);
        break;
      case 'hole': {
        const index = out.values.push(printed(name, n.path, lookup(name, data, n.path))) - 1;
        out.docs[out.docs.length - 1]!.push({ indent: n.indent, text: `${n.text}\u0000${index}` });
        break;
      }
      case 'doc':
        out.docs.push([]);
        break;
      case 'if': {
        const v = lookup(name, data, n.path);
        const yes = (n.present ? truthy(v) : ifTrue(v)) !== n.negate;
        run(set, name, yes ? n.then : n.else, data, out);
        break;
      }
      case 'each': {
        const v = lookup(name, data, n.path);
        const items = Array.isArray(v) ? v : v !== null && typeof v === 'object' ? Object.values(v) : [];
        if (items.length === 0) run(set, name, n.else, data, out);
        for (const item of items) run(set, name, n.body, item, out);
        break;
      }
      case 'partial': {
        const partial = set[n.name];
        if (!partial) throw new TemplateRunError(`${name}: partial ${n.name} does not exist`);
        const context = lookup(name, data, n.path);
        if (n.hash.length === 0) {
          run(set, n.name, partial, context, out);
          break;
        }
        // handlebars: a copy of the context's own keys, with the hash arguments over them.
        const merged: Record<string, unknown> = context !== null && typeof context === 'object' ? { ...(context as object) } : {};
        for (const h of n.hash) merged[h.key] = h.path === null ? null : lookup(name, data, h.path);
        run(set, n.name, partial, merged, out);
        break;
      }
    }
  }
}
