// How this process started the CLI, set once by start.ts and reported by `agentplat version`.

/** How this process started the CLI; `agentplat version` reports it. */
export type StartedFrom = 'snapshot' | 'bundle' | 'in-process';

let startedFrom: StartedFrom = 'in-process';
let snapshotFile: string | undefined;

export function setStartedFrom(from: StartedFrom, snapshot: string | undefined): void {
  startedFrom = from;
  snapshotFile = snapshot;
}

export function startedFromWhat(): StartedFrom {
  return startedFrom;
}

/** The snapshot this run started from (`agentplat-b.blob`), when it started from one. */
export function snapshotName(): string | undefined {
  return snapshotFile;
}
