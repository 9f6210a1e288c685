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

/**
 * Why a write failed, in words, for the error codes a user can do something about; undefined for
 * any other code (the caller says what it was doing and gives the code).
 */
export function writeFailureReason(code: string | undefined): string | undefined {
  switch (code) {
    case 'ENOSPC':
      return 'the disk is full';
    case 'EDQUOT':
      return 'the disk quota is used up';
    case 'EFBIG':
      return 'the file is larger than the file system allows';
    case 'EROFS':
      return 'the file system is read-only';
    case 'EACCES':
    case 'EPERM':
      return 'no permission to write there';
    case 'EIO':
      return 'the output device failed (an input/output error)';
    case 'EBADF':
      return 'the output is closed or not open for writing';
    default:
      return undefined;
  }
}
