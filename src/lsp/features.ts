// What the editor asks about a values file besides its problems: the explanation of the key under
// the cursor, the keys and words that may be written where the cursor is, and the quick fixes of
// the problems lint found. Pure functions of the text and the revision; server.ts speaks the
// protocol.

import { stringify } from 'yaml';
import { valuesSchema } from '../docs/embedded.ts';
import { typeText, type SchemaNode } from '../docs/values-reference.ts';
import { exampleValue, explainKey, schemaNodeAt, type Explanation } from '../explain/explain.ts';
import { migrateValues } from '../pipeline/migrate.ts';
import { AgentplatError } from '../problems/errors.ts';
import { otherRevision, REVISION_IDS, type Revision } from '../chart/revisions.ts';
import { defaultsSource } from '../values/defaults.ts';
import { getPath, joinPath, splitPath } from '../values/merge.ts';
import { loadUserLayers } from '../values/load.ts';
import { layerRelease } from '../values/replace.ts';
import type { PathSegment } from '../values/source.ts';
import { entryLines, extentAt, listAppend, pathAt } from './positions.ts';
import type { FindingData, OpenDocument, OpenTexts } from './request.ts';
import { lintRequests, revisionOf, settingsFor, valuesPathOf } from './request.ts';

// ---- hover -------------------------------------------------------------------------------

/** The schema key of a written path: list indexes dropped, as `explain` names a list item's field (`controller.env.name`). */
export const explainKeyOf = (path: readonly PathSegment[]) => path.filter((s) => typeof s === 'string').join('.');

const explained = new Map<string, Promise<Explanation | AgentplatError>>();

/** `explain` of a key for one revision, kept for the server's life (it renders the chart). */
function explainOnce(key: string, revision: Revision): Promise<Explanation | AgentplatError> {
  const id = `${revision} ${key}`;
  let e = explained.get(id);
  if (!e) {
    e = explainKey(key, [revision]).catch((err: unknown) => {
      if (err instanceof AgentplatError) return err;
      throw err;
    });
    explained.set(id, e);
  }
  return e;
}

/** The value the release gets at `path` and where it comes from (the layers as lint reads them). */
async function effectiveValue(doc: OpenDocument, open: OpenTexts, path: readonly PathSegment[]): Promise<{ value: unknown; from: string } | undefined> {
  const first = lintRequests(doc, open)[0];
  if (!first) return undefined;
  const { revision, request: req } = first;
  const loaded = await loadUserLayers(req.layers, req.reader);
  const layered = layerRelease(defaultsSource(revision), loaded.sources);
  const value = getPath(layered.values, path);
  if (value === undefined) return undefined;
  const at = layered.locate(path);
  const from = !at ? `the defaults of revision ${revision}` : `${at.origin ?? at.file}${at.line !== undefined && !at.origin ? `:${at.line}` : ''}`;
  return { value, from };
}

/** Markdown for the key under the cursor: `explain`'s facts, the effective value and its origin; undefined off every key (and outside a GitOps object's values). */
export async function hoverText(doc: OpenDocument, offset: number, open: OpenTexts): Promise<string | undefined> {
  const written = pathAt(doc.text, offset);
  const at = written && valuesPathOf(doc, written.path);
  if (!at || at.path.length === 0) return undefined;
  const key = explainKeyOf(at.path);
  const revision = revisionOf(doc, open);
  const e = await explainOnce(key, revision);
  if (e instanceof AgentplatError) {
    // A key of the other revision only: its name, as `explain` words it.
    return `**${key}**\n\n${e.message}${e.hint ? `\n\n${e.hint}` : ''}`;
  }
  const facts = e.byRevision[revision]!;
  const lines = [`**${key}** \`${facts.type}\` (revision ${revision})`, '', facts.description];
  if (facts.enum) lines.push('', `One of: ${facts.enum.map((v) => `\`${JSON.stringify(v)}\``).join(', ')}`);
  lines.push('', `Default: ${facts.default === undefined ? 'unset' : `\`${JSON.stringify(facts.default)}\``}`);
  const effective = await effectiveValue(doc, open, at.path).catch(() => undefined);
  if (effective) lines.push(`Effective value: \`${JSON.stringify(effective.value)}\` from ${effective.from}`);
  if (facts.renders) {
    const objects = facts.renders.objects.map((l) => `${l.kind} ${l.name}${l.fields.length > 0 ? `: ${l.fields.slice(0, 4).join(', ')}` : ` (${l.change})`}`);
    const apis = facts.renders.apiVersions.map((a) => `\`-a ${a}\``).join(' ');
    lines.push('', apis ? `Renders into (when the cluster serves it: ${apis}):` : 'Renders into:', ...(objects.length > 0 ? objects.map((o) => `- ${o}`) : ['- no rendered object changes']));
  } else if (facts.rendersNote) lines.push('', `Renders into: ${facts.rendersNote}`);
  const rules = [...new Set(facts.rules.flat())];
  lines.push('', `Lint rules that read it: ${rules.length > 0 ? rules.map((r) => `\`${r}\``).join(', ') : 'none'}`);
  const other = otherRevision(revision);
  if (REVISION_IDS.includes(other) && !schemaNodeAt(valuesSchema(other), key)) lines.push('', `Only in revision ${revision}: revision ${other} has no \`${key}\`.`);
  return lines.join('\n');
}

