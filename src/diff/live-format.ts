// How `diff --cluster` prints a preflight: the object changes as `diff` prints them (live object →
// what the server would store), then what the server refused, the field-ownership conflicts, the
// drift and what could not be checked yet; one JSON document (version 1) for machines.
import type { ChalkInstance } from 'chalk';
import { jsonText } from '../values/big-integers.ts';
import { formatText, jsonObjects, type JsonDiff, type JsonObject, type ShownChange, type SideInfo } from './format.ts';
import type { Conflict, Drift, Preflight, Rejection, Unchecked } from './live.ts';
import { displayId, type Status } from './objects.ts';

export interface ClusterInfo {
  context: string;
  server: string;
  fieldManager: string;
  /** The ApplySet id the release is applied as (--applyset), when given. */
  applySet?: string;
}

export interface PreflightSummary {
  created: number;
  changed: number;
  /** In the cluster, not in the render. */
  pruned: number;
  unchanged: number;
  refused: number;
  conflicts: number;
  drifted: number;
  unchecked: number;
}

export function summarizePreflight(p: Preflight): PreflightSummary {
  const count = (s: Status) => p.comparison.changes.filter((c) => c.status === s).length;
  return {
    created: count('added'),
    changed: count('changed'),
    pruned: count('removed'),
    unchanged: p.comparison.unchanged,
    refused: p.rejections.length,
    conflicts: p.conflicts.length,
    drifted: p.drift.length,
    unchecked: p.unchecked.length,
  };
}

/** Whether the apply would change nothing and meet nothing in its way. */
export function preflightClean(p: Preflight): boolean {
  return p.comparison.changes.length === 0 && p.rejections.length === 0 && p.conflicts.length === 0 && p.drift.length === 0 && p.unchecked.length === 0;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `against context kind (https://…): 1 created, 2 changed, …`. */
export function preflightSummaryLine(s: PreflightSummary, info: ClusterInfo): string {
  const head = `against context ${info.context} (${info.server}), field manager ${info.fieldManager}`;
  const objects = `${s.created} created, ${s.changed} changed, ${s.pruned} ${s.pruned === 1 ? 'is' : 'are'} not in the render, ${s.unchanged} unchanged`;
  const trouble = `${s.refused} refused, ${plural(s.conflicts, 'conflict')}, ${plural(s.drifted, 'drifted field')}, ${s.unchecked} not checked yet`;
  return `${head}: ${objects}; ${trouble}`;
}

/**
 * Whether `kubectl apply --prune --applyset` would prune: it does not when any object of the apply
 * fails (refused, a conflict, a kind not served yet); it applies the others and stops there.
 */
export function pruneSkipped(p: Preflight, info: ClusterInfo): boolean {
  return info.applySet !== undefined && p.rejections.length + p.conflicts.length + p.unchecked.length > 0;
}

/** The words of the object headers: what the apply does to each object. */
function verbs(p: Preflight, info: ClusterInfo): Record<Status, string> {
  const removed = info.applySet === undefined ? 'not in the render' : pruneSkipped(p, info) ? 'not pruned' : 'pruned';
  return { added: 'created', changed: 'changed', removed };
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? JSON.stringify(v) : (jsonText(v) ?? String(v)));

function driftLine(d: Drift): string {
  const by = (m: Drift['managers'][number]): string => `"${m.manager}"${m.operation ? ` (${m.operation}${m.time ? ` at ${m.time}` : ''})` : ''}`;
  const who = d.managers.length === 0 ? 'no field manager owns the live value' : `written by ${d.managers.map(by).join(', ')}`;
  return `drift ${displayId(d)}: ${d.path}: live ${show(d.live)}, the render sets ${show(d.render)}; ${who}`;
}

function conflictLine(c: Conflict): string {
  return `conflict ${displayId(c)}: ${c.path} is owned by "${c.manager}": the apply is refused unless forced (--force-conflicts takes the field over)`;
}

/** The server's message; the lines after its first (a diff of the object some refusals carry) indented under it. */
function rejectionLines(r: Rejection): string[] {
  const [first, ...rest] = r.message.replace(/\n+$/, '').split('\n');
  return [`refused ${displayId(r)}: ${r.code}${r.reason ? ` ${r.reason}` : ''}: ${first}`, ...rest.map((l) => `    ${l}`)];
}

function uncheckedLine(u: Unchecked): string {
  return `not checked ${displayId(u)}: the cluster serves its kind only once this apply has created or changed CustomResourceDefinition ${u.crd}; apply the CRDs first (agentplat crds | kubectl apply --server-side --field-manager agentplat -f -) and run diff --cluster again`;
}

/** The note that explains `not pruned`, when kubectl would skip the prune. */
export function pruneNote(p: Preflight, info: ClusterInfo): string | undefined {
  if (!pruneSkipped(p, info) || !p.comparison.changes.some((c) => c.status === 'removed')) return undefined;
  return 'kubectl apply --prune --applyset skips the prune when any object of the apply fails (refused, a conflict, a kind not served yet): the objects marked `not pruned` stay until an apply succeeds';
}

export function formatPreflightText(shown: readonly ShownChange[], p: Preflight, info: ClusterInfo, chalk: ChalkInstance, opts: { brief?: boolean; context?: number }): string {
  let out = formatText(shown, chalk, { ...opts, verbs: verbs(p, info) });
  const lines: string[] = [
    ...p.rejections.flatMap((r) => rejectionLines(r).map((l, i) => (i === 0 ? chalk.red.bold(l) : l))),
    ...p.conflicts.map((c) => chalk.red.bold(conflictLine(c))),
    ...p.drift.map((d) => chalk.yellow.bold(driftLine(d))),
    ...p.unchecked.map((u) => chalk.yellow.bold(uncheckedLine(u))),
  ];
  if (lines.length > 0) out += `${out !== '' && !out.endsWith('\n\n') && !opts.brief ? '\n' : ''}${lines.join('\n')}\n`;
  return out;
}

export interface JsonPreflight {
  version: 1;
  tool: JsonDiff['tool'];
  cluster: ClusterInfo;
  /** The render applied last (a revision or values diff), when it is not the render itself. */
  from?: SideInfo;
  to: SideInfo;
  migration?: JsonDiff['migration'];
  equal: boolean;
  /** With --applyset: kubectl would skip the prune, because an object of the apply fails. */
  pruneSkipped?: boolean;
  summary: PreflightSummary;
  /** created (`added`), changed, and in the cluster but not in the render (`removed`). */
  objects: JsonObject[];
  refused: Rejection[];
  conflicts: Conflict[];
  drift: Drift[];
  unchecked: Unchecked[];
  notes: string[];
}

export function formatPreflightJson(shown: readonly ShownChange[], p: Preflight, head: Pick<JsonPreflight, 'tool' | 'cluster' | 'from' | 'to' | 'migration'>): string {
  const doc: JsonPreflight = {
    version: 1,
    ...head,
    equal: preflightClean(p),
    ...(head.cluster.applySet !== undefined ? { pruneSkipped: pruneSkipped(p, head.cluster) } : {}),
    summary: summarizePreflight(p),
    objects: jsonObjects(shown),
    refused: p.rejections,
    conflicts: p.conflicts,
    drift: p.drift,
    unchecked: p.unchecked,
    notes: p.notes,
  };
  return `${jsonText(doc, 2)}\n`;
}
