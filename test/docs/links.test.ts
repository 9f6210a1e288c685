// Every relative link of the README and of docs/ leads somewhere: the file it names exists, and the
// heading its #anchor names is in that file (as GitHub makes a heading's anchor). A section moved
// or renamed without its links fails here, with each broken link at its file and line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

/** The Markdown pages users read: the README and every page of docs/. */
function pages(): string[] {
  const docs = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => join(ROOT, 'docs', f));
  return [join(ROOT, 'README.md'), ...docs];
}

/** The lines of a page outside fenced code blocks, with inline code spans blanked (links in code are not links). */
function prose(text: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = [];
  let fence: string | undefined;
  text.split('\n').forEach((l, i) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1]!.startsWith(fence)) fence = undefined;
      return;
    }
    if (fence || /^( {4}|\t)/.test(l)) return;
    out.push({ line: i + 1, text: l.replace(/(`+)[\s\S]*?\1/g, (m) => ' '.repeat(m.length)) });
  });
  return out;
}

/** GitHub's anchor of a heading: its text as shown, lower case, punctuation dropped, spaces as dashes. */
export function slug(heading: string): string {
  const shown = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .replace(/<[^>]+>/g, '');
  return shown.trim().toLowerCase().replace(/[^\p{L}\p{N}\p{M} _-]/gu, '').replace(/ /g, '-');
}

/** The anchors a page defines: one per heading (a repeated one gets -1, -2, …) and each `<a id|name>`. */
function anchors(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const seen = new Map<string, number>();
  const out = new Set<string>();
  let fence: string | undefined;
  for (const l of text.split('\n')) {
    const f = /^\s*(`{3,}|~{3,})/.exec(l);
    if (f) {
      if (!fence) fence = f[1];
      else if (f[1]!.startsWith(fence)) fence = undefined;
      continue;
    }
    if (fence) continue;
    const h = /^#{1,6} (.*?)\s*#*\s*$/.exec(l);
    if (h) {
      const base = slug(h[1]!);
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      out.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const m of l.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1]!);
  }
  return out;
}

/** Each relative link of a page that leads nowhere, as `file:line: target (why)`. */
export function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  const where = relative(ROOT, file);
  for (const { line, text } of prose(readFileSync(file, 'utf8'))) {
    for (const m of text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      const target = m[1]!;
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not a file of this repository
      const hash = target.indexOf('#');
      const path = hash < 0 ? target : target.slice(0, hash);
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1));
      const resolved = path === '' ? file : join(dirname(file), decodeURIComponent(path));
      if (!existsSync(resolved)) {
        broken.push(`${where}:${line}: ${target} (no file ${relative(ROOT, resolved)})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) {
        broken.push(`${where}:${line}: ${target} (no heading #${anchor} in ${relative(ROOT, resolved)})`);
      }
    }
  }
  return broken;
}

/** The TypeScript sources under `dir`, by path. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

/**
 * Each pointer of src/ or test/ to a page (`docs/commands.md, "Pruning with ApplySets"`, `README, "A tour"`)
 * whose page or section does not exist: messages and comments send readers there.
 */
export function brokenPointers(files: readonly string[]): string[] {
  const broken: string[] = [];
  for (const file of files) {
    readFileSync(file, 'utf8').split('\n').forEach((l, i) => {
      for (const m of l.matchAll(/\b(docs\/[a-z0-9-]+\.md|README(?:\.md)?)(?:,? (?:section )?"([^"]+)")?(?!['`])/g)) {
        const page = join(ROOT, m[1]!.startsWith('README') ? 'README.md' : m[1]!);
        const where = `${relative(ROOT, file)}:${i + 1}: ${m[0]}`;
        if (!existsSync(page)) broken.push(`${where} (no file ${relative(ROOT, page)})`);
        // A section is named by its heading or the start of it ("The database URL lives in a Secret").
        else if (m[2] !== undefined && ![...anchors(page)].some((a) => a.startsWith(slug(m[2]!)))) broken.push(`${where} (no heading "${m[2]}" in ${relative(ROOT, page)})`);
      }
    });
  }
  return broken;
}

describe('the links of the README and docs/', () => {
  it('every relative link names a file that exists and, with #anchor, a heading of that file', () => {
    const files = pages();
    expect(files.length).toBeGreaterThan(5);
    expect(files.flatMap(brokenLinks)).toEqual([]);
  });

  it("the pages and sections agentplat's messages, sources and tests point at exist", () => {
    const files = [...sources(join(ROOT, 'src')), ...sources(join(ROOT, 'test'))];
    expect(files.length).toBeGreaterThan(50);
    expect(brokenPointers(files)).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = new Set([...readme.matchAll(/\]\(docs\/([^)#\s]+)/g)].map((m) => m[1]));
    const missing = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md') && !linked.has(f));
    expect(missing).toEqual([]);
  });

  it('anchors are made as GitHub makes them', () => {
    expect(slug('`diff --cluster`: a preflight against the live cluster')).toBe('diff---cluster-a-preflight-against-the-live-cluster');
    expect(slug('The JSON contract (version 1)')).toBe('the-json-contract-version-1');
    expect(slug('Argo CD (config management plugin)')).toBe('argo-cd-config-management-plugin');
    expect(slug("Where agentplat's `--set` differs from helm's, and why")).toBe('where-agentplats---set-differs-from-helms-and-why');
  });
});
