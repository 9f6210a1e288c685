// An open document → the lint request `agentplat lint` would make for it, and lint's problems →
// what the editor shows. There is no second lint: the request goes to lintOperation, the one the
// CLI and the API run, with the document's unsaved text as a values layer.
//
// The seam for other kinds of documents is `lintRequests`: a values file is one layer (or its
// place among the layers `.agentplat.yaml` lists); a GitOps object (a Flux HelmRelease, an Argo CD
// Application) is read as `agentplat lint` reads it (gitops/readGitopsFile), into one request per
// release of this chart: its layers with positions in its own text (and in a ConfigMap's file
// beside it), its revision, names and API versions.

import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, isAbsolute, join, resolve } from 'node:path';
import { mayBeGitops, readGitopsFile, type GitopsReader, type GitopsRelease, type UserFile } from '../gitops/index.ts';
import { askedFor, loadConfig, type LintConfig } from '../lint/config.ts';
import { lintOperation, type LintOperationRequest } from '../pipeline/operations.ts';
import type { EffectMemo } from '../pipeline/render.ts';
import { AgentplatError } from '../problems/errors.ts';
import type { Problem, ProblemFix } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import type { ValuesInput } from '../values/input.ts';
import type { PathSegment } from '../values/source.ts';

/** A document as the editor holds it: its file path and its (maybe unsaved) text. */
export interface OpenDocument {
  path: string;
  text: string;
}

/** The texts of the documents the editor has open, by file path (unsaved edits win over the disk). */
export type OpenTexts = (path: string) => string | undefined;

/** What a finding carries to the editor besides its text: what a quick fix needs. */
export interface FindingData {
  rule: string;
  /** Dotted values path. */
  path: string;
  fix?: ProblemFix;
  onlyInRevision?: string;
}

/** One finding placed in the document: 0-based line and UTF-16 column, or the whole release's (no place). */
export interface Finding {
  severity: Problem['severity'];
  line?: number;
  column?: number;
  message: string;
  data: FindingData;
}

export interface DocumentLint {
  revision: Revision;
  findings: Finding[];
  /** Findings in other files the document's releases read (a ConfigMap beside a HelmRelease), by path. */
  elsewhere: Map<string, Finding[]>;
}

/** The settings a document is linted with: the nearest `.agentplat.yaml` from its folder up. */
export interface DocumentSettings {
  config: LintConfig;
  revision: Revision;
}

export function settingsFor(path: string): DocumentSettings {
  const config = loadConfig(dirname(path));
  return { config, revision: config.revision ?? 'B' };
}

/**
 * The layers a document is linted in: the files `editor.values` lists (relative to the config
 * file), the document's unsaved text in its own place among them, or on top when it is not
 * listed; the editor's text of any other listed file that is open.
 */
export function layersOf(doc: OpenDocument, settings: DocumentSettings, open: OpenTexts): ValuesInput[] {
  const { config } = settings;
  const base = config.file ? dirname(resolve(config.file)) : dirname(doc.path);
  const listed = (config.editor?.values ?? []).map((f) => (isAbsolute(f) ? f : join(base, f)));
  const layer = (path: string): ValuesInput => {
    if (path === doc.path) return { name: doc.path, text: doc.text };
    const text = open(path);
    return text === undefined ? path : { name: path, text };
  };
  const layers = listed.map(layer);
  if (!listed.includes(doc.path)) layers.push(layer(doc.path));
  return layers;
}

/** The request `agentplat lint` would make for the document, with its settings. */
export function lintRequest(doc: OpenDocument, settings: DocumentSettings, open: OpenTexts): LintOperationRequest {
  const { config, revision } = settings;
  const editor = config.editor ?? {};
  return {
    revision,
    layers: { values: layersOf(doc, settings, open) },
    reader: { cwd: dirname(doc.path), readStdin: () => Promise.resolve(undefined) },
    releaseName: editor.releaseName ?? 'agentplat',
    namespace: editor.namespace ?? 'default',
    ...(editor.namespace === undefined ? { namespaceDefaulted: true } : {}),
    ...(editor.apiVersions ? { apiVersions: editor.apiVersions } : {}),
    ...(editor.kubeVersion ? { kubeVersion: editor.kubeVersion } : {}),
    releaseNameOrigin: 'editor.releaseName',
    rules: config.rules,
    ...(config.ignoreKeys ? { ignoreKeys: config.ignoreKeys } : {}),
    showDefaultNote: askedFor(config.rules),
    effects: true,
  };
}

