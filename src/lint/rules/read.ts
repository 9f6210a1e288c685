// Durations as rules read them (values are read through model/values-access.ts).

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
