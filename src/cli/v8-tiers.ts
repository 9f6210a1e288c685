// Which of V8's compilers a run of the npm package uses (src/cli/launch.ts calls it before it
// compiles the CLI bundle).
//
// Node 24 turns on V8's mid-tier compiler, Maglev (Node 22 leaves it off), which compiles a
// function on a worker thread once it has run 400 times. A command runs for about a tenth of a
// second, and the code arrives when the run is nearly over: 10 to 18 ms of CPU of a render,
// nothing gained (docs/decisions.md, "Start-up on Node 24, second round"). The package cannot pass
// Node a flag (`#!/usr/bin/env -S node …` is not portable), so it sets V8's flags through node:v8
// here, before any of the CLI's code is compiled or has run:
// - `render` and `template`, whose work is bounded by the chart and a values file of at most
//   1 MiB, run without Maglev and TurboFan (`--no-maglev --no-turbofan`): their code runs in
//   Sparkplug, whose code comes at once on the main thread;
// - every other command delays Maglev to functions run 5,000 times
//   (`--invocation-count-for-maglev=5000`, as the single executable does, scripts/build-exe.mjs):
//   a short run compiles nothing on the side, and a long one (`validate` of many files, `lint`
//   of a large file, `explain`) still gets the mid tier for its hottest functions, which
//   `--no-maglev` took from it (a `validate` of one rendered chart 240 against 180 ms of CPU,
//   docs/decisions.md, "Start-up on Node 24, third round");
// - a render also has V8 grow its young generation by 8 rather than 2 after a scavenge
//   (`--semi-space-growth-factor=8`): one scavenge in a render instead of three
//   (docs/decisions.md, "Start-up on Node 24, fourth round").
//
// Why setting them here is safe. They only change when and whether V8 moves a function to a
// faster tier, or how soon the young generation grows: the interpreter and Sparkplug remain,
// every tier runs the same code correctly, and a collection frees the same garbage whenever it runs.
// They are set before the CLI's code is compiled: no function of the CLI is ever compiled by
// Maglev in a render (test/cli/node24-start.test.ts). The few of Node's own that got warm while
// Node started (a path helper) keep the Maglev code they have, which stays valid and deoptimises
// as any code does. V8 puts its flags in the hash it stamps on every code cache: the CLI's cache
// is written by a run under the same flags and is taken as it is; the code cache Node ships for
// its own modules is not, so a module of Node loaded after this line is compiled from its source
// (0.5 to 1 ms each: the commands that set flags load none on their usual path, now that the
// checksums no longer load node:crypto, src/model/checksum.ts).

import { noteV8FlagsSet } from '../code-cache.ts';

/**
 * The words of a command line that leave V8's defaults: no command (`--version`, `--help`, whose
 * run is too short for any compiler to matter and which would pay only for loading node:v8),
 * `version` and `help` alike, and the language server, which runs as long as the editor does
 * and gains from the mid tier as any long process does.
 */
const LEAVE_ON = new Set(['version', 'help', 'lsp']);

/**
 * The commands that run without Maglev and TurboFan: a render's work is bounded by the chart (a
 * tenth of a second), too short for either's code to pay back its compilation on a worker thread.
 * Every other command delays Maglev and keeps TurboFan: `validate` and `lint` grow with their input.
 */
const NO_TURBOFAN = new Set(['render', 'template']);

/** The invocations before Maglev compiles a function (V8's default 400), for commands other than a render. */
const MAGLEV_AFTER = 5000;

/**
 * How much V8 grows the young generation after a scavenge (its default 2), for a render. The
 * young generation starts small, and a render allocates a few megabytes after its first
 * scavenge, most of it short-lived: grown by 2 it scavenges twice more (revision A with a values
 * file: three times more), each about 1.3 ms on the main thread and more on V8's worker threads;
 * grown by 8 it does not scavenge again (docs/decisions.md, "Start-up on Node 24, fourth round").
 * The young generation's ceiling is V8's, unchanged: a larger render still scavenges as often as
 * its garbage needs. The size it starts at is fixed when Node makes the heap, before any code of
 * ours runs; the factor is read at every scavenge, so it can be set here.
 */
const RENDER_YOUNG_GROWTH = 8;

/**
 * The V8 flags a run of `agentplat <word> …` sets, on this Node with these options: none; for a
 * render `--no-maglev --no-turbofan` and the young generation grown faster (unless the user set
 * its growth); for any other command Maglev delayed.
 */
export function v8FlagsFor(word: string | undefined, nodeVersion: string = process.versions.node, nodeOptions: string = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')): string {
  if (word === undefined || LEAVE_ON.has(word)) return '';
  // Maglev is on by default from Node 24; on Node 22 and 20 there is nothing to turn off.
  if (Number(nodeVersion.split('.')[0]) < 24) return '';
  // A user who chose how V8 compiles (node --maglev …, --no-opt, --jitless, in NODE_OPTIONS too) keeps it.
  if (nodeOptions.split(/\s+/).some(choosesCompiler)) return '';
  if (!NO_TURBOFAN.has(word)) return `--invocation-count-for-maglev=${MAGLEV_AFTER}`;
  // A user who chose how the young generation grows keeps it.
  return /--semi[-_]space[-_]growth[-_]factor\b/.test(nodeOptions) ? '--no-maglev --no-turbofan' : `--no-maglev --no-turbofan --semi-space-growth-factor=${RENDER_YOUNG_GROWTH}`;
}

/** The names of V8 flags that choose a compiler tier, beside those naming Maglev, TurboFan or Sparkplug. */
const TIER_FLAGS = new Set(['opt', 'always-opt', 'max-opt', 'jitless', 'lite-mode', 'turbo-filter']);

/** Whether a word of Node's options is a V8 flag choosing how V8 compiles (V8 reads `_` as `-`). */
function choosesCompiler(word: string): boolean {
  const flag = /^--(?:no-|no_)?([a-z0-9_-]+)(?:=|$)/.exec(word);
  if (!flag) return false;
  const name = flag[1]!.replaceAll('_', '-');
  return TIER_FLAGS.has(name) || /maglev|turbofan|sparkplug/.test(name);
}

export function setV8Flags(word: string | undefined): void {
  const flags = v8FlagsFor(word);
  // node:v8 loads Node's stream modules with it (2 to 3 ms): only the runs that set a flag load it.
  if (flags === '') return;
  process.getBuiltinModule('node:v8').setFlagsFromString(flags);
  noteV8FlagsSet(flags);
}