/** The document is a Flux HelmRelease or an Argo CD Application (by apiVersion and kind). */
export const isGitopsDocument = (doc: OpenDocument): boolean => mayBeGitops(doc.text);

/** A file of Kubernetes objects that is not a GitOps object of the chart (a ConfigMap): not a values file. */
export const isObjectsFile = (text: string): boolean => /^apiVersion:/m.test(text) && /^kind:/m.test(text);

/**
 * Where a GitOps object's files are read from in the editor: YAML files in its folder (their
 * unsaved texts when open), named by their full paths so that a finding in one of them can be
 * shown there; repository files from the nearest folder up holding `.git` (else the object's).
 */
export function editorReader(doc: OpenDocument, open: OpenTexts): GitopsReader {
  const dir = dirname(doc.path);
  let root = dir;
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) {
      root = d;
      break;
    }
    if (dirname(d) === d) break;
  }
  const read = (full: string): UserFile | undefined => {
    const text = full === doc.path ? doc.text : open(full);
    if (text !== undefined) return { name: full, text };
    try {
      if (statSync(full).size > 1024 * 1024) return undefined;
      return { name: full, text: readFileSync(full, 'utf8') };
    } catch {
      return undefined;
    }
  };
  let neighbours: UserFile[] | undefined;
  return {
    neighbours() {
      if (!neighbours) {
        let names: string[] = [];
        try {
          names = readdirSync(dir).filter((n) => /\.ya?ml$/i.test(n)).sort();
        } catch {
          // A folder that cannot be listed holds nothing the object names.
        }
        neighbours = names.map((n) => read(join(dir, n))).filter((f): f is UserFile => f !== undefined);
      }
      return neighbours;
    },
    repoFile: (path) => read(join(root, path)),
    repoDir(path) {
      try {
        return readdirSync(join(root, path), { withFileTypes: true }).map((e) => ({ name: e.name, dir: e.isDirectory() || (e.isSymbolicLink() && existsSync(join(root, path, e.name, '.'))) }));
      } catch {
        return undefined;
      }
    },
    repoRootText: `under ${root} (the repository holding the object)`,
  };
}

/** The request `agentplat lint` makes for one release of a GitOps object. */
function releaseRequest(doc: OpenDocument, settings: DocumentSettings, release: GitopsRelease): LintOperationRequest {
  const { config } = settings;
  return {
    revision: release.revision,
    layers: { values: release.layers.map((source) => ({ name: source.name, source })) },
    reader: { cwd: dirname(doc.path), readStdin: () => Promise.resolve(undefined) },
    releaseName: release.releaseName,
    namespace: release.namespace,
    apiVersions: [...release.apiVersions],
    ...(release.kubeVersion ? { kubeVersion: release.kubeVersion } : {}),
    rules: config.rules,
    ...(config.ignoreKeys ? { ignoreKeys: config.ignoreKeys } : {}),
    showDefaultNote: askedFor(config.rules),
    effects: true,
  };
}

/**
 * The lint requests a document makes: one for a values file; one per release of this chart for a
 * HelmRelease or Application (none when it holds only other charts'). Throws what lint would
 * refuse (an AgentplatError naming file:line:col).
 */
export function lintRequests(doc: OpenDocument, open: OpenTexts): { revision: Revision; request: LintOperationRequest }[] {
  const settings = settingsFor(doc.path);
  if (!isGitopsDocument(doc)) return [{ revision: settings.revision, request: lintRequest(doc, settings, open) }];
  const read = readGitopsFile({ name: doc.path, text: doc.text }, editorReader(doc, open));
  if (!read.isGitops) return [{ revision: settings.revision, request: lintRequest(doc, settings, open) }];
  return read.releases.map((r) => ({ revision: r.revision, request: releaseRequest(doc, settings, r) }));
}

