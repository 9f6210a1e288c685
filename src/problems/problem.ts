// The one finding type every stage produces and every formatter prints.
// Positions are 1-based (line and column), as editors and CI annotations expect.

export type Severity = 'error' | 'warning' | 'info';

export interface Problem {
  severity: Severity;
  /** Stable kebab-case rule id, prefixed by its stage: `values/schema`, `values/watch-scope`, `crd/cel`, … */
  rule: string;
  /** Dotted values path (`controller.pdb.minAvailable`) or object path (`spec.tools[0].type`); '' for the whole input. */
  path: string;
  /** One sentence, without location text; never contains a secret value. */
  message: string;
  /** How to fix it. */
  hint?: string;
  /** Path of the file as the user gave it, `<stdin>`, or `--set #N` for a command-line flag. */
  file?: string;
  /** 1-based line. */
  line?: number;
  /** 1-based column. */
  column?: number;
  /** The source line the problem points at (for the text formatter's excerpt); secrets are masked. */
  excerpt?: string;
  /** 1-based column of the caret in `excerpt` when masks before it moved it from `column`; absent when the two agree. */
  excerptColumn?: number;
  /**
   * A values problem whose key, shape or word the checked revision refuses because it is that of
   * another revision (`A` or `B`): the file was written for that one. `migrate` tells revisions
   * apart by it.
   */
  onlyInRevision?: string;
  /**
   * The change that fixes the problem, for an editor's quick fix: `replace` is the word to put in
   * place of the key or value the problem points at (the did-you-mean of the hint); `append` is an
   * item to add to the list at `path` (the namespace a rule asks for).
   */
  fix?: ProblemFix;
}

export type ProblemFix = { replace: string } | { append: string };

const SEVERITY_ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Sorts problems deterministically: by file, line, column, severity, rule, path, message. */
export function sortProblems(problems: readonly Problem[]): Problem[] {
  return [...problems].sort(
    (a, b) =>
      cmp(a.file ?? '', b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] ||
      cmp(a.rule, b.rule) ||
      cmp(a.path, b.path) ||
      cmp(a.message, b.message),
  );
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
  infos: number;
}

export function countProblems(problems: readonly Problem[]): ProblemCounts {
  const counts: ProblemCounts = { errors: 0, warnings: 0, infos: 0 };
  for (const p of problems) {
    if (p.severity === 'error') counts.errors++;
    else if (p.severity === 'warning') counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
