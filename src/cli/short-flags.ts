// `-n=x`: helm (pflag) reads it as the short flag -n with the value `x`, as commander reads
// `--namespace=x`. Commander alone takes everything after the letter as the value (`=x`), so a
// namespace, a values file or an output directory silently got a leading "=". This rewrites such
// a token into the flag and its value before commander parses the arguments.

import type { Command, Option } from 'commander';

/** `argv` (without node and the script) with every `-X=value` of a short flag that takes a value split into `-X value`. */
export function splitShortFlagEquals(argv: readonly string[], program: Command): string[] {
  const sub = program.commands.find((c) => c.name() === argv[0] || c.aliases().includes(argv[0] ?? ''));
  const options: readonly Option[] = [...program.options, ...(sub?.options ?? [])];
  const takesValue = (flag: string) => options.some((o) => (o.short === flag || o.long === flag) && (o.required || o.optional));
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') {
      out.push(...argv.slice(i));
      break;
    }
    const m = /^(-[A-Za-z0-9])=([\s\S]*)$/.exec(arg);
    if (m && takesValue(m[1]!)) {
      out.push(m[1]!, m[2]!);
      continue;
    }
    out.push(arg);
    // The value of a flag written apart (`--set -n=x`, `-f -n=x`) is the flag's, never a flag.
    if (/^-[A-Za-z0-9]$|^--[^=]+$/.test(arg) && options.some((o) => (o.short === arg || o.long === arg) && o.required) && i + 1 < argv.length) out.push(argv[++i]!);
  }
  return out;
}
