// A lint run as the formatters see it: the one sorted Problem list, grouped by file and counted
// once here, so no formatter recounts or regroups.

import type { Revision } from '../chart/revisions.ts';
import { isDefaultsLabel } from '../values/defaults-label.ts';
import { countProblems, sortProblems, type Problem, type ProblemCounts } from '../problems/problem.ts';

export interface FileReport {
  /**
   * The file as the user named it, `--set #N` for a flag, or undefined for problems with no source
   * file of the user's: those without a position and those in the revision's defaults (their
   * problems keep the `<agentplat values --revision R>` label and its line numbers).
   */
  file: string | undefined;
  /** Sorted problems of this file (empty for an input that linted clean). */
  problems: Problem[];
  counts: ProblemCounts;
  /** The revision this file was linted at, when a run lints files at different revisions (HelmReleases and Applications of both chart versions). */
  revision?: Revision;
}

/** The command whose findings a report holds: formatters word rule help and paths after it. */
export type ReportCommand = 'lint' | 'validate' | 'plan';

export interface LintReport {
  tool: { name: string; version: string };
  command: ReportCommand;
  revision?: Revision;
  /** Sorted problems of the run (after --rule overrides and --quiet filtering). */
  problems: Problem[];
  /** One entry per input and per other source a problem points at; no-file group first, then by name. */
  files: FileReport[];
  /** How many inputs were linted (the `N files` of the summary; `files` may hold more groups). */
  inputCount: number;
  /** What an input is, for the summary (`N files`, `N resources`); file when not given. */
  inputNoun?: string;
  counts: ProblemCounts;
  /** Description of each rule id, for formatters that publish a rule table (SARIF). */
  rules: ReadonlyMap<string, string>;
}

export interface ReportInput {
  problems: readonly Problem[];
  /** Defaults to lint. */
  command?: ReportCommand;
  /** Inputs that were linted; each appears in `files` even when clean. Defaults to the files problems name. */
  inputs?: readonly string[];
  /** What an input is, when not a file (validate --cluster: `resource`). */
  inputNoun?: string;
  revision?: Revision;
  /** The revision each file was linted at, when they differ (the report's `revision` is then left out). */
  revisions?: ReadonlyMap<string, Revision>;
  toolVersion?: string;
  rules?: ReadonlyMap<string, string>;
  /** Counts of every finding, when `problems` is a filtered view (`--quiet` lists errors only). */
  counts?: ProblemCounts;
}

/** Problems listed per file, rule and path (list indices aside) before the rest are summed up in one. */
export const MAX_PROBLEMS_PER_RULE_AND_PATH = 20;

export function buildReport(input: ReportInput): LintReport {
  const all = sortProblems(input.problems);
  const problems = capProblems(all, MAX_PROBLEMS_PER_RULE_AND_PATH);
  const groups = new Map<string | undefined, { all: Problem[]; listed: Problem[] }>();
  // Findings in the chart's defaults have no file of the user's: they are listed under file null.
  const group = (file: string | undefined) => {
    const key = isDefaultsLabel(file) ? undefined : file;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { all: [], listed: [] }));
    return g;
  };
  for (const name of input.inputs ?? []) group(name);
  for (const p of all) group(p.file).all.push(p);
  for (const p of problems) group(p.file).listed.push(p);
  const files = [...groups.entries()]
    .sort(([a], [b]) => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1))
    .map(([file, g]) => {
      const revision = file === undefined ? undefined : input.revisions?.get(file);
      return { file, problems: g.listed, counts: countProblems(g.all), ...(revision ? { revision } : {}) };
    });
  const inputCount = input.inputs ? input.inputs.length : files.filter((f) => f.file !== undefined).length;
  return {
    tool: { name: 'agentplat', version: input.toolVersion ?? '0.0.0-dev' },
    command: input.command ?? 'lint',
    ...(input.revision ? { revision: input.revision } : {}),
    problems,
    files,
    inputCount,
    ...(input.inputNoun ? { inputNoun: input.inputNoun } : {}),
    counts: input.counts ?? countProblems(all),
    rules: input.rules ?? new Map(),
  };
}

/**
 * Sorted `problems` with at most `limit` per file, rule and path shape (`list[3].name` and
 * `list[7].name` share one); the rest of a group become one problem saying how many more there
 * are, in the place of the first one left out. A file with thousands of wrong entries gives a
 * report a person can read, and its counts still count every problem.
 */
export function capProblems(problems: readonly Problem[], limit: number): Problem[] {
  const seen = new Map<string, { listed: number; more: Problem[] }>();
  const out: (Problem | { more: Problem[] })[] = [];
  for (const p of problems) {
    const shape = p.path.replace(/\[\d+\]/g, '[]');
    const key = `${p.file ?? ''}\u0000${p.rule}\u0000${shape}`;
    let g = seen.get(key);
    if (!g) seen.set(key, (g = { listed: 0, more: [] }));
    if (g.listed < limit) {
      g.listed++;
      out.push(p);
    } else {
      if (g.more.length === 0) out.push({ more: g.more });
      g.more.push(p);
    }
  }
  return out.map((x) => ('more' in x ? moreProblem(x.more) : x));
}

function moreProblem(rest: readonly Problem[]): Problem {
  const first = rest[0]!;
  const shape = first.path.replace(/\[\d+\]/g, '[]');
  const cut = shape.indexOf('[]');
  const under = cut < 0 ? shape : shape.slice(0, cut);
  const severity = rest.some((p) => p.severity === 'error') ? 'error' : rest.some((p) => p.severity === 'warning') ? 'warning' : 'info';
  return {
    severity,
    rule: first.rule,
    path: under,
    message: `and ${rest.length} more ${first.rule} problem${rest.length === 1 ? '' : 's'} like the ones above${under ? ` under \`${under}\`` : ''}, not listed`,
    hint: 'fix the ones listed and run again; the summary counts every problem',
    ...(first.file !== undefined ? { file: first.file } : {}),
    ...(first.line !== undefined ? { line: first.line } : {}),
    ...(first.column !== undefined ? { column: first.column } : {}),
  };
}
