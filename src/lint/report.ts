// A lint run as the formatters see it: the one sorted Problem list, grouped by file and counted
// once here, so no formatter recounts or regroups.

import type { Revision } from '../spec/revisions.ts';
import { isDefaultsLabel } from '../values/defaults-label.ts';
import { countProblems, sortProblems, type Problem, type ProblemCounts } from './problem.ts';

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
}

export interface LintReport {
  tool: { name: string; version: string };
  revision?: Revision;
  /** Sorted problems of the run (after --rule overrides and --quiet filtering). */
  problems: Problem[];
  /** One entry per input and per other source a problem points at; no-file group first, then by name. */
  files: FileReport[];
  /** How many inputs were linted (the `N files` of the summary; `files` may hold more groups). */
  inputCount: number;
  counts: ProblemCounts;
  /** Description of each rule id, for formatters that publish a rule table (SARIF). */
  rules: ReadonlyMap<string, string>;
}

export interface ReportInput {
  problems: readonly Problem[];
  /** Inputs that were linted; each appears in `files` even when clean. Defaults to the files problems name. */
  inputs?: readonly string[];
  revision?: Revision;
  toolVersion?: string;
  rules?: ReadonlyMap<string, string>;
  /** Counts of every finding, when `problems` is a filtered view (`--quiet` lists errors only). */
  counts?: ProblemCounts;
}

export function buildReport(input: ReportInput): LintReport {
  const problems = sortProblems(input.problems);
  const groups = new Map<string | undefined, Problem[]>();
  for (const name of input.inputs ?? []) groups.set(name, []);
  for (const p of problems) {
    const key = isDefaultsLabel(p.file) ? undefined : p.file;
    const list = groups.get(key);
    if (list) list.push(p);
    else groups.set(key, [p]);
  }
  const files = [...groups.entries()]
    .sort(([a], [b]) => (a === b ? 0 : a === undefined ? -1 : b === undefined ? 1 : a < b ? -1 : 1))
    .map(([file, list]) => ({ file, problems: list, counts: countProblems(list) }));
  const inputCount = input.inputs ? input.inputs.length : files.filter((f) => f.file !== undefined).length;
  return {
    tool: { name: 'agentplat', version: input.toolVersion ?? '0.0.0-dev' },
    ...(input.revision ? { revision: input.revision } : {}),
    problems,
    files,
    inputCount,
    counts: input.counts ?? countProblems(problems),
    rules: input.rules ?? new Map(),
  };
}
