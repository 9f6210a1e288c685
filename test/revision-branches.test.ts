// Revision differences are data of the revision model (src/model/revisions/a.ts, b.ts), not `if`
// branches: outside the two adapters, the specification's data (src/spec/) and the values model
// (src/values/), no source file compares the revision with 'A' or 'B'. The budget is five
// documented exceptions; today there are none, and the number is pinned so a new branch has to
// be argued for here (add it to EXCEPTIONS with the reason) instead of slipping in.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const ALLOWED = [/^src\/model\/revisions\//, /^src\/spec\//, /^src\/values\//];
/** `file:line` of a comparison that stays, with why. */
const EXCEPTIONS: Record<string, string> = {};

// `revision === 'A'`, `ctx.revision !== 'B'`, `'A' === rev`, `case 'B':` (a switch on the revision).
const COMPARISON = /\b(?:rev(?:ision)?|r)\s*[!=]==?\s*['"][AB]['"]|['"][AB]['"]\s*[!=]==?\s*[\w.]*\brev(?:ision)?\b|\bcase\s+['"][AB]['"]\s*:/;

function comparisons(text: string): number[] {
  return text.split('\n').flatMap((line, i) => (COMPARISON.test(line) ? [i + 1] : []));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) return sources(p);
    return p.endsWith('.ts') && !p.endsWith('.test.ts') ? [p] : [];
  });
}

describe('revision tests outside the revision adapters', () => {
  it('the pattern finds each way of testing the revision, and not a revision used as data', () => {
    const found = comparisons(
      [
        "if (ctx.revision === 'A') x();",
        "const k = revision !== 'B' ? 1 : 2;",
        "if ('A' === opts.revision) y();",
        "  case 'B':",
        "const rev = REVISIONS[ctx.revision];",
        "const key = `${revision}`;",
      ].join('\n'),
    );
    expect(found).toEqual([1, 2, 3, 4]);
  });

  it('no source file outside model/revisions/, spec/ and values/ compares the revision (pinned: 0 of a budget of 5)', () => {
    const found: string[] = [];
    for (const file of sources(join(ROOT, 'src'))) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (ALLOWED.some((re) => re.test(rel))) continue;
      for (const line of comparisons(readFileSync(file, 'utf8'))) found.push(`${rel}:${line}`);
    }
    expect(found.filter((at) => !(at in EXCEPTIONS))).toEqual([]);
    expect(found.sort()).toEqual(Object.keys(EXCEPTIONS).sort());
    expect(found.length).toBeLessThanOrEqual(5);
  });
});
