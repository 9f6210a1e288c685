// PLACEHOLDER: the --set grammar is being written; this stub keeps the contract compiling.
import type { PathSegment } from './source.ts';
import type { Values } from './merge.ts';

export type SetKind = 'set' | 'set-string' | 'set-json';

export interface SetAssignment {
  /** Path the assignment wrote. */
  path: PathSegment[];
  /** 1-based column of the key inside the flag's argument. */
  column: number;
}

export class SetSyntaxError extends Error {
  constructor(message: string, readonly column: number, readonly hint?: string) {
    super(message);
  }
}

/** Applies one flag argument (`a.b=1,c[0]=x`) to `target`, mutating it as Helm does. */
export function applySetArgument(_target: Values, _arg: string, _kind: SetKind): SetAssignment[] {
  throw new SetSyntaxError('--set is not implemented yet', 1);
}

/** Splits `key=path` of --set-file; returns the key path and the file path. */
export function parseSetFileArgument(_arg: string): { path: PathSegment[]; file: string; column: number } {
  throw new SetSyntaxError('--set-file is not implemented yet', 1);
}