// ---- completion --------------------------------------------------------------------------

export interface Completion {
  label: string;
  kind: 'key' | 'value' | 'snippet';
  detail: string;
  documentation: string;
  /** Snippet text (LSP snippet syntax) for a key that opens a block or a list. */
  snippet?: string;
}

interface Context {
  /** The map the cursor writes into, as a path of keys (`[]` for a list item). */
  parent: PathSegment[];
  /** Completing the value of this key, else a key. */
  valueKey?: string;
  /** Keys already written in the map. */
  written: Set<string>;
}

interface Line {
  /** Column of the first character (a dash or a key). */
  ind: number;
  dash: boolean;
  /** Column of the key (after the dash and its spaces). */
  keyCol: number;
  key?: string;
  /** The key opens a block: nothing but a comment follows its colon. */
  opens: boolean;
}

function lineOf(line: string): Line | undefined {
  if (/^\s*(#.*)?$/.test(line)) return undefined;
  const ind = /^\s*/.exec(line)![0].length;
  const dash = /^-(\s+|$)/.exec(line.slice(ind));
  const keyCol = ind + (dash ? dash[0].length : 0);
  const k = /^([^\s:#'"-][^:#]*?|"[^"]*"|'[^']*')\s*:(\s|$)/.exec(line.slice(keyCol));
  const key = k ? k[1]!.replace(/^["']|["']$/g, '') : undefined;
  return { ind, dash: !!dash, keyCol, ...(key !== undefined ? { key } : {}), opens: k !== null && /:\s*(#.*)?$/.test(line) };
}

/** Where the cursor writes, from the lines above it by their indentation (the text may not parse while being typed). */
function contextAt(text: string, offset: number): Context | undefined {
  const lines = text.slice(0, offset).split('\n');
  const current = lines.pop()!;
  const m = /^(\s*)(-\s+)?(.*)$/.exec(current)!;
  const value = /^([^\s:#-][^:#]*?)\s*:\s+([^#]*)$/.exec(m[3]!);
  if (!value && !/^[^\s:#-]*$/.test(m[3]!)) return undefined;
  const parent: PathSegment[] = [];
  const written = new Set<string>();
  // `need` is the column of the map the cursor writes into, or of the list whose item it starts.
  let need = m[1]!.length + (m[2]?.length ?? 0);
  let inList = false;
  let siblings = true;
  if (m[2]) {
    parent.unshift(0);
    need = m[1]!.length;
    inList = true;
    siblings = false;
  }
  for (let i = lines.length - 1; i >= 0; i--) {
    const l = lineOf(lines[i]!);
    if (!l) continue;
    if (!inList) {
      if (l.key !== undefined && l.keyCol === need) {
        if (siblings) written.add(l.key);
        if (l.dash) {
          // The first key of the list item the map is.
          parent.unshift(0);
          need = l.ind;
          inList = true;
          siblings = false;
        }
        continue;
      }
      if (l.keyCol > need) continue;
      if (l.key === undefined || !l.opens) return undefined;
      parent.unshift(l.key);
      siblings = false;
      if (l.dash) {
        parent.unshift(0);
        need = l.ind;
        inList = true;
      } else need = l.keyCol;
      continue;
    }
    if (l.dash && l.ind === need) continue;
    if (l.ind > need) continue;
    if (l.key === undefined || !l.opens) return undefined;
    parent.unshift(l.key);
    if (l.dash) {
      parent.unshift(0);
      need = l.ind;
    } else {
      need = l.keyCol;
      inList = false;
    }
  }
  return { parent, ...(value ? { valueKey: value[1]! } : {}), written };
}

/** The schema node of a parent path (`0` is a list's item), definitions resolved. */
function nodeAtPath(revision: Revision, path: readonly PathSegment[]): SchemaNode | undefined {
  const schema = valuesSchema(revision);
  const defs = (schema as { definitions?: Record<string, SchemaNode> }).definitions ?? {};
  const resolve = (n: SchemaNode | undefined): SchemaNode | undefined => {
    for (let i = 0; n?.$ref && i < 10; i++) n = defs[n.$ref.split('/').pop()!];
    return n;
  };
  let node: SchemaNode | undefined = resolve(schema);
  for (const seg of path) {
    if (!node) return undefined;
    node = resolve(typeof seg === 'number' ? node.items : node.properties && Object.hasOwn(node.properties, seg) ? node.properties[seg] : typeof node.additionalProperties === 'object' ? node.additionalProperties : undefined);
  }
  return node;
}

const holdsKeys = (n: SchemaNode | undefined) => !!n?.properties && Object.keys(n.properties).length > 0;

/** A YAML block as snippet text, indented under the key; `$` and `}` escaped. */
function blockSnippet(value: unknown): string {
  const yaml = stringify(value, { lineWidth: 0 }).trimEnd();
  return yaml.replace(/[$}\\]/g, (c) => `\\${c}`).split('\n').map((l) => `  ${l}`).join('\n');
}

/**
 * Keys (with their default and description), or the words a key's value may be, where the cursor
 * is; `inValues` turns the document's path into the values path (undefined outside the values).
 */
export function completionsAt(text: string, offset: number, revision: Revision, inValues: (path: PathSegment[]) => PathSegment[] | undefined = (p) => p): Completion[] {
  const written = contextAt(text, offset);
  const parent = written && inValues(written.parent);
  if (!written || !parent) return [];
  const ctx = { ...written, parent };
  const parentNode = nodeAtPath(revision, ctx.parent);
  if (!parentNode) return [];
  const parentKey = explainKeyOf(ctx.parent);
  if (ctx.valueKey !== undefined) {
    const node = nodeAtPath(revision, [...ctx.parent, ctx.valueKey]);
    if (!node) return [];
    const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
    const words = node.enum ?? (types.includes('boolean') ? [true, false] : []);
    return words.map((w) => ({ label: typeof w === 'string' ? w : JSON.stringify(w), kind: 'value', detail: typeText(node), documentation: `${w === node.default ? 'the default; ' : ''}${node.description ?? ''}` }));
  }
  const out: Completion[] = [];
  for (const [name, child] of Object.entries(parentNode.properties ?? {})) {
    if (ctx.written.has(name)) continue;
    const key = parentKey ? `${parentKey}.${name}` : name;
    const node = nodeAtPath(revision, [...ctx.parent, name]) ?? child;
    const def = node.default;
    const documentation = `${node.description ?? ''}${def !== undefined ? `\n\nDefault: \`${JSON.stringify(def)}\`` : ''}`;
    const item: Completion = { label: name, kind: 'key', detail: holdsKeys(node) ? 'object' : typeText(node), documentation };
    if (node.type === 'array') {
      // A list of objects: one example item to fill in (a toleration, an env variable, …).
      const example = exampleValue(key, node, def);
      if (Array.isArray(example) && example.length > 0) item.snippet = `${name}:\n${blockSnippet(example)}$0`;
    } else if (holdsKeys(node)) item.snippet = `${name}:\n  $0`;
    out.push(item);
  }
  return out;
}

// ---- code actions ------------------------------------------------------------------------

export interface TextEdit {
  start: number;
  end: number;
  text: string;
}

export interface Action {
  title: string;
  edits: TextEdit[];
  /** The finding it fixes (for the editor to link the two). */
  fixes?: FindingData;
  preferred?: boolean;
}

/** The quick fixes of one finding at `offset` (where the problem points); `prefix`: where the values start in the document (a HelmRelease's `spec.values`). */
export function actionsFor(text: string, offset: number, data: FindingData, prefix: readonly PathSegment[] = []): Action[] {
  const out: Action[] = [];
  const path = [...prefix, ...splitPath(data.path)];
  const fix = data.fix;
  if (fix && 'replace' in fix) {
    out.push({ title: `Change to \`${fix.replace}\``, edits: [{ start: offset, end: extentAt(text, offset), text: fix.replace }], fixes: data, preferred: true });
  }
  if (fix && 'append' in fix) {
    const at = listAppend(text, path, fix.append);
    if (at) out.push({ title: `Add "${fix.append}" to \`${data.path}\``, edits: [{ start: at.offset, end: at.offset, text: at.insert }], fixes: data, preferred: true });
  }
  if (data.rule === 'values/no-effect' || data.rule === 'values/same-as-default') {
    const lines = entryLines(text, path);
    if (lines) out.push({ title: `Remove \`${data.path}\` (it changes nothing rendered)`, edits: [{ ...lines, text: '' }], fixes: data });
  }
  return out;
}

/** The whole file rewritten for revision `to`, as `agentplat migrate` writes it; undefined when nothing changes or it cannot. */
export async function migrationEdit(doc: OpenDocument, from: Revision, to: Revision): Promise<Action | undefined> {
  const result = await migrateValues(doc.text, doc.path, from, to, settingsFor(doc.path).config.rules);
  if (result.text === undefined || result.text === doc.text) return undefined;
  return { title: `Migrate this file from revision ${from} to ${to} (${result.changes.length} change${result.changes.length === 1 ? '' : 's'})`, edits: [{ start: 0, end: doc.text.length, text: result.text }] };
}
