// How `diff --cluster` prints a preflight: the object changes as `diff` prints them (live object →
// what the server would store), then what the server refused, the field-ownership conflicts, the
// drift and what could not be checked yet; one JSON document (version 1) for machines.
import type { ChalkInstance } from 'chalk';
import { jsonText } from '../../values/big-integers.ts';
import { formatText, jsonObjects, type JsonDiff, type JsonObject } from './format.ts';
import type { ShownChange, SideInfo } from '../../diff/shown.ts';
import type { Conflict, Drift, NotAllowed, Preflight, Rejection, Unchecked } from '../../diff/live.ts';
import { KUBECTL_PARENT_MANAGER, type ApplySetPreflight, type ParentPrediction } from '../../diff/applyset-parent.ts';
import { displayId, type Status } from '../../diff/objects.ts';

import type { ClusterInfo } from '../../diff/live.ts';
export type { ClusterInfo };

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

/** Whether the apply would change nothing and meet nothing in its way (the ApplySet parent included). */
export function preflightClean(p: ApplySetPreflight): boolean {
  return p.comparison.changes.length === 0 && p.rejections.length === 0 && p.conflicts.length === 0 && p.drift.length === 0 && p.unchecked.length === 0 && p.notAllowed.length === 0 && (p.applySet === undefined || p.applySet.status === 'unchanged');
}

