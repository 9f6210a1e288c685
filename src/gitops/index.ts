// GitOps objects as input: a file holding Flux HelmReleases or Argo CD Applications (recognised by
// apiVersion and kind, which the chart's values never have at the top) is read into one release per
// object of this chart, with the settings and value layers its controller would use. The one entry
// point, for the command line and a language server alike: readGitopsFile(file, reader).
import { get, readDocuments, typeOf } from './documents.ts';
import { argoRelease } from './argocd.ts';
import { Beside, fluxRelease } from './flux.ts';
import type { UserFile } from './layers.ts';
import { CHART_NAME } from '../chart/revisions.ts';
import type { GitopsFile, GitopsReader, GitopsRelease } from './release.ts';

export type { GitopsFile, GitopsReader, GitopsRelease } from './release.ts';
export type { UserFile } from './layers.ts';
export type { PostRendered } from './post-render.ts';
export { GITOPS_RULES, GITOPS_ERROR_RULES, type GitopsRuleId } from './rules.ts';

const isFlux = (t: { apiVersion?: string; kind?: string }) => t.kind === 'HelmRelease' && (t.apiVersion ?? '').startsWith('helm.toolkit.fluxcd.io/');
const isArgo = (t: { apiVersion?: string; kind?: string }) => t.kind === 'Application' && (t.apiVersion ?? '').startsWith('argoproj.io/');

/** A cheap look at a text: could it hold a HelmRelease or an Application? (A values file cannot, at its top level.) */
export function mayBeGitops(text: string): boolean {
  return /^kind:\s*["']?(HelmRelease|Application)\b/m.test(text) && /^apiVersion:\s*["']?(helm\.toolkit\.fluxcd\.io|argoproj\.io)\//m.test(text);
}

/**
 * The releases of this chart a file holds, in document order; objects of other charts are
 * skipped with a note. Throws a UsageError naming file:line:col, the key and a fix for anything
 * the controller would refuse.
 */
export function readGitopsFile(file: UserFile, reader: GitopsReader): GitopsFile {
  if (!mayBeGitops(file.text)) return { isGitops: false, releases: [], notes: [] };
  const docs = readDocuments(file);
  const beside = new Beside(docs, reader);
  const releases: GitopsRelease[] = [];
  const notes: string[] = [];
  let isGitops = false;
  for (const d of docs) {
    const t = typeOf(d.data);
    if (get(d.data, 'spec') === undefined) continue;
    const r = isFlux(t) ? fluxRelease(d, beside, reader) : isArgo(t) ? argoRelease(d, reader) : undefined;
    if (!r) continue;
    isGitops = true;
    if ('skipped' in r) notes.push(r.skipped);
    else {
      releases.push(r);
      // Each note names the file (and the position, where it has one), so that a run over many files says which one it is about.
      notes.push(...r.notes.map((n) => (n.startsWith(`${file.name}:`) ? n : `${file.name}: ${n}`)));
    }
  }
  return { isGitops, releases, notes };
}

/** A ConfigMap or Secret a HelmRelease's spec.valuesFrom names. */
export interface ValuesSourceRef {
  kind: 'ConfigMap' | 'Secret';
  name: string;
  namespace: string;
}

/**
 * The ConfigMaps and Secrets the file's HelmReleases of this chart name in spec.valuesFrom that are
 * neither in the file nor beside it (the reader's neighbours): what `--cluster` asks the cluster for.
 */
export function missingValuesSources(file: UserFile, reader: GitopsReader): ValuesSourceRef[] {
  if (!mayBeGitops(file.text)) return [];
  const docs = readDocuments(file);
  const beside = new Beside(docs, reader);
  const out: ValuesSourceRef[] = [];
  for (const d of docs) {
    if (!isFlux(typeOf(d.data))) continue;
    const chart = get(d.data, 'spec', 'chart', 'spec', 'chart');
    if (typeof chart === 'string' && chart.split('/').pop() !== CHART_NAME) continue;
    const namespace = (get(d.data, 'metadata', 'namespace') as string | undefined) ?? 'default';
    for (const ref of (get(d.data, 'spec', 'valuesFrom') as unknown[] | undefined) ?? []) {
      const kind = get(ref, 'kind');
      const name = get(ref, 'name');
      if ((kind !== 'ConfigMap' && kind !== 'Secret') || typeof name !== 'string') continue;
      if (beside.find(kind, name, namespace)) continue;
      if (!out.some((r) => r.kind === kind && r.name === name && r.namespace === namespace)) out.push({ kind, name, namespace });
    }
  }
  return out;
}
