// Turns the ordered object list into what `render` prints or writes: YAML documents with
// `# Source:` headers (like `helm template`), one JSON `v1 List`, or one file per source path
// (output-dir.ts writes those).

import type { RenderedDoc } from '../model/objects.ts';
import { emitYaml } from '../yaml/emit.ts';
import { crdYaml } from '../crds/index.ts';
import { nearest } from '../problems/nearest.ts';
import { UsageError } from '../problems/errors.ts';
import { jsonText } from '../values/big-integers.ts';

/**
 * Whether a `# Source:` path is the one a --show-only name means. A plain name may leave out
 * `agentplat/` and `agentplat/templates/`; a pattern (`*`, `?`, `[…]`, as helm takes them) is
 * matched the way helm matches it (Go's path.Match) against the path after the chart name
 * (`templates/rbac/*.yaml`), or against the whole source path.
 */
export function sourceMatches(source: string, name: string): boolean {
  const n = name.replace(/^\.\//, '');
  if (!isSourcePattern(n)) return source === n || source === `agentplat/${n}` || source === `agentplat/templates/${n}`;
  const re = sourcePattern(n);
  return re !== undefined && (re.test(source) || re.test(source.replace(/^[^/]+\//, '')));
}

/** Whether a --show-only name is a pattern: helm's wildcards or an escape. */
const isSourcePattern = (name: string): boolean => /[*?[\\]/.test(name);

/**
 * A --show-only pattern as a regular expression with the meaning Go's path.Match gives it (what
 * helm template uses): `*` any run of characters but `/`, `?` one character but `/`, `[abc]`,
 * `[a-z]` and `[^abc]` one character, `\` takes the next character as it is. Undefined for a
 * pattern path.Match refuses (an unclosed `[`, an empty class, a trailing `\`).
 */
export function sourcePattern(pattern: string): RegExp | undefined {
  const chars = [...pattern];
  const literal = (c: string) => `\\u{${c.codePointAt(0)!.toString(16)}}`;
  let re = '';
  let i = 0;
  /** One character of a class: escaped or plain, never an unescaped `-` or `]`. */
  const classChar = (): string | undefined => {
    let c = chars[i];
    if (c === undefined || c === '-' || c === ']') return undefined;
    if (c === '\\') c = chars[++i];
    if (c === undefined) return undefined;
    i++;
    return c;
  };
  while (i < chars.length) {
    const c = chars[i]!;
    if (c === '*') {
      re += '[^/]*';
      i++;
    } else if (c === '?') {
      re += '[^/]';
      i++;
    } else if (c === '\\') {
      const next = chars[i + 1];
      if (next === undefined) return undefined;
      re += literal(next);
      i += 2;
    } else if (c === '[') {
      i++;
      const negated = chars[i] === '^';
      if (negated) i++;
      let members = '';
      for (let n = 0; chars[i] !== ']' || n === 0; n++) {
        const lo = classChar();
        if (lo === undefined) return undefined;
        let range = literal(lo);
        if (chars[i] === '-') {
          i++;
          const hi = classChar();
          if (hi === undefined || hi.codePointAt(0)! < lo.codePointAt(0)!) return undefined;
          range += `-${literal(hi)}`;
        }
        members += range;
      }
      i++;
      re += `[${negated ? '^' : ''}${members}]`;
    } else {
      re += literal(c);
      i++;
    }
  }
  return new RegExp(`^${re}$`, 'u');
}

/** One object as block-style YAML (stable: insertion order, no line folding, no anchors). */
export function objectYaml(obj: unknown): string {
  return emitYaml(obj);
}

/**
 * One document as `render` prints it: the `---` marker, the `# Source:` line, the object. A CRD
 * object is printed with the YAML the build wrote for it (690 kB that would otherwise be written
 * at every render); a copy of it (-l, a post-renderer) is written anew.
 */
export function docYaml(d: RenderedDoc): string {
  return `---\n# Source: ${d.source}\n${crdYaml(d.object) ?? objectYaml(d.object)}`;
}

/**
 * The documents as one string. Built by concatenation, which V8 keeps as a rope of the parts: the
 * CRDs' 690 kB of prepared text is not copied for each render, only once by whoever reads the
 * characters (a write to stdout or a file encodes the rope directly).
 */
export function toYaml(docs: readonly RenderedDoc[]): string {
  let out = '';
  for (const d of docs) out += docYaml(d);
  return out;
}

export function toJson(docs: readonly RenderedDoc[]): string {
  return `${jsonText({ apiVersion: 'v1', kind: 'List', items: docs.map((d) => d.object) }, 2)}\n`;
}

/**
 * Keeps the documents of the given sources (`--show-only`). A name matches a source path exactly,
 * or by its part after `agentplat/` or after `agentplat/templates/` (as `helm template -s` accepts
 * `templates/x.yaml`). A name that matches nothing is a usage error, with `why(name)` as its hint
 * when the caller knows which flag of the run left that source out, else a did-you-mean.
 */
export function showOnly(docs: readonly RenderedDoc[], names: readonly string[], why: (name: string) => string | undefined = () => undefined): RenderedDoc[] {
  if (names.length === 0) return [...docs];
  const bad = names.find((n) => isSourcePattern(n) && sourcePattern(n.replace(/^\.\//, '')) === undefined);
  if (bad !== undefined) {
    throw new UsageError(`--show-only ${JSON.stringify(bad)}: not a valid pattern`, 'patterns are helm\'s: * and ? match within one folder, [abc], [a-z] and [^abc] one character, \\ takes the next character as it is; close every [');
  }
  const missing = names.filter((n) => !docs.some((d) => sourceMatches(d.source, n)));
  if (missing.length > 0) {
    const known = [...new Set(docs.map((d) => d.source))].sort();
    if (isSourcePattern(missing[0]!)) {
      throw new UsageError(
        `--show-only ${missing.map((m) => JSON.stringify(m)).join(', ')}: no rendered object comes from a source that matches`,
        why(missing[0]!) ?? "a pattern matches the whole path after the chart name, as in helm (templates/*.yaml, charts/*/templates/*.yaml); `agentplat render | grep '^# Source'` lists every source",
      );
    }
    const guess = nearest(missing[0]!.replace(/^(agentplat\/)?(templates\/)?/, 'agentplat/templates/'), known);
    throw new UsageError(
      `--show-only ${missing.map((m) => JSON.stringify(m)).join(', ')}: no rendered object comes from ${missing.length === 1 ? 'that source' : 'those sources'}`,
      why(missing[0]!) ?? (guess ? `did you mean ${guess}? (\`agentplat render | grep '^# Source'\` lists every source)` : "`agentplat render | grep '^# Source'` lists every source"),
    );
  }
  return docs.filter((d) => names.some((n) => sourceMatches(d.source, n)));
}

/** The files `--output-dir` writes: one per source path, documents in output order. */
export function filesFor(docs: readonly RenderedDoc[]): Map<string, string> {
  const files = new Map<string, string>();
  for (const d of docs) {
    files.set(d.source, (files.get(d.source) ?? '') + docYaml(d));
  }
  return files;
}