/** The revision a document is written for: its GitOps object's chart version, else the settings'. */
export function revisionOf(doc: OpenDocument, open: OpenTexts): Revision {
  try {
    return lintRequests(doc, open)[0]?.revision ?? settingsFor(doc.path).revision;
  } catch {
    return settingsFor(doc.path).revision;
  }
}

/**
 * Lints the document as `agentplat lint` would, keeping the findings about it (and about the files
 * beside it that its releases read). `memo`: the document's memory of the no-effect judgement
 * between edits (pipeline/alike-memo.ts), which gives the answers a fresh lint would.
 */
export async function lintDocument(doc: OpenDocument, open: OpenTexts, memo?: EffectMemo): Promise<DocumentLint> {
  try {
    const requests = lintRequests(doc, open);
    const problems: Problem[] = [];
    for (const { request } of requests) problems.push(...(await lintOperation(memo ? { ...request, effectMemo: memo } : request)).problems);
    const elsewhere = new Map<string, Finding[]>();
    for (const p of problems) {
      if (p.file === undefined || p.file === doc.path || elsewhere.has(p.file) || !isGitopsDocument(doc)) continue;
      elsewhere.set(p.file, findingsOf(problems, p.file).filter((f) => f.line !== undefined));
    }
    return { revision: requests[0]?.revision ?? settingsFor(doc.path).revision, findings: findingsOf(problems, doc.path), elsewhere };
  } catch (err) {
    // A mistake in .agentplat.yaml, in a name it gives, or in the GitOps object is the user's: a diagnostic, not a crash.
    if (!(err instanceof AgentplatError)) throw err;
    const { hint } = err;
    const at = /^(?:[^\n]*?):(\d+):(\d+): /.exec(err.message);
    const place = at && err.message.startsWith(`${doc.path}:`) ? { line: Number(at[1]) - 1, column: Number(at[2]) - 1 } : { line: 0, column: 0 };
    return { revision: 'B', findings: [{ severity: 'error', ...place, message: `${err.message}${hint ? `\n${hint}` : ''}`, data: { rule: 'agentplat/settings', path: '' } }], elsewhere: new Map() };
  }
}

/**
 * Where the chart's values start in a GitOps document, at a key path of the document: the path
 * inside them, or undefined outside them. `spec.values` of a HelmRelease; `helm.valuesObject` of
 * an Application's source (`spec.source` or an item of `spec.sources`). A values file is values throughout.
 */
export function valuesPathOf(doc: OpenDocument, path: readonly PathSegment[]): { prefix: PathSegment[]; path: PathSegment[] } | undefined {
  if (!isGitopsDocument(doc)) return { prefix: [], path: [...path] };
  const s = path.map(String);
  const n = s[0] === 'spec' && s[1] === 'values' ? 2 : s[0] === 'spec' && s[1] === 'source' && s[2] === 'helm' && s[3] === 'valuesObject' ? 4 : s[0] === 'spec' && s[1] === 'sources' && /^\d+$/.test(s[2] ?? '') && s[3] === 'helm' && s[4] === 'valuesObject' ? 5 : 0;
  if (n === 0 || path.length < n) return undefined;
  return { prefix: path.slice(0, n), path: path.slice(n) };
}

/** The problems placed in the document, and those of the whole release (no file). */
export function findingsOf(problems: readonly Problem[], path: string): Finding[] {
  const out: Finding[] = [];
  for (const p of problems) {
    if (p.file !== undefined && p.file !== path) continue;
    out.push({
      severity: p.severity,
      ...(p.file !== undefined && p.line !== undefined ? { line: p.line - 1, column: Math.max(0, (p.column ?? 1) - 1) } : {}),
      message: `${p.message}${p.hint ? `\n${p.hint}` : ''}`,
      data: { rule: p.rule, path: p.path, ...(p.fix ? { fix: p.fix } : {}), ...(p.onlyInRevision ? { onlyInRevision: p.onlyInRevision } : {}) },
    });
  }
  return out;
}
