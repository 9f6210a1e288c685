// The render context: everything a component needs, computed once from the linted values and
// the command line. Components read names and labels from here instead of recomputing them.

import type { Values } from '../values/merge.ts';
import { CHART_NAME, REVISIONS, type Revision, type RevisionInfo } from '../chart/revisions.ts';
import type { RenderedDoc } from './objects.ts';
import type { RevisionModel } from './revision-model.ts';
import { revisionModel } from './revisions/index.ts';

export interface RenderOptions {
  revision: Revision;
  releaseName: string;
  /** Release namespace (`-n`); `namespaceOverride` may move the chart's own objects elsewhere. */
  releaseNamespace: string;
  /** Declared cluster capabilities: `group/version` or `group/version/Kind`. */
  apiVersions: readonly string[];
  /** `X.Y` or `X.Y.Z` when given. */
  kubeVersion?: string;
  /** Told of every API a component asks the capabilities about (to explain what did not render). */
  onApiQuery?: (apiVersion: string) => void;
}

export interface Capabilities {
  /** True when `group/version` (or `group/version/Kind`) was declared with --api-versions. */
  has(apiVersion: string, kind?: string): boolean;
  kubeVersion?: string;
}

export interface RenderContext {
  revision: Revision;
  rev: RevisionInfo;
  release: { name: string; namespace: string };
  chart: { name: string; version: string };
  values: Values;
  /** What the revision makes of the values (revision-model.ts): read it instead of asking the revision. */
  model: RevisionModel;
  capabilities: Capabilities;
  /** Chart fullname (naming.md): fullnameOverride, else release name, else `<release>-<nameOverride>`. */
  fullname: string;
  /** Namespace of the chart's own objects: namespaceOverride, else the release namespace. */
  namespace: string;
}

/** A part of the chart that decides whether and with what its templates render. */
export interface Component {
  /** Short id (`controller`, `ui`, `mcpop`, …). */
  id: string;
  render(ctx: RenderContext): RenderedDoc[];
  /**
   * The same objects as `render`, in the same order, made in pieces: what the component decides
   * for all its objects is computed first, and each piece then makes its objects from that and from
   * what the piece itself reads. The render records the reads of each piece apart
   * (`<id>#<piece>`), so a values key that only one piece reads renders only that piece again
   * (`values/no-effect`). A piece shares nothing it changes with another piece. `values/no-effect`
   * keeps the pieces made once for every key the shared part did not read, and makes each piece
   * again with other values switched in: a piece reads the values only through `ctx` and the maps
   * the shared part read from it (which then stand for the values switched in), never a map it
   * kept from elsewhere.
   */
  pieces?(ctx: RenderContext): readonly Piece[];
}

/** One piece of a component (Component.pieces): a name unique in the component, and its objects. */
export interface Piece {
  name: string;
  /**
   * The source of every object the piece makes, which no other piece of the component makes an
   * object of (render/render.ts refuses a piece that breaks this): so the objects of one source
   * in a render are the piece's, and a key that changes what the component decides for all its
   * pieces can be judged piece by piece, a piece that is gone being a change.
   */
  source: string;
  make(): RenderedDoc[];
}

/** Truncates to a DNS label's 63 characters and drops trailing dashes, as Helm charts do. */
export function dnsTrunc(name: string): string {
  return name.slice(0, 63).replace(/-+$/, '');
}

export function chartFullname(release: string, nameOverride: unknown, fullnameOverride: unknown): string {
  if (typeof fullnameOverride === 'string' && fullnameOverride !== '') return dnsTrunc(fullnameOverride);
  if (typeof nameOverride !== 'string' || nameOverride === '') return dnsTrunc(release);
  return dnsTrunc(`${release}-${nameOverride}`);
}

export function createCapabilities(apiVersions: readonly string[], kubeVersion?: string, onApiQuery?: (apiVersion: string) => void): Capabilities {
  const declared = new Set(apiVersions.map((s) => s.trim()).filter(Boolean));
  return {
    has(apiVersion, kind) {
      onApiQuery?.(apiVersion);
      if (kind && declared.has(`${apiVersion}/${kind}`)) return true;
      return declared.has(apiVersion);
    },
    ...(kubeVersion ? { kubeVersion } : {}),
  };
}

export function buildRenderContext(values: Values, opts: RenderOptions): RenderContext {
  return {
    revision: opts.revision,
    rev: REVISIONS[opts.revision],
    ...releaseFacts(values, opts.revision, opts.releaseName, opts.releaseNamespace),
    values,
    model: revisionModel(opts.revision, values),
    capabilities: createCapabilities(opts.apiVersions, opts.kubeVersion, opts.onApiQuery),
  };
}

/** The release, the chart, the fullname and the chart namespace (namespaceOverride honoured) of a release with `values`. */
export function releaseFacts(values: Values, revision: Revision, releaseName: string, releaseNamespace: string): Pick<RenderContext, 'release' | 'chart' | 'fullname' | 'namespace'> {
  const nsOverride = values.namespaceOverride;
  return {
    release: { name: releaseName, namespace: releaseNamespace },
    chart: { name: CHART_NAME, version: REVISIONS[revision].chartVersion },
    fullname: chartFullname(releaseName, values.nameOverride, values.fullnameOverride),
    namespace: dnsTrunc(typeof nsOverride === 'string' && nsOverride !== '' ? nsOverride : releaseNamespace),
  };
}
