// `migrate`: rewrites a values file of one revision into the next, keeping the user's comments
// and key order, and reports every change. The result is then linted in the target revision, so
// whatever is still wrong becomes a decision for the user instead of a surprise at install time.

import { isMap, LineCounter, parseDocument } from 'yaml';
import { applyRuleLevels, askedFor, type RuleLevel } from '../lint/config.ts';
import { lintValues } from '../lint/lint.ts';
import { modelConfigCheckFor } from '../lint/crd-check.ts';
import { sortProblems, type Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import { readUserFile, type InputReader, type LoadedLayers } from '../values/load.ts';
import { parseValuesText, type ValuesSource } from '../values/source.ts';
import { objectYaml } from '../render/manifests.ts';
import { migrateAToB } from '../migrate/a-to-b.ts';
import { flowPadding } from '../migrate/document.ts';
import { changeLine, type Change } from '../migrate/changes.ts';
import type { GitopsReader, UserFile } from '../gitops/index.ts';
import type { LocatedChange } from './migrate-gitops.ts';

export interface MigrateResult {
  /** The migrated file (undefined when the input does not parse: then `problems` are the input's). */
  text?: string;
  /** Each change; of a GitOps object, with the place it is about (`at`) and, where migrate could not write it, the migrated text to write there. */
  changes: LocatedChange[];
  /** Problems of the input (it does not parse) or of the output in the target revision. */
  problems: Problem[];
  /** True when a change or a remaining problem needs the user. */
  decisionsLeft: boolean;
  /**
   * Set when the file is already written for the target revision (it has what only that revision
   * has and nothing only the source revision has): `text` is the input unchanged, with no changes.
   */
  already?: { revision: Revision; from: Revision; evidence: string[] };
  /** Of a GitOps object: what was read but changes nothing, printed first; problems are then shown at `file:line:col`. */
  notes?: string[];
}

/** Migration steps by `from→to`; only forward steps exist. */
const STEPS: Record<string, typeof migrateAToB> = { 'A→B': migrateAToB };

/** The rule of the error for a file that mixes the two revisions. */
export const MIXED_REVISIONS_RULE = 'migrate/mixed-revisions';

export function supportedMigrations(): string[] {
  return Object.keys(STEPS);
}

export interface MigrateRequest {
  /** The values file to migrate: a path, a URL, or - for standard input. */
  input: string;
  reader: InputReader;
  from: Revision;
  to: Revision;
  /** The levels of `.agentplat.yaml` and --rule, applied to the lint of the result. */
  rules?: Readonly<Record<string, RuleLevel>>;
  /** For a HelmRelease or Application: the --values-from folders, and the valuesFrom sources read from the cluster (--cluster). */
  gitops?: { valuesFrom: readonly string[]; clusterSources?: (file: UserFile, reader: GitopsReader) => Promise<UserFile[]> };
}

export interface MigrateOutcome {
  /** The input as its problems name it (the path as given, `<stdin>`). */
  name: string;
  /** The input as read. */
  text: string;
  result: MigrateResult;
}

/**
 * The `migrate` operation: reads the values file and rewrites it for revision `to`, as
 * migrateValues does; a file holding HelmReleases or Applications of the chart has the values of
 * each migrated the same way and its chart version moved (migrate-gitops.ts).
 */
export async function migrateOperation(req: MigrateRequest): Promise<MigrateOutcome> {
  const { name, text } = await readUserFile(req.input, req.reader);
  const rules = req.rules ?? {};
  const { mayBeGitops } = await import('../gitops/index.ts');
  if (mayBeGitops(text)) {
    const [{ gitopsReader }, { migrateGitopsFile }] = await Promise.all([import('./gitops-input.ts'), import('./migrate-gitops.ts')]);
    const valuesFrom = req.gitops?.valuesFrom ?? [];
    const fromCluster = req.gitops?.clusterSources ? await req.gitops.clusterSources({ name, text }, gitopsReader(req.input, req.reader.cwd, valuesFrom)) : [];
    const values = async (t: string, n: string) => {
      const r = await migrateValues(t, n, req.from, req.to, rules);
      return { ...(r.text !== undefined ? { text: r.text } : {}), changes: r.changes, mixed: r.problems.filter((p) => p.rule === MIXED_REVISIONS_RULE) };
    };
    const m = await migrateGitopsFile({ name, text }, gitopsReader(req.input, req.reader.cwd, valuesFrom, fromCluster), req.from, req.to, values, rules);
    const decisionsLeft = m.changes.some((c) => c.kind === 'decide') || m.problems.some((p) => p.severity === 'error');
    return { name, text, result: { text: m.text, changes: m.changes, problems: m.problems, decisionsLeft, notes: m.notes } };
  }
  return { name, text, result: await migrateValues(text, name, req.from, req.to, rules) };
}

/** `rules` are the levels of `.agentplat.yaml` and --rule, applied to the lint of the result. */
export async function migrateValues(text: string, name: string, from: Revision, to: Revision, rules: Readonly<Record<string, RuleLevel>> = {}): Promise<MigrateResult> {
  const step = STEPS[`${from}→${to}`];
  if (!step) throw new Error(`no migration from ${from} to ${to}`);
  const input = parseValuesText(text, name);
  if (!input.source) return { changes: [], problems: input.problems, decisionsLeft: true };

  // Which revision the file is written for, by the check lint, plan and diff refuse the other
  // revision's values with: a key, a shape or a word one revision has and the other refuses.
  const inputCheck = await modelConfigCheckFor([input.source]);
  const ofTarget = lintValues({ revision: from, layers: [input.source], ...(inputCheck ? { checkModelConfig: inputCheck } : {}) }).problems.filter((p) => p.onlyInRevision === to);
  const ofSource = lintValues({ revision: to, layers: [input.source], ...(inputCheck ? { checkModelConfig: inputCheck } : {}) }).problems.filter((p) => p.onlyInRevision === from);
  if (ofTarget.length > 0 && ofSource.length > 0) {
    return { changes: [], problems: mixedRevisions(ofTarget, ofSource, from, to), decisionsLeft: true };
  }
  const already = ofTarget.length > 0 ? { revision: to, from, evidence: [...new Set(ofTarget.map((p) => p.path))] } : undefined;

  const doc = parseDocument(text, { lineCounter: new LineCounter(), keepSourceTokens: false, version: '1.2', logLevel: 'error' });
  const changes: Change[] = [];
  // A file already written for the target revision is left exactly as it is.
  if (!already && isMap(doc.contents)) step(doc, (c) => changes.push(c), { hasSourceOnly: ofSource.length > 0 });
  // An empty or comments-only file has nothing to migrate: it stays as it is (not `null`).
  const out = already || doc.contents === null ? text : doc.toString({ lineWidth: 0, flowCollectionPadding: flowPadding(doc, text) });

  const parsed = parseValuesText(out, name);
  const outputCheck = parsed.source ? await modelConfigCheckFor([parsed.source]) : undefined;
  const problems = applyRuleLevels(parsed.source ? lintValues({ revision: to, layers: [parsed.source], showDefaultNote: askedFor(rules), ...(outputCheck ? { checkModelConfig: outputCheck } : {}) }).problems : parsed.problems, rules);
  const decisionsLeft = changes.some((c) => c.kind === 'decide') || problems.some((p) => p.severity === 'error');
  return { text: out, changes, problems, decisionsLeft, ...(already ? { already } : {}) };
}

/** One error per key of either revision in a file that has both, where the user wrote it. */
function mixedRevisions(ofTarget: readonly Problem[], ofSource: readonly Problem[], from: Revision, to: Revision): Problem[] {
  const first = (ps: readonly Problem[]) => {
    const p = ps[0]!;
    return `\`${p.path}\`${p.line !== undefined ? ` (line ${p.line})` : ''}`;
  };
  const error = (p: Problem, mine: Revision, other: Revision, otherKey: string, hint: string): Problem => ({
    severity: 'error',
    rule: MIXED_REVISIONS_RULE,
    path: p.path,
    message: `\`${p.path}\` is written as revision ${mine} writes it, but this file also has what only revision ${other} has, e.g. ${otherKey}`,
    hint,
    ...(p.file !== undefined ? { file: p.file } : {}),
    ...(p.line !== undefined ? { line: p.line } : {}),
    ...(p.column !== undefined ? { column: p.column } : {}),
    ...(p.excerpt !== undefined ? { excerpt: p.excerpt } : {}),
    ...(p.excerptColumn !== undefined ? { excerptColumn: p.excerptColumn } : {}),
  });
  return sortProblems([
    ...ofTarget.map((p) => error(p, to, from, first(ofSource), `migrate rewrites a file written for revision ${from} alone: write this key as revision ${from} does (agentplat explain ${p.path}) or remove it, and run migrate again; or finish the file for revision ${to} by hand`)),
    ...ofSource.map((p) => error(p, from, to, first(ofTarget), `migrate rewrites this key once the file has no revision ${to} keys left; or rewrite it for revision ${to} by hand (agentplat explain ${p.path} -r ${from})`)),
  ]);
}

/** The stderr report: one line per change, then one per remaining problem, then a summary. */
export function migrationReport(result: MigrateResult, to: Revision): string {
  const lines = [...(result.notes ?? []).map((n) => `note: ${n}`)];
  for (const c of result.changes) {
    lines.push(c.at !== undefined ? `${c.at}: ${changeLine(c)}` : changeLine(c));
    // The migrated text to write where migrate could not, set off by indentation.
    if (c.text !== undefined) lines.push(...c.text.replace(/\n$/, '').split('\n').map((l) => `    ${l}`));
  }
  if (result.already) {
    lines.unshift(`already revision ${result.already.revision}: the file has what only revision ${result.already.revision} has (${result.already.evidence.join(', ')}) and nothing only revision ${result.already.from} has; nothing changed`);
  }
  for (const p of result.problems) {
    const mark = p.severity === 'error' ? 'decide: ' : '';
    const place = result.notes && p.file !== undefined && p.line !== undefined ? `${p.file}:${p.line}:${p.column ?? 1}: ` : '';
    lines.push(`${place}${p.path || p.file || '(values)'}: ${mark}${p.message} — revision ${to} lint [${p.rule}]${p.hint ? `; ${p.hint}` : ''}`);
  }
  const decisions = result.changes.filter((c) => c.kind === 'decide').length + result.problems.filter((p) => p.severity === 'error').length;
  lines.push(`${result.changes.length} change${result.changes.length === 1 ? '' : 's'}, ${decisions} decision${decisions === 1 ? '' : 's'} left for you`);
  return `${lines.join('\n')}\n`;
}

/** The layers of a release migrated by migrateLayers, and what the migration did to each. */
export interface MigratedLayers {
  loaded: LoadedLayers;
  /** Every change, with the layer it was made in (its name as given). */
  changes: (Change & { file: string })[];
  /** Each migrated layer's original (the layer the user wrote) and the changes that made it. */
  originals: Map<ValuesSource, { original: ValuesSource; changes: Change[] }>;
}

/**
 * The layers of a release rewritten for revision `to` as `migrate` rewrites a file: each -f file
 * from its text (so problems point at lines of what `agentplat migrate` prints for it), the --set
 * layers from their data.
 */
export async function migrateLayers(loaded: LoadedLayers, from: Revision, to: Revision, rules: Readonly<Record<string, RuleLevel>> = {}): Promise<MigratedLayers> {
  const sources: ValuesSource[] = [];
  const problems: Problem[] = [];
  const changes: MigratedLayers['changes'] = [];
  const originals: MigratedLayers['originals'] = new Map();
  for (const source of loaded.sources) {
    const name = `${source.name} (migrated to ${to})`;
    const result = await migrateValues(loaded.texts.get(source) ?? objectYaml(source.data), name, from, to, rules);
    for (const c of result.changes) changes.push({ file: source.name, ...c });
    const parsed = result.text !== undefined ? parseValuesText(result.text, name) : { problems: result.problems };
    problems.push(...parsed.problems);
    if (parsed.source) {
      // A GitOps object's post-renderers stay with its layers (they make the release in either revision).
      const migrated = source.postRender ? { ...parsed.source, postRender: source.postRender } : parsed.source;
      sources.push(migrated);
      originals.set(migrated, { original: source, changes: result.changes });
    }
  }
  return { loaded: { sources, problems, texts: new Map() }, changes, originals };
}
