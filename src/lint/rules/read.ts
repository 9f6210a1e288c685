// Defensive readers for rules: values may hold anything the user typed, so a rule asks for the
// type it needs and gets undefined otherwise.

import { getPath, isPlainMap, splitPath } from '../../values/merge.ts';

export function get(values: unknown, path: string): unknown {
  return getPath(values, splitPath(path));
}
export function str(values: unknown, path: string): string | undefined {
  const v = get(values, path);
  return typeof v === 'string' ? v : undefined;
}
export function num(values: unknown, path: string): number | undefined {
  const v = get(values, path);
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}
export function bool(values: unknown, path: string): boolean | undefined {
  const v = get(values, path);
  return typeof v === 'boolean' ? v : undefined;
}
export function list(values: unknown, path: string): unknown[] | undefined {
  const v = get(values, path);
  return Array.isArray(v) ? v : undefined;
}
export function map(values: unknown, path: string): Record<string, unknown> | undefined {
  const v = get(values, path);
  return isPlainMap(v) ? v : undefined;
}
export function strings(values: unknown, path: string): string[] {
  return (list(values, path) ?? []).filter((x): x is string => typeof x === 'string');
}

/** Seconds of a duration like 1800s, 30m, 1h30m, 250ms; undefined when it does not parse. */
export function durationSeconds(text: string): number | undefined {
  if (/^0+$/.test(text)) return 0;
  const re = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/gy;
  let total = 0;
  let matched = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const n = Number(m[1]);
    total += n * { ns: 1e-9, us: 1e-6, µs: 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 }[m[2] as 'ns']!;
    matched = re.lastIndex;
  }
  return matched === text.length && matched > 0 ? total : undefined;
}
