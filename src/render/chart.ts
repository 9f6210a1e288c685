// The chart's shared helpers: names, label sets, images, pull policies and secrets, security
// contexts and scheduling fall-backs. Components call these instead of re-deriving any rule,
// so each precedence rule of the values document lives in exactly one function.
// (Sub-chart components may use them too; all take the RenderContext.)

import type { RenderContext } from '../model/context.ts';
import { dnsTrunc } from '../model/context.ts';
import { at, firstOf, list, map, present, scalarText, str, type Json, type JsonMap } from '../model/values-access.ts';
import { composeImage, workloadTag, type ImageParts } from '../model/images.ts';
import { databaseUrlSecret } from '../model/derive.ts';

export type Labels = Record<string, string>;

// ------------------------------------------------------------------------------------------
// Names

/** `<fullname>-<suffix>`, truncated to 63 characters like every chart name. */
export function nameOf(ctx: RenderContext, suffix: string): string {
  return dnsTrunc(`${ctx.fullname}-${suffix}`);
}

export const controllerName = (ctx: RenderContext) => nameOf(ctx, 'controller');
export const uiName = (ctx: RenderContext) => nameOf(ctx, 'ui');
export const databaseName = (ctx: RenderContext) => nameOf(ctx, 'postgresql');
/** The Secret holding `database.rdb.url` for the controller (`<fullname>-database-url`; the name lint gives too). */
export const databaseUrlSecretName = (ctx: RenderContext) => databaseUrlSecret(ctx.fullname).name;

/**
 * Name of the built-in prompts ConfigMap (`<fullname>-builtin-prompts`). Bundled agents reference
 * it in `promptTemplate.dataSources`: call this instead of writing the name (decisions.md:
 * cross-object references are computed from the release).
 */
export const builtinPromptsName = (ctx: RenderContext) => nameOf(ctx, 'builtin-prompts');

/** Name of the tools server's RemoteMCPServer (`<fullname>-tool-server`) that bundled agents reference. */
export const toolServerName = (ctx: RenderContext) => nameOf(ctx, 'tool-server');

/** Name of the ConfigMap holding the authentication proxy's sign-in template (`<fullname>-authproxy-templates`). */
export const authproxyTemplatesName = (ctx: RenderContext) => nameOf(ctx, 'authproxy-templates');

/** The default ModelConfig every agent falls back to (defined with the ModelConfig it names). */
export { DEFAULT_MODEL_CONFIG_NAME } from '../model/model-config.ts';

/** The controller's ServiceAccount: [B] `controller.serviceAccount.name` when set, else `<fullname>-controller`. */
export function controllerServiceAccountName(ctx: RenderContext): string {
  return firstOf(ctx.model.controller.serviceAccountName, controllerName(ctx));
}

/** Whether the chart creates the controller's ServiceAccount ([B] `controller.serviceAccount.create`, default true). */
export function controllerServiceAccountCreated(ctx: RenderContext): boolean {
  return ctx.model.controller.serviceAccountCreate;
}

/** In-cluster authority of the controller Service: `<fullname>-controller.<ns>.svc:<port>`. */
export function controllerAuthority(ctx: RenderContext): string {
  return `${controllerName(ctx)}.${ctx.namespace}.svc:${scalarText(at(ctx.values, 'controller.service.ports.port') ?? 8083)}`;
}

/**
 * The tools server's service name as the tools sub-chart computes it: its fullnameOverride, else
 * `<release>-<nameOverride>` (default nameOverride `tools`), else the release name.
 */
export function toolsFullname(ctx: RenderContext): string {
  const fo = str(ctx.values, 'agentplat-tools.fullnameOverride');
  if (fo) return dnsTrunc(fo);
  const no = str(ctx.values, 'agentplat-tools.nameOverride');
  return dnsTrunc(no ? `${ctx.release.name}-${no}` : ctx.release.name);
}

// ------------------------------------------------------------------------------------------
// Labels

export type Component = 'controller' | 'ui' | 'database';

export function selectorLabels(ctx: RenderContext, component?: Component): Labels {
  const l: Labels = {
    'app.kubernetes.io/name': dnsTrunc(firstOf(str(ctx.values, 'nameOverride'), ctx.chart.name)),
    'app.kubernetes.io/instance': ctx.release.name,
  };
  if (component) l['app.kubernetes.io/component'] = component;
  return l;
}

/**
 * Common labels, then the component label, then the top-level `labels` (extra labels on all
 * resources). A user label never replaces a label the chart sets: selectors depend on them.
 */