/** kubectl refuses the whole apply: its checks of the ApplySet parent failed, no object is applied. */
export function applyRefused(p: ApplySetPreflight): boolean {
  return p.applySet?.status === 'refused';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `against context kind (https://…): 1 created, 2 changed, …`. */
export function preflightSummaryLine(s: PreflightSummary, info: ClusterInfo, parent?: ParentPrediction): string {
  const head = `against context ${info.context} (${info.server}), field manager ${info.fieldManager}`;
  const objects = `${s.created} created, ${s.changed} changed, ${s.pruned} ${s.pruned === 1 ? 'is' : 'are'} not in the render, ${s.unchanged} unchanged`;
  const trouble = `${s.refused} refused, ${plural(s.conflicts, 'conflict')}, ${plural(s.drifted, 'drifted field')}, ${s.unchecked} not checked yet`;
  const set = parent === undefined || parent.status === 'unchanged' ? '' : `; ApplySet parent ${displayId(parent)} ${parent.status === 'refused' ? 'refused: kubectl applies nothing' : parent.status}`;
  return `${head}: ${objects}; ${trouble}${set}`;
}

/**
 * Whether `kubectl apply --prune --applyset` would prune: it does not when any object of the apply
 * fails (refused, a conflict, a kind not served yet); it applies the others and stops there.
 */
export function pruneSkipped(p: ApplySetPreflight, info: ClusterInfo): boolean {
  return info.applySet !== undefined && (p.rejections.length + p.conflicts.length + p.unchecked.length > 0 || applyRefused(p));
}

/** The words of the object headers: what the apply does to each object. */
function verbs(p: ApplySetPreflight, info: ClusterInfo): Record<Status, string> {
  if (applyRefused(p)) return { added: 'not created', changed: 'not changed', removed: 'not pruned' };
  const removed = info.applySet === undefined ? 'not in the render' : pruneSkipped(p, info) ? 'not pruned' : 'pruned';
  return { added: 'created', changed: 'changed', removed };
}

const show = (v: unknown): string => (v === undefined ? '(absent)' : typeof v === 'string' ? JSON.stringify(v) : (jsonText(v) ?? String(v)));

function driftLine(d: Drift): string {
  const by = (m: Drift['managers'][number]): string => {
    const how = [m.operation, m.subresource && `through the ${m.subresource} subresource`, m.time && `at ${m.time}`].filter(Boolean).join(' ');
    return `"${m.manager}"${how ? ` (${how})` : ''}`;
  };
  const who = d.managers.length === 0 ? 'no field manager owns the live value' : `written by ${d.managers.map(by).join(', ')}`;
  return `drift ${displayId(d)}: ${d.path}: live ${show(d.live)}, the render sets ${show(d.render)}; ${who}`;
}

function conflictLine(c: Conflict): string {
  const owner = `"${c.manager}"${c.subresource ? ` through the ${c.subresource} subresource` : ''}`;
  const ignoredBy = c.ignoredBy ? `; --ignore ${c.ignoredBy.join(', ')} leaves out its change and drift, not this conflict` : '';
  return `conflict ${displayId(c)}: ${c.path} is owned by ${owner}: the apply is refused unless forced (--force-conflicts takes the field over)${ignoredBy}`;
}

/** The server's message; the lines after its first (a diff of the object some refusals carry) indented under it. */
function rejectionLines(r: Rejection): string[] {
  const [first, ...rest] = r.message.replace(/\n+$/, '').split('\n');
  return [`refused ${displayId(r)}: ${r.code}${r.reason ? ` ${r.reason}` : ''}: ${first}`, ...rest.map((l) => `    ${l}`)];
}

/** The hint names the CRDs of the revision applied and the field manager the release is applied with. */
function uncheckedLine(u: Unchecked, revision: string, fieldManager: string): string {
  return `not checked ${displayId(u)}: the cluster serves its kind only once this apply has created or changed CustomResourceDefinition ${u.crd}; apply the CRDs first (agentplat crds -r ${revision} | kubectl apply --server-side --field-manager ${fieldManager} -f -) and run diff --cluster again`;
}

/** The ApplySet parent's lines: kubectl's refusal and what to do, or the labels and annotations it writes. */
function parentLines(a: ParentPrediction): string[] {
  const what = `ApplySet parent ${displayId(a)}`;
  if (a.status === 'refused') return [`refused ${what}: kubectl apply --prune --applyset stops before it applies any object: ${a.message ?? ''}`, `    fix: ${a.hint ?? ''}`];
  if (a.status === 'unchanged') return [];
  return [`${a.status} ${what} (by kubectl, as field manager ${KUBECTL_PARENT_MANAGER}): ${a.changes.map((c) => c.path).join(', ')}`, ...a.changes.map((c) => `    ${c.path}: ${show(c.live)} → ${show(c.new)}`)];
}

/** The note that explains `not pruned`, when kubectl would skip the prune. */
export function pruneNote(p: ApplySetPreflight, info: ClusterInfo): string | undefined {
  if (applyRefused(p)) {
    return 'kubectl apply --prune --applyset refuses the whole apply when the ApplySet parent fails its checks: the objects marked `not created`, `not changed` and `not pruned` are what it does once the parent is fixed';
  }
  if (!pruneSkipped(p, info) || !p.comparison.changes.some((c) => c.status === 'removed')) return undefined;
  return 'kubectl apply --prune --applyset skips the prune when any object of the apply fails (refused, a conflict, a kind not served yet): the objects marked `not pruned` stay until an apply succeeds';
}

export function formatPreflightText(shown: readonly ShownChange[], p: ApplySetPreflight, info: ClusterInfo, chalk: ChalkInstance, opts: { brief?: boolean; context?: number; revision: string }): string {
  let out = formatText(shown, chalk, { ...opts, verbs: verbs(p, info) });
  const parent = p.applySet ? parentLines(p.applySet) : [];
  const lines: string[] = [
    ...parent.map((l, i) => (i > 0 ? l : p.applySet!.status === 'refused' ? chalk.red.bold(l) : chalk.bold(l))),
    ...p.rejections.flatMap((r) => rejectionLines(r).map((l, i) => (i === 0 ? chalk.red.bold(l) : l))),
    ...p.conflicts.map((c) => chalk.red.bold(conflictLine(c))),
    ...p.drift.map((d) => chalk.yellow.bold(driftLine(d))),
    ...p.unchecked.map((u) => chalk.yellow.bold(uncheckedLine(u, opts.revision, info.fieldManager))),
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
  /** With --applyset: kubectl would skip the prune, because an object of the apply fails or the parent is refused. */
  pruneSkipped?: boolean;
  /** With --applyset: what kubectl does to the parent (created, changed, unchanged) or why it refuses the apply. */
  applySet?: ParentPrediction;
  summary: PreflightSummary;
  /** created (`added`), changed, and in the cluster but not in the render (`removed`). */
  objects: JsonObject[];
  refused: Rejection[];
  conflicts: Conflict[];
  drift: Drift[];
  unchecked: Unchecked[];
  /** Objects the user may not get or dry-run apply (403 from the authorizer): not checked, exit 2. */
  notAllowed: NotAllowed[];
  notes: string[];
}

export function formatPreflightJson(shown: readonly ShownChange[], p: ApplySetPreflight, head: Pick<JsonPreflight, 'tool' | 'cluster' | 'from' | 'to' | 'migration'>): string {
  const doc: JsonPreflight = {
    version: 1,
    ...head,
    equal: preflightClean(p),
    ...(head.cluster.applySet !== undefined ? { pruneSkipped: pruneSkipped(p, head.cluster) } : {}),
    ...(p.applySet !== undefined ? { applySet: p.applySet } : {}),
    summary: summarizePreflight(p),
    objects: jsonObjects(shown),
    refused: p.rejections,
    conflicts: p.conflicts,
    drift: p.drift,
    unchecked: p.unchecked,
    notAllowed: p.notAllowed,
    notes: p.notes,
  };
  return `${jsonText(doc, 2)}\n`;
}
