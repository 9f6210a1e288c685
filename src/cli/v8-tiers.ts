// Which of V8's compilers a run of the npm package uses (src/cli/launch.ts calls it before it
// compiles the CLI bundle).
//
// Node 24 turns on V8's mid-tier compiler, Maglev (Node 22 leaves it off). A command runs for
// about a tenth of a second, and in that time Maglev compiles the functions that got warm on
// V8's worker threads and the code arrives when the run is nearly over: 10 to 18 ms of CPU of a
// render, nothing gained (docs/decisions.md, "Start-up on Node 24, second round"). The single
// executable delays Maglev in its configuration (scripts/build-exe.mjs); the package cannot pass
// Node a flag (`#!/usr/bin/env -S node …` is not portable), so it sets `--no-maglev` through
// node:v8 here, before any of the CLI's code is compiled or has run. `render` and
// `template` leave TurboFan out too: in a run that short its code arrives too late to pay back
// the compiling (below, NO_TURBOFAN).
//
// Why setting it here is safe. `--no-maglev` removes one tier: V8's tiering then goes from the
// interpreter and Sparkplug straight to TurboFan, as on Node 22
// (`--no-turbofan` removes the top one: a render's code then runs in Sparkplug, correct in any tier). It is set
// before the CLI's code is compiled: no function of the CLI is ever compiled by Maglev
// (test/cli/node24-start.test.ts). The few of Node's own that got warm while Node started (a path
// helper) keep the Maglev code they have, which stays valid and deoptimises as any code does; V8
// only stops making more. V8 puts its flags in the hash it stamps on every code cache: the CLI's
// cache is written by a run under the same flags and is taken as it is; the code cache Node ships
// for its own modules is not, so a module of Node loaded after this line is compiled from its
// source (0.5 to 1 ms each: the commands that flip the flag load none on their usual path, now
// that the checksums no longer load node:crypto, src/model/checksum.ts).

import { noteV8FlagsSet } from '../code-cache.ts';

/**
 * The words of a command line that leave Maglev on: no command (`--version`, `--help`, whose
 * run is too short for any compiler to matter and which would pay only for loading node:v8),
 * `version` and `help` alike, and the language server, which runs as long as the editor does
 * and gains from the mid tier as any long process does.
 */
const LEAVE_ON = new Set(['version', 'help', 'lsp']);

/**
 * The commands that also leave TurboFan out: a render's work is bounded by the chart (a tenth of a
 * second), too short for TurboFan's code to pay back its compilation on a worker thread. Every
 * other command keeps it: `validate` and `lint` grow with their input (a lint of the largest
 * values file ran faster without it too, but a values file has no bound).
 */
const NO_TURBOFAN = new Set(['render', 'template']);

/**
 * The V8 flags a run of `agentplat <word> …` sets, on this Node with these options: none, or
 * `--no-maglev`, and for a render `--no-turbofan` too.
 */
export function v8FlagsFor(word: string | undefined, nodeVersion: string = process.versions.node, nodeOptions: string = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].join(' ')): string {
  if (word === undefined || LEAVE_ON.has(word)) return '';
  // Maglev is on by default from Node 24; on Node 22 and 20 there is nothing to turn off.
  if (Number(nodeVersion.split('.')[0]) < 24) return '';
  // A user who chose how V8 compiles (node --maglev …, --no-opt, --jitless, in NODE_OPTIONS too) keeps it.
  if (nodeOptions.split(/\s+/).some(choosesCompiler)) return '';
  return NO_TURBOFAN.has(word) ? '--no-maglev --no-turbofan' : '--no-maglev';
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
