// One turn of the event loop for long loops in tests. A test file runs in a worker that must
// answer vitest's RPC within a fixed 60 s; a loop that never returns to the event loop (a
// synchronous property over thousands of inputs, a row of child processes started with spawnSync)
// holds that answer back for as long as it runs. On a machine loaded tenfold that passes 60 s, and
// vitest ends the run with "Timeout calling onTaskUpdate" although every test passed. The turn is
// taken through setImmediate, after the poll phase in which the worker reads the runner's
// messages; it costs about 10 µs, so loops take it on every pass rather than counting passes.

/** Resolves after one turn of the event loop (its poll phase included). */
export function breathe(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** A synchronous property predicate as an async one (for fc.asyncProperty) that first lets the event loop turn. */
export function breathing<A extends unknown[]>(predicate: (...args: A) => boolean | void): (...args: A) => Promise<boolean | void> {
  return async (...args: A) => {
    await breathe();
    return predicate(...args);
  };
}
