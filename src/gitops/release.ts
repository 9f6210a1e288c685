// What a GitOps object (a Flux HelmRelease, an Argo CD Application) of this chart tells a run:
// the revision, the release's names and settings, and its value layers in the controller's order,
// each pointing into the user's file.
import type { Revision } from '../chart/revisions.ts';
import type { ValuesSource } from '../values/source.ts';
import type { UserFile } from './layers.ts';

export interface GitopsRelease {
  kind: 'HelmRelease' | 'Application';
  /** `HelmRelease flux-system/agentplat`, `Application argocd/agentplat`. */
  title: string;
  /** The file it was read from, as given. */
  file: string;
  revision: Revision;
  /** The chart version or range as written, and where (`helmrelease.yaml:9:16 spec.chart.spec.version`). */
  versionFrom: string;
  releaseName: string;
  namespace: string;
  skipCrds: boolean;
  kubeVersion?: string;
  apiVersions: string[];
  /** The value layers, lowest first; the last carries the post-renderers, if any. */
  layers: ValuesSource[];
  /** What was read but changes nothing here, or was skipped as the controller skips it. */
  notes: string[];
}

/** What a file holds for this chart. */
export interface GitopsFile {
  /** True when the file holds at least one HelmRelease or Application (of any chart). */
  isGitops: boolean;
  releases: GitopsRelease[];
  /** Objects skipped (another chart), and the releases' own notes. */
  notes: string[];
}

/**
 * Where the files a GitOps object names are read from; the only reads the module makes, so a
 * language server can answer from its open documents.
 */
export interface GitopsReader {
  /**
   * YAML files beside the object where Flux's ConfigMaps, Secrets, OCIRepositories and HelmCharts
   * are looked for (the object's folder, each --values-from folder).
   */
  neighbours(): UserFile[];
  /** A file of the repository an Argo CD source reads, by its path from the repository root; undefined when missing. */
  repoFile(path: string): UserFile | undefined;
  /** How repository paths are found, for a refusal's hint (`under --values-from DIR`). */
  repoRootText: string;
}
