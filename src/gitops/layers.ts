// The value layers of a GitOps object, each pointing into the user's file: a values text read
// from inside the object (or a ConfigMap, or a values file), and `--set`-style assignments (a
// Flux `targetPath`, an Argo CD parameter) placed at the YAML node that wrote them.
import { UsageError } from '../problems/errors.ts';
import { excerptAt, maskedLines, VALUES_SECRETS, type Masked } from '../problems/secrets.ts';
import { cloneTree, type Values } from '../values/merge.ts';
import { applySetArgument, SetSyntaxError, type SetKind } from '../values/set-parser.ts';
import { parseValuesText, type Location, type PathSegment, type ValuesSource } from '../values/source.ts';
import type { EmbeddedText, OuterPosition } from './embedded.ts';

/** A text file of the user (the object's file, a ConfigMap's file, a values file of a repository). */
export interface UserFile {
  /** As shown: the path as given, or as found under --values-from. */
  name: string;
  text: string;
}

/** Where in the user's file, with the excerpt shown under a problem (secrets masked). */
export class FilePlaces {
  private lines?: Masked[];
  constructor(readonly file: UserFile) {}
  at(pos: { line: number; col: number }): Location {
    this.lines ??= maskedLines(this.file.text, VALUES_SECRETS);
    return { file: this.file.name, line: pos.line, column: pos.col, ...excerptAt(this.lines, pos.line, pos.col) };
  }
  /** `file:line:col` for a refusal's message. */
  where(pos: { line: number; col: number }): string {
    return `${this.file.name}:${pos.line}:${pos.col}`;
  }
}

/**
 * A values text embedded in the user's file as one layer: read as a values file is (the same
 * parser, limits and checks), every position mapped back into the user's file. `via` says which
 * part of the object the value comes from, given the line inside the text. A text the controller
 * could not read is refused with its position, as the controller fails the release.
 */
export function embeddedLayer(name: string, embedded: EmbeddedText, places: FilePlaces, via: (inner: { line: number; col: number }, outer: OuterPosition) => string, fix: string): ValuesSource {
  const parsed = parseValuesText(embedded.text, name);
  if (!parsed.source) {
    const first = parsed.problems[0];
    const inner = { line: first?.line ?? 1, col: first?.column ?? 1 };
    const outer = embedded.toOuter(inner.line, inner.col);
    throw new UsageError(`${places.where(outer)}: ${via(inner, outer)}: ${first?.message ?? 'not a values text'}`, fix);
  }
  const inner = parsed.source;
  return {
    name,
    data: inner.data,
    locate(path) {
      const at = inner.locate(path);
      if (!at || at.line === undefined) return at;
      const innerPos = { line: at.line, col: at.column ?? 1 };
      const outer = embedded.toOuter(innerPos.line, innerPos.col);
      return { ...places.at(outer), via: via(innerPos, outer), ...(at.anchor ? { anchor: at.anchor } : {}) };
    },
  };
}

/** One `--set`-style assignment written in the user's file. */
export interface Assignment {
  /** `path=value`, as the controller hands it to helm's parser. */
  arg: string;
  kind: SetKind;
  /** Where it is written, and what to call it (`parameters[2]`). */
  at: Location;
  /** The refusal's place and fix, when helm's parser refuses it. */
  where: string;
  fix: string;
}

/**
 * Assignments as one layer: they edit the tree the layers below built, in order, as helm's flags
 * do (`prepare` first turns that tree into the one the controller edits). The data of the layer
 * (what it writes) is checked when built, so a refusal names the assignment before anything runs.
 */
export function assignmentsLayer(name: string, assignments: readonly Assignment[], prepare?: (below: Values) => Values): ValuesSource {
  const data: Values = {};
  const written: { path: PathSegment[]; at: Location }[] = [];
  for (const a of assignments) {
    try {
      for (const w of applySetArgument(data, a.arg, a.kind)) written.push({ path: w.path, at: a.at });
    } catch (err) {
      if (!(err instanceof SetSyntaxError)) throw err;
      throw new UsageError(`${a.where}: ${err.message}`, a.fix);
    }
  }
  return {
    name,
    data,
    apply(below) {
      const tree = cloneTree(prepare ? prepare(below) : below) as Values;
      for (const a of assignments) applySetArgument(tree, a.arg, a.kind, true);
      return tree;
    },
    locate(path) {
      for (let i = written.length - 1; i >= 0; i--) {
        const w = written[i]!;
        const n = Math.min(w.path.length, path.length);
        let same = true;
        for (let k = 0; k < n; k++) if (String(w.path[k]) !== String(path[k])) { same = false; break; }
        if (same) return w.at;
      }
      return undefined;
    },
  };
}
