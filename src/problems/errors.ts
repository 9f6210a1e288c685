// Failures that are not findings about the user's values: bad flags, unreadable input, bugs.
// Each carries the process exit code; only the CLI entry turns it into process.exitCode.

export const EXIT_OK = 0;
export const EXIT_PROBLEMS = 1;
export const EXIT_USAGE = 2;
export const EXIT_INTERNAL = 3;

export class AgentplatError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** A bad flag, an unknown revision, a missing or unreadable input file: nothing was checked. */
export class UsageError extends AgentplatError {
  constructor(message: string, hint?: string) {
    super(message, EXIT_USAGE, hint);
  }
}
