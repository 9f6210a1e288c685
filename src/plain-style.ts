// Text styles for output without color, with chalk's interface: every style, alone or chained
// (`plain.red.bold(…)`), returns its text as chalk at level 0 does. Output that is not colored
// (a pipe, a file, NO_COLOR, machine formats: nearly every run) never loads chalk, whose import
// probes the terminal and loads node:tty with the net and stream modules behind it (about 2 ms of
// every start-up, bench/bench.mjs).
import type { ChalkInstance } from 'chalk';

const unstyled = (...text: unknown[]): string => (text.length === 1 ? String(text[0]) : text.join(' '));

// Any style name gives the same styles back; `then` is none (a promise resolved with these styles
// must not take them for a promise), and symbols are the function's own.
export const PLAIN: ChalkInstance = new Proxy(unstyled, {
  get: (target, key) => (typeof key !== 'string' ? Reflect.get(target, key) : key === 'level' ? 0 : key === 'then' ? undefined : PLAIN),
}) as unknown as ChalkInstance;
