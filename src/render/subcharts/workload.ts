// What every sub-chart workload assembles the same way: its identity labels, the pod-level
// settings its Deployment template reads (image, pull settings, annotations, security contexts,
// scheduling fall-backs), and the rendering of its template files. Each sub-chart passes only
// what differs; the precedence rules themselves stay in ./common.ts and, for images, pull
// settings and pod annotations, in the revision model (model/images.ts).

import { renderDocs } from '../engine.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import type { Component, Piece, RenderContext } from '../../model/context.ts';
import { block, chartLabel, containerSecurityContext, deploymentAnnotations, enabled, imageRef, MANAGED_BY, podSecurityContext, subchartSource, withTopLevelLabels, type Labels } from './common.ts';
import { nodeSelectorOr, tolerationsOr } from '../chart.ts';
import { asStr } from '../../model/values-access.ts';
import { isPlainMap, type Values } from '../../values/merge.ts';
import type { JsonMap } from '../../model/values-access.ts';

/**
 * A sub-chart component (id = chart key): rendered only when `<chart>.enabled` (the dependency
 * condition), given its values block and its pinned chart version.
 */
export function subchartComponent(chart: string, render: (ctx: RenderContext, b: Values, version: string) => RenderedDoc[]): Component {
  return {
    id: chart,
    render: (ctx) => (enabled(ctx, chart) ? render(ctx, block(ctx, chart), ctx.rev.subcharts[chart] ?? '') : []),
  };
}

/**
 * A sub-chart component that makes its objects in pieces (Component.pieces): `pieces` decides what
 * holds for all of them and returns one piece per object (or group of objects).
 */
export function subchartPieces(chart: string, pieces: (ctx: RenderContext, b: Values, version: string) => Piece[]): Component {
  const of = (ctx: RenderContext) => (enabled(ctx, chart) ? pieces(ctx, block(ctx, chart), ctx.rev.subcharts[chart] ?? '') : []);
  return {
    id: chart,
    render: (ctx) => of(ctx).flatMap((p) => p.make()),
    pieces: of,
  };
}

/** One template run of a sub-chart: the source file its objects come from, the template, and the data it is given. */
export type FileRun = readonly [file: string, template: string, view: unknown];

/**
 * A sub-chart component whose objects are the runs of its templates (`plan` decides what holds for
 * all of them and lists the runs in order), made in pieces (Component.pieces): one piece per
 * source file, running that file's templates in the order listed. The render orders objects by
 * source before the order they were made in, so the objects are printed as when the runs are
 * made in the listed order; and a key the plan reads (the sub-chart's `enabled` among them) is
 * judged piece by piece: the first piece that makes what it did not decides.
 */
export function subchartFiles(chart: string, plan: (ctx: RenderContext, b: Values, version: string) => readonly FileRun[]): Component {
  return subchartPieces(chart, (ctx, b, version) => {
    const byFile = new Map<string, [string, unknown][]>();
    for (const [file, template, view] of plan(ctx, b, version)) {
      let runs = byFile.get(file);
      if (!runs) byFile.set(file, (runs = []));
      runs.push([template, view]);
    }
    return [...byFile].map(([file, runs]) => {
      const source = subchartSource(chart, file);
      return { name: file, source, make: () => runs.flatMap(([template, view]) => renderDocs(source, template, view)) };
    });
  });
}

export interface LabelSpec {
  /** `app.kubernetes.io/name` of the selector. */
  name: string;
  /** Selector labels after name and instance (a component or control-plane label). */
  selectorExtra?: Labels;
  /** The `helm.sh/chart` label is `<chart>-<chartVersion>`. */
  chart: string;
  chartVersion: string;
  /** `app.kubernetes.io/version`; the chart version unless the app has its own. */
  appVersion?: string;
  /** Labels between the version and managed-by (authproxy's component and part-of). */
  extra?: Labels;
  /** Labels after managed-by (the bundled agents' part-of). */
  trailing?: Labels;
}

/**
 * Selector and metadata labels of a sub-chart object. The key order is part of the output
 * (labels are written as given), so the spec says where each optional group goes.
 */
export function subchartLabels(ctx: RenderContext, spec: LabelSpec): { selector: Labels; labels: Labels } {
  const selector: Labels = { 'app.kubernetes.io/name': spec.name, 'app.kubernetes.io/instance': ctx.release.name, ...spec.selectorExtra };
  const labels = withTopLevelLabels(ctx, {
    'helm.sh/chart': chartLabel(spec.chart, spec.chartVersion),
    ...selector,
    'app.kubernetes.io/version': spec.appVersion ?? spec.chartVersion,
    ...spec.extra,
    'app.kubernetes.io/managed-by': MANAGED_BY,
    ...spec.trailing,
  });
  return { selector, labels };
}

/** The platform registry (top-level `registry`, else ghcr.io) of images the platform publishes. */
export function platformRegistry(ctx: RenderContext): string {
  return asStr(ctx.values.registry) || 'ghcr.io';
}

export interface PodSpec {
  /** Image parts, or a complete reference the values give (only moved to a [B] mirror). */
  image: { registry: string; repository: string; tag: string } | string;
  /** The component's own pod annotations (checksums, default container), before the top-level ones. */
  podAnnotations?: Record<string, string>;
  /**
   * The block's own pod and container security contexts and scheduling, when the sub-chart has
   * such keys: each replaces the top-level default when non-empty (never a merge).
   */
  own?: { podSecurityContext?: unknown; securityContext?: unknown; nodeSelector?: unknown; tolerations?: unknown };
  /**
   * The block's own pull policy, pull secrets and pod annotations, when the sub-chart has such
   * keys: each replaces the top-level one when non-empty (ctx.model.images' precedence).
   */
  pull?: { policy?: string; secrets?: unknown; podAnnotations?: unknown };
}

/** The pod-level keys every sub-chart Deployment template reads. */
export function podView(ctx: RenderContext, spec: PodSpec) {
  const own = spec.own ?? {};
  const pull = spec.pull ?? {};
  const images = ctx.model.images;
  return {
    image: typeof spec.image === 'string' ? images.rehost(spec.image) : imageRef(images.registry(spec.image.registry), spec.image.repository, spec.image.tag),
    pullPolicy: images.pullPolicy(pull.policy || undefined),
    pullSecrets: Array.isArray(pull.secrets) && pull.secrets.length > 0 ? images.pullSecrets(pull.secrets) : images.pullSecrets(),
    deploymentAnnotations: deploymentAnnotations(ctx),
    podAnnotations: images.podAnnotations(spec.podAnnotations, isPlainMap(pull.podAnnotations) ? (pull.podAnnotations as JsonMap) : undefined),
    podSecurityContext: podSecurityContext(ctx, own.podSecurityContext),
    securityContext: isPlainMap(own.securityContext) && Object.keys(own.securityContext).length > 0 ? own.securityContext : containerSecurityContext(ctx),
    nodeSelector: nodeSelectorOr(ctx, own.nodeSelector),
    tolerations: tolerationsOr(ctx, own.tolerations),
  };
}

/** Renders `[source file, template]` pairs of a sub-chart, in order, from one view. */
export function subchartDocs(chart: string, files: readonly (readonly [string, string])[], view: unknown): RenderedDoc[] {
  return files.flatMap(([file, tpl]) => renderDocs(subchartSource(chart, file), tpl, view));
}
