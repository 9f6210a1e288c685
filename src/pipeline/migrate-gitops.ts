// `migrate` of a file holding Flux HelmReleases or Argo CD Applications of the chart. The values
// migration is migrate's own (migrateValues, handed in), run on each value layer of each release;
// this module reads the object and writes it back. What the user's file itself holds is rewritten
// there, the migrated text spliced over the node it replaces, so every other byte of the file (the
// rest of the document, its comments, the other documents) stays as it was: the inline values
// (Flux `spec.values`, Argo CD `helm.valuesObject`, `helm.values` kept a string), a valuesFrom
// ConfigMap's (or a Secret's stringData) values text in the same file, and the chart version, moved
// to the target revision's line in the same spelling. What is written elsewhere (another file, the
// cluster, a Secret's base64 data, a targetPath, parameters, a repository's values file) is not
// written: each change it needs is a decision named at its place, with the change to make there.
import { readGitopsFile, type GitopsReader, type GitopsRelease, type UserFile } from '../gitops/index.ts';
import type { WrittenLayer } from '../gitops/release.ts';
import { resolveVersion, versionOnLine } from '../gitops/versions.ts';
import { REVISIONS, type Revision } from '../chart/revisions.ts';
import { applyRuleLevels, askedFor, type RuleLevel } from '../lint/config.ts';
import { lintValues } from '../lint/lint.ts';
import { modelConfigCheckFor } from '../lint/crd-check.ts';
import type { Change } from '../migrate/changes.ts';
import { UsageError } from '../problems/errors.ts';
import type { Problem } from '../problems/problem.ts';
import { objectYaml } from '../render/manifests.ts';
import { splitPath } from '../values/merge.ts';
import { isPlainSafe } from '../yaml/plain-safe.ts';

/** A change at the place it is about (`file:line:col`), with the migrated text to write there when migrate could not. */
export type LocatedChange = Change & { at?: string; text?: string };

/** migrate's values migration of one text: the migrated text, its changes, and its refusal of a text that mixes both revisions. */
export type MigrateText = (text: string, name: string) => Promise<{ text?: string; changes: Change[]; mixed: Problem[] }>;

