// "Did you mean …?": the candidate closest to a misspelled word, when it is close enough to be a
// plausible typo (edit distance, case-insensitive, at most a third of the longer word).

export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) {
      bestD = d;
      best = c;
    }
  }
  if (best === undefined) return undefined;
  const limit = Math.max(1, Math.floor(Math.max(word.length, best.length) / 3));
  return bestD <= limit ? best : undefined;
}

/** The `did you mean` hint text, or undefined when no candidate is close. */
export function didYouMean(word: string, candidates: readonly string[]): string | undefined {
  const n = nearest(word, candidates);
  return n === undefined ? undefined : `did you mean \`${n}\`?`;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}