export function chartLabels(ctx: RenderContext, component?: Component, extra: JsonMap = {}): Labels {
  const own: Labels = {
    'helm.sh/chart': dnsTrunc(`${ctx.chart.name}-${ctx.chart.version}`.replace(/\+/g, '_')),
    ...selectorLabels(ctx),
    'app.kubernetes.io/version': ctx.chart.version,
    'app.kubernetes.io/managed-by': 'agentplat',
    'app.kubernetes.io/part-of': 'agentplat',
  };
  if (component) own['app.kubernetes.io/component'] = component;
  return { ...stringMap(map(ctx.values, 'labels')), ...stringMap(extra), ...own };
}

/** Label and annotation values are strings in Kubernetes; numbers and booleans are converted. */
export function stringMap(m: JsonMap): Labels {
  const out: Labels = {};
  for (const [k, v] of Object.entries(m)) out[k] = scalarText(v);
  return out;
}

/** Pod template labels: global podLabels, then the component's, then the selector labels (never overridable). */
export function podLabels(ctx: RenderContext, component: Component, componentPodLabels: JsonMap): Labels {
  return { ...stringMap(map(ctx.values, 'podLabels')), ...stringMap(componentPodLabels), ...selectorLabels(ctx, component) };
}

/** Deployment annotations: top-level `annotations` merged with the component's (component wins per key). */
export function deploymentAnnotations(ctx: RenderContext, componentPath: string): Labels {
  return { ...stringMap(map(ctx.values, 'annotations')), ...stringMap(map(ctx.values, `${componentPath}.annotations`)) };
}

/** Pod annotations: the component's map replaces the top-level `podAnnotations` when non-empty. */
export function podAnnotations(ctx: RenderContext, componentPath: string, checksums: Labels = {}): Labels {
  return ctx.model.images.podAnnotations(checksums, map(ctx.values, `${componentPath}.podAnnotations`));
}

// ------------------------------------------------------------------------------------------
// Images (the precedence lives in the revision model: model/images.ts)

export { composeImage, type ImageParts };

/** Registry of a chart image: the mirror, else the image's own registry, else top-level `registry`. */
export function imageRegistry(ctx: RenderContext, imagePath: string): string {
  return ctx.model.images.registry(str(ctx.values, `${imagePath}.registry`), str(ctx.values, 'registry'), 'ghcr.io');
}

/** Controller and UI: the top-level `tag` wins over the component tag, then the chart version. */
export function workloadImage(ctx: RenderContext, imagePath: string): string {
  return composeImage({
    registry: imageRegistry(ctx, imagePath),
    repository: str(ctx.values, `${imagePath}.repository`),
    tag: workloadTag(ctx.values, imagePath, ctx.chart.version),
  });
}

/** Pull policy of a chart image (the chain is the model's: images.pullPolicy). */
export function pullPolicy(ctx: RenderContext, imagePath?: string): string {
  return ctx.model.images.pullPolicy(imagePath ? str(ctx.values, `${imagePath}.pullPolicy`) : '');
}

// ------------------------------------------------------------------------------------------
// Pod settings with top-level fall-backs

/** The component's map when non-empty, else the top-level one (whole replacement, never a merge). */
export function overrideOrGlobal(ctx: RenderContext, componentPath: string, key: string): JsonMap {
  const own = map(ctx.values, `${componentPath}.${key}`);
  return present(own) ? own : map(ctx.values, key);
}

/**
 * nodeSelector and tolerations of a pod: its own when it sets them (not empty), else the chart's
 * top-level defaults. One rule for every pod the chart renders, sub-charts' and the database's too.
 */
export function nodeSelectorOr(ctx: RenderContext, own: unknown): JsonMap {
  return present(own) && typeof own === 'object' && !Array.isArray(own) ? (own as JsonMap) : map(ctx.values, 'nodeSelector');
}

export function tolerationsOr(ctx: RenderContext, own: unknown): Json[] {
  return Array.isArray(own) && own.length > 0 ? (own as Json[]) : list(ctx.values, 'tolerations');
}

/** Scheduling: the component's nodeSelector/tolerations, else the top-level defaults; affinity and spread are per component. */
export function scheduling(ctx: RenderContext, componentPath: string): {
  nodeSelector: JsonMap;
  tolerations: Json[];
  affinity: JsonMap;
  topologySpreadConstraints: Json[];
} {
  return {
    nodeSelector: nodeSelectorOr(ctx, at(ctx.values, `${componentPath}.nodeSelector`)),
    tolerations: tolerationsOr(ctx, at(ctx.values, `${componentPath}.tolerations`)),
    affinity: map(ctx.values, `${componentPath}.affinity`),
    topologySpreadConstraints: list(ctx.values, `${componentPath}.topologySpreadConstraints`),
  };
}

/** A user probe replaces the default entirely (never merged). */
export function probe(ctx: RenderContext, path: string, fallback: JsonMap): JsonMap {
  const own = map(ctx.values, path);
  return present(own) ? own : fallback;
}
