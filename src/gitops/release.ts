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
  /** Where the object writes its chart version and each value layer: what `migrate` rewrites, or names. */
  written: WrittenParts;
}

/** A node of a user's file: the file as shown, `file:line:col`, and the node's offsets in the file's text. */
export interface WrittenAt {
  file: string;
  where: string;
  start: number;
  end: number;
}

/** What `migrate` reads of a release: the chart version and each value layer, each where it is written. */
export interface WrittenParts {
  /** The chart version or range as written; undefined when the object gives none (every version). */
  version?: WrittenAt & {
    value: string;
    /** The key as the user knows it (`spec.chart.spec.version`, `spec.ref.tag of the OCIRepository`, `targetRevision`). */
    key: string;
    /** Set when the version is not the object's to write (a Git source's Chart.yaml): what to do instead. */
    fixed?: string;
  };
  /** The value layers, in the order of `layers` (the targetPath values Flux writes into spec.values again left out: they are the valuesFrom entries'). */
  layers: WrittenLayer[];
}

export interface WrittenLayer {
  layer: ValuesSource;
  /** The part of the object that gives it (`spec.values`, `spec.valuesFrom[0] ConfigMap ns/name key values.yaml`, `helm.parameters`). */
  label: string;
  /**
   * How the values are written at `at`: a map in place (`map`), a YAML text in a string (`string`),
   * base64 in a Secret's data (`base64`), a values file of its own (`file`), or `--set`-style
   * assignments (`assignments`: a targetPath, Argo CD parameters).
   */
  form: 'map' | 'string' | 'base64' | 'file' | 'assignments';
  /** The values text as the controller reads it (absent for assignments). */
  text?: string;
  at: WrittenAt;
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
  /** The entries of a folder of the repository (`''` is the root), for a glob in valueFiles; undefined when it is not a folder. */
  repoDir?(path: string): { name: string; dir: boolean }[] | undefined;
  /** How repository paths are found, for a refusal's hint (`under --values-from DIR`). */
  repoRootText: string;
}
