// Line diff of two texts and its unified hunks: how `agentplat diff` shows a changed object.
// Myers' O(ND) algorithm on what is left between the common first and last lines; objects differ
// in a few lines, so D stays small. Past MAX_EDITS the rest is shown as replaced: still a correct
// diff, only a longer one, and memory stays bounded whatever the input.

export interface DiffLine {
  /** ' ' the same on both sides, '-' only on the old side, '+' only on the new one. */
  op: ' ' | '-' | '+';
  text: string;
}

export interface Hunk {
  /** 1-based first line and number of lines on each side, as `@@ -a,b +c,d @@` writes them. */
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: DiffLine[];
}

/** Edits searched at most; the trace of D edits keeps about 4·D² bytes (16 MB at this bound). */
const MAX_EDITS = 2000;

/** Every line of both texts in order, each marked kept, removed or added. */
export function diffLines(a: readonly string[], b: readonly string[]): DiffLine[] {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let post = 0;
  while (post < a.length - pre && post < b.length - pre && a[a.length - 1 - post] === b[b.length - 1 - post]) post++;
  const head = a.slice(0, pre).map((text): DiffLine => ({ op: ' ', text }));
  const tail = a.slice(a.length - post).map((text): DiffLine => ({ op: ' ', text }));
  const middle = myers(a.slice(pre, a.length - post), b.slice(pre, b.length - post));
  return [...head, ...middle, ...tail];
}

function myers(a: readonly string[], b: readonly string[]): DiffLine[] {
  const n = a.length;
  const m = b.length;
  const replaced = (): DiffLine[] => [...a.map((text): DiffLine => ({ op: '-', text })), ...b.map((text): DiffLine => ({ op: '+', text }))];
  if (n === 0 || m === 0) return replaced();
  const max = Math.min(n + m, MAX_EDITS);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  let found = -1;
  for (let d = 0; d <= max && found < 0; d++) {
    // Round d reads the furthest points of round d - 1 on diagonals -d..d: that window is all the walk back needs.
    trace.push(v.slice(offset - d, offset + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1]! < v[offset + k + 1]!) ? v[offset + k + 1]! : v[offset + k - 1]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  if (found < 0) return replaced();
  // Walk the trace back from the end: each step is one removal or addition after a run of equal lines.
  const out: DiffLine[] = [];
  let x = n;
  let y = m;
  for (let d = found; d > 0; d--) {
    // The furthest points of round d - 1 (diagonal k at index k + d), from which round d stepped.
    const reached = trace[d]!;
    const k = x - y;
    const down = k === -d || (k !== d && reached[k - 1 + d]! < reached[k + 1 + d]!);
    const prevK = down ? k + 1 : k - 1;
    const prevX = reached[prevK + d]!;
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out.push({ op: ' ', text: a[--x]! });
      y--;
    }
    if (down) out.push({ op: '+', text: b[--y]! });
    else out.push({ op: '-', text: a[--x]! });
  }
  while (x > 0 && y > 0) {
    out.push({ op: ' ', text: a[--x]! });
    y--;
  }
  return out.reverse();
}

/** The changed lines with `context` unchanged lines around each, grouped into hunks. */
export function hunks(lines: readonly DiffLine[], context = 3): Hunk[] {
  const changed: number[] = [];
  lines.forEach((l, i) => l.op !== ' ' && changed.push(i));
  const out: Hunk[] = [];
  let i = 0;
  while (i < changed.length) {
    const from = Math.max(0, changed[i]! - context);
    let last = changed[i]!;
    while (i + 1 < changed.length && changed[i + 1]! - last - 1 <= 2 * context) last = changed[++i]!;
    i++;
    const to = Math.min(lines.length, last + context + 1);
    let oldStart = 1;
    let newStart = 1;
    for (let j = 0; j < from; j++) {
      if (lines[j]!.op !== '+') oldStart++;
      if (lines[j]!.op !== '-') newStart++;
    }
    const slice = lines.slice(from, to);
    const oldLines = slice.filter((l) => l.op !== '+').length;
    const newLines = slice.filter((l) => l.op !== '-').length;
    // As GNU diff writes them: an empty side starts at the line before.
    out.push({ oldStart: oldLines === 0 ? oldStart - 1 : oldStart, oldLines, newStart: newLines === 0 ? newStart - 1 : newStart, newLines, lines: slice });
  }
  return out;
}