export interface GitopsMigration {
  /** The file with what it holds migrated; the input unchanged when nothing needed to change. */
  text: string;
  changes: LocatedChange[];
  /** The lint of the migrated releases in the target revision (and a mixed file's refusal, at its keys). */
  problems: Problem[];
  /** What was read but changes nothing (the releases' notes), and "already" lines. */
  notes: string[];
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

/** The releases of `file` migrated from revision `from` to `to`; a range or value migrate cannot rewrite is refused (UsageError) before anything is written. */
export async function migrateGitopsFile(file: UserFile, reader: GitopsReader, from: Revision, to: Revision, migrate: MigrateText, rules: Readonly<Record<string, RuleLevel>>): Promise<GitopsMigration> {
  const read = readGitopsFile(file, reader);
  if (read.releases.length === 0) {
    throw new UsageError(`${file.name}: holds no HelmRelease or Application of the agentplat chart${read.notes.length > 0 ? ` (${read.notes.join('; ')})` : ''}`, 'name the file that holds the release of this chart');
  }
  const notes = [...read.notes];
  const changes: LocatedChange[] = [];
  const mixed: Problem[] = [];
  const edits: Edit[] = [];
  for (const r of read.releases) {
    const before = changes.length;
    const version = versionEdit(r, file, from, to);
    if (version.edit) edits.push(version.edit);
    if (version.change) changes.push(version.change);
    for (const w of r.written.layers) {
      const m = await migrate(w.text ?? objectYaml(w.layer.data), `${w.at.file} ${w.label}`);
      mixed.push(...m.mixed.map((p) => locatedProblem(p, w)));
      if (m.changes.length === 0 || m.text === undefined) continue;
      const at = (c: Change) => {
        const loc = w.layer.locate(splitPath(c.path));
        return loc?.line !== undefined ? `${loc.file}:${loc.line}:${loc.column ?? 1}` : w.at.where;
      };
      if (w.at.file === file.name && (w.form === 'map' || w.form === 'string')) {
        edits.push(w.form === 'map' ? mapEdit(file.text, w.at, m.text) : stringEdit(file.text, w.at, m.text));
        for (const c of m.changes) changes.push({ ...c, at: at(c) });
        continue;
      }
      const why = elsewhere(w, file.name);
      m.changes.forEach((c, i) => {
        changes.push({ ...c, kind: 'decide', why: `${c.why}; ${why}`, at: at(c), ...(i === 0 && w.form !== 'assignments' && w.form !== 'file' ? { text: m.text } : {}) });
      });
    }
    if (changes.length === before && r.revision === to) {
      notes.push(`already revision ${to}: ${r.title}'s chart version (${r.versionFrom}) is revision ${to} and its values need no change; nothing changed`);
    }
  }
  const text = applyEdits(file.text, edits);
  // The migrated releases linted in the target revision, read back from what was written (with
  // what their sources elsewhere still hold), so every problem points at a line of the output.
  const problems: Problem[] = [...mixed];
  if (mixed.length === 0) {
    for (const r of readGitopsFile({ name: file.name, text }, reader).releases) {
      const check = await modelConfigCheckFor(r.layers);
      problems.push(...applyRuleLevels(lintValues({ revision: to, layers: r.layers, showDefaultNote: askedFor(rules), ...(check ? { checkModelConfig: check } : {}) }).problems, rules));
    }
  }
  return { text, changes, problems, notes };
}

/** The chart version moved to revision `to`'s line: an edit of the user's file, or a decision where it is written elsewhere. */
function versionEdit(r: GitopsRelease, file: UserFile, from: Revision, to: Revision): { edit?: Edit; change?: LocatedChange } {
  const v = r.written.version;
  if (r.revision !== from || !v) return {};
  const line = REVISIONS[to].chartVersion.replace(/\.\d+$/, '.x');
  const fromLine = REVISIONS[from].chartVersion.replace(/\.\d+$/, '.x');
  if (v.fixed) {
    return { change: { path: v.key, kind: 'decide', what: `"${v.value}" is revision ${from}`, why: `revision ${to} is chart ${line}; ${v.fixed}`, at: v.where } };
  }
  const next = versionOnLine(v.value, to);
  if (next === undefined || resolveVersion(next)?.revision !== to) {
    throw new UsageError(
      `${v.where}: ${r.title}: ${v.key} "${v.value}" is a range migrate does not rewrite (it rewrites an exact version, or a range of one minor release: ${fromLine}, ~${fromLine.replace(/x$/, '0')}, ^${fromLine.replace(/x$/, '0')}); nothing was written`,
      `set ${v.key} to ${line} (or the exact ${REVISIONS[to].chartVersion}) and run migrate again: the values are migrated all the same`,
    );
  }
  if (v.file !== file.name) {
    return { change: { path: v.key, kind: 'decide', what: `set it to "${next}"`, why: `revision ${to} is chart ${line}; the version is written in ${v.file}, which migrate does not write: change it there`, at: v.where } };
  }
  const source = file.text.slice(v.start, v.end);
  const quote = source[0] === '"' || source[0] === "'" ? source[0] : isPlainSafe(next) ? '' : '"';
  return {
    edit: { start: v.start, end: v.end, text: `${quote}${next}${quote}` },
    change: { path: v.key, kind: 'changed', what: `"${v.value}" → "${next}"`, why: `revision ${to} is chart ${line}`, at: v.where },
  };
}

/** Why a layer's change is left to the user, and where to make it. */
function elsewhere(w: WrittenLayer, fileName: string): string {
  if (w.form === 'assignments') return `not written: the value is set by ${w.label} (${w.at.where}); make the change there`;
  if (w.form === 'file') return `not written: ${w.at.file} is a values file of the repository; migrate it with: agentplat migrate -i ${w.at.file}`;
  if (w.at.file.startsWith('cluster:')) return `not written: ${w.label} is read from the cluster (${w.at.file}); write the migrated text below there`;
  if (w.form === 'base64') return `not written: ${w.label} is base64 in the Secret's data (${w.at.where}); write the migrated text below there, base64-encoded (or as stringData)`;
  return `not written: ${w.label} is in ${w.at.file}, not in ${fileName} (migrate writes the file it is given only); write the migrated text below there (${w.at.where})`;
}

/** A problem of a layer's own text, at its key in the user's file. */
function locatedProblem(p: Problem, w: WrittenLayer): Problem {
  const loc = p.path ? w.layer.locate(splitPath(p.path)) : undefined;
  const { line: _l, column: _c, excerpt: _e, excerptColumn: _x, ...rest } = p;
  void _l; void _c; void _e; void _x;
  return { ...rest, file: loc?.file ?? w.at.file, ...(loc?.line !== undefined ? { line: loc.line } : {}), ...(loc?.column !== undefined ? { column: loc.column } : {}), ...(loc?.excerpt !== undefined ? { excerpt: loc.excerpt } : {}) };
}

/** Indents every line that holds something by `indent` spaces. */
function indented(text: string, indent: number): string[] {
  return text.replace(/\n$/, '').split('\n').map((l) => (l === '' ? '' : `${' '.repeat(indent)}${l}`));
}

const lineStart = (text: string, offset: number) => text.lastIndexOf('\n', offset - 1) + 1;

/** A map written in place (`spec.values`, `helm.valuesObject`): the migrated text over its lines, at its column. */
function mapEdit(text: string, at: { start: number; end: number }, migrated: string): Edit {
  const col = at.start - lineStart(text, at.start);
  const lines = indented(migrated, col);
  lines[0] = lines[0]!.slice(col);
  const endsLine = text[at.end - 1] === '\n';
  return { start: at.start, end: at.end, text: lines.join('\n') + (endsLine ? '\n' : '') };
}

/**
 * A YAML text in a string (`helm.values`, a ConfigMap's `values.yaml`): a literal block keeps its
 * header and indentation; any other string becomes a literal block (still a string), indented
 * under its key, a comment after it kept on the header line.
 */
function stringEdit(text: string, at: { start: number; end: number }, migrated: string): Edit {
  const source = text.slice(at.start, at.end);
  if (source.startsWith('|')) {
    const headerEnd = text.indexOf('\n', at.start);
    const content = text.slice(headerEnd + 1, at.end).split('\n').find((l) => l.trim() !== '');
    const explicit = /\d/.exec(text.slice(at.start, headerEnd).replace(/\s+#.*$/, ''));
    const keyIndent = /^ */.exec(text.slice(lineStart(text, at.start)))![0].length;
    const indent = explicit ? keyIndent + Number(explicit[0]) : content !== undefined ? /^ */.exec(content)![0].length : keyIndent + 2;
    return { start: headerEnd + 1, end: at.end, text: `${indented(migrated, indent).join('\n')}\n` };
  }
  const keyLine = text.slice(lineStart(text, at.start));
  const keyIndent = /^[ -]*/.exec(keyLine)![0].length;
  const lineEnd = text.indexOf('\n', at.end);
  const rest = text.slice(at.end, lineEnd < 0 ? text.length : lineEnd);
  const comment = rest.trim().startsWith('#') ? ` ${rest.trim()}` : '';
  return { start: at.start, end: comment ? at.end + rest.length : at.end, text: `|${comment}\n${indented(migrated, keyIndent + 2).join('\n')}` };
}

/** The edits applied from the end of the text (one node edited twice, by two releases reading it, once). */
function applyEdits(text: string, edits: readonly Edit[]): string {
  const seen = new Set<string>();
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start)) {
    const key = `${e.start}:${e.end}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out = out.slice(0, e.start) + e.text + out.slice(e.end);
  }
  return out;
}
