// The one seam for start-up speed. What the product would otherwise compute at every start (the
// templates' line programs, the values validators, the defaults' data and key positions, the CRD
// texts and objects, validate's data and validators) is read through the `Precomputed` interface.
// It has two implementations:
// - plain (src/pipeline/precomputed-plain.ts): computes each member from the sources on first use;
//   the tests run on it, and the build runs it to write the data files;
// - built (src/pipeline/precomputed-built.ts): reads what the build wrote to dist/generated/; the
//   bundle's entries install it (src/pipeline/use-built.ts).
// Each stage adds the members it reads to the interface (declaration merging), next to the
// function that reads them, so no stage imports the ones above it. Tests run both in one process
// and compare what they produce (test/precomputed-parity.test.ts). What each member saves, and so
// why it is worth a build step, is measured by bench/bench.mjs and written at the member.

/** Members are declared by the stages that read them (`declare module '../precomputed.ts'`). */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Precomputed {}

let installed: Partial<Precomputed> = {};
let generation = 0;

/**
 * Makes `impl`'s members the ones read from now on (members it lacks stay as they were), and
 * returns what was installed before, to put back with `installPrecomputed(previous, true)`.
 */
export function installPrecomputed(impl: Partial<Precomputed>, replace = false): Partial<Precomputed> {
  const previous = installed;
  installed = replace ? { ...impl } : { ...installed, ...impl };
  generation += 1;
  return previous;
}

/** The installed implementation of one member. */
export function precomputed<K extends keyof Precomputed>(key: K): Precomputed[K] {
  const member = installed[key];
  if (member === undefined) throw new Error(`no implementation of ${String(key)} is installed (an entry point installs one: src/pipeline/use-built.ts, or the plain one in tests)`);
  return member as Precomputed[K];
}

/**
 * A cache of something made from members (`make()` runs on first use), made again after another
 * implementation is installed, so that a test comparing the two never reads one through the other.
 */
export function perInstall<T>(make: () => T): () => T {
  let made: { generation: number; value: T } | undefined;
  return () => {
    if (made?.generation !== generation) made = { generation, value: make() };
    return made.value;
  };
}
