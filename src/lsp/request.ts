// An open document → the lint request `agentplat lint` would make for it, and lint's problems →
// what the editor shows. There is no second lint: the request goes to lintOperation, the one the
// CLI and the API run, with the document's unsaved text as a values layer.
//
// The seam for other kinds of documents is `layersOf`: a values file is one layer (or its place
// among the layers `.agentplat.yaml` lists); a GitOps object (HelmRelease, Application) would be
// turned into its layers, with positions in its own text, at the same place.

import { dirname, isAbsolute, join, resolve } from 'node:path';
import { askedFor, loadConfig, type LintConfig } from '../lint/config.ts';
import { lintOperation, type LintOperationRequest } from '../pipeline/operations.ts';
import { AgentplatError } from '../problems/errors.ts';
import type { Problem, ProblemFix } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import type { ValuesInput } from '../values/input.ts';

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

/** Lints the document as `agentplat lint` would, keeping the findings about it. */
export async function lintDocument(doc: OpenDocument, open: OpenTexts): Promise<DocumentLint> {
  let settings: DocumentSettings;
  try {
    settings = settingsFor(doc.path);
    const { problems } = await lintOperation(lintRequest(doc, settings, open));
    return { revision: settings.revision, findings: findingsOf(problems, doc.path) };
  } catch (err) {
    // A mistake in .agentplat.yaml or in a name it gives is the user's: shown on the first line, not a crash.
    if (!(err instanceof AgentplatError)) throw err;
    const { hint } = err;
    return { revision: 'B', findings: [{ severity: 'error', line: 0, column: 0, message: `${err.message}${hint ? `\n${hint}` : ''}`, data: { rule: 'agentplat/settings', path: '' } }] };
  }
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
