// What a migration reports: one line per change, `path: what happened — why`.

export type ChangeKind =
  /** Rewritten automatically with the same meaning. */
  | 'changed'
  /** Removed; nothing is lost (empty, default, or no longer needed). */
  | 'removed'
  /** Needs the user: a setting whose effect revision B gives no automatic equivalent for. */
  | 'decide';

export interface Change {
  /** Values path in the input (revision A) file. */
  path: string;
  kind: ChangeKind;
  /** What happened (`renamed to otel.traces.enabled`). */
  what: string;
  /** Why, and what replaces it. */
  why: string;
  /**
   * Values paths in the output (revision B) file that this change wrote the value of `path` to
   * (the same path for a value rewritten in place); absent when nothing of it is kept.
   */
  to?: string[];
  /**
   * A `removed` value the user set whose effect revision B does not have at all (no setting does
   * what it did): nothing of it is kept, and the upgrade changes what it controlled. plan counts
   * it as needing attention.
   */
  dropped?: true;
}

export function changeLine(c: Change): string {
  const mark = c.kind === 'decide' ? 'decide: ' : '';
  return `${c.path}: ${mark}${c.what} — ${c.why}`;
}

/**
 * A change of a user's layer as plan, diff and values report it: at the `file:line:col` where the
 * user wrote its key (`at`, from migrate/origin.ts `changeLocations`), else at the layer's name.
 */
export function locatedChangeLine(c: Change & { file: string }, at?: { file?: string; line?: number; column?: number }): string {
  const file = at?.file ?? c.file;
  return `${file}${at?.line !== undefined ? `:${at.line}${at.column !== undefined ? `:${at.column}` : ''}` : ''}: ${changeLine(c)}`;
}
