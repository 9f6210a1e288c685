// What every sub-chart component shares: reading its values block, naming its objects the way
// a Helm sub-chart would, its label sets, and the chart-wide keys that reach sub-chart pods
// (top-level labels, security and scheduling defaults; images, pull policy, pull secrets and
// pod annotations follow the revision model's one precedence, ctx.model.images).

import { isPlainMap, type Values } from '../../values/merge.ts';
import { dnsTrunc, type RenderContext } from '../../model/context.ts';
import { asMap, asStr } from '../../model/values-access.ts';

/** The values block of a sub-chart (`mcpop`, `agentplat-tools`, …); `{}` when absent. */
export function block(ctx: RenderContext, key: string): Values {
  const v = ctx.values[key];
  return isPlainMap(v) ? v : {};
}

/** A sub-chart renders when its `enabled` key is true (the dependency condition). */
export function enabled(ctx: RenderContext, key: string): boolean {
  return block(ctx, key).enabled === true;
}

/**
 * Fullname of a sub-chart whose rule is "fullnameOverride, else `<release>-<nameOverride>`,
 * else the release name" (the MCP operator and the tools server).
 */
export function overrideFullname(release: string, b: Values): string {
  const full = asStr(b.fullnameOverride);
  if (full) return dnsTrunc(full);
  const name = asStr(b.nameOverride);
  return dnsTrunc(name ? `${release}-${name}` : release);
}

/**
 * Fullname of a sub-chart with the conventional rule: fullnameOverride, else the release name
 * when it already contains the name, else `<release>-<name>` (authproxy, dashboards MCP,
 * substrate). The name is nameOverride, else the chart name.
 */
export function conventionalFullname(release: string, chartName: string, b: Values): string {
  const full = asStr(b.fullnameOverride);
  if (full) return dnsTrunc(full);
  const name = asStr(b.nameOverride) || chartName;
  return dnsTrunc(release.includes(name) ? release : `${release}-${name}`);
}

/**
 * Namespace of a sub-chart's objects: its own namespaceOverride, else the chart namespace.
 * The chart namespace already follows the top-level namespaceOverride (decisions.md: the
 * override moves sub-chart objects too, so cross-object URLs stay right).
 */
export function subchartNamespace(ctx: RenderContext, b: Values): string {
  const own = asStr(b.namespaceOverride);
  return dnsTrunc(own || ctx.namespace);
}

export type Labels = Record<string, string>;

/**
 * Metadata labels of a sub-chart object: its own chart labels, then the top-level `labels`
 * for keys the chart labels do not set (the identity labels of a sub-chart stay its own, so
 * a selector never disagrees with the object it belongs to).
 */
export function withTopLevelLabels(ctx: RenderContext, own: Labels): Labels {
  const out: Labels = { ...own };
  for (const [k, v] of Object.entries(asMap(ctx.values.labels))) if (!(k in out)) out[k] = asStr(v);
  return out;
}

/** `app.kubernetes.io/managed-by` of everything this tool renders (naming.md). */
export const MANAGED_BY = 'agentplat';

/** The `helm.sh/chart` label value: `<name>-<version>`, `+` replaced, 63 characters. */
export function chartLabel(name: string, version: string): string {
  return dnsTrunc(`${name}-${version}`.replace(/\+/g, '_'));
}

/** Annotations of a sub-chart Deployment's metadata: the top-level `annotations` (all deployment resources). */
export function deploymentAnnotations(ctx: RenderContext): Values {
  return asMap(ctx.values.annotations);
}

/** `registry/repository:tag`, skipping an empty registry. */
export function imageRef(reg: string, repository: string, tag: string): string {
  return `${reg ? `${reg}/` : ''}${repository}:${tag}`;
}

/** Top-level pod security context (all pods), unless the component brings its own. */
export function podSecurityContext(ctx: RenderContext, own?: unknown): Values {
  return isPlainMap(own) && Object.keys(own).length > 0 ? own : asMap(ctx.values.podSecurityContext);
}

/**
 * Container security context: the component's baseline (what its upstream image needs, such
 * as a fixed user id) with the top-level `securityContext` laid over it key by key.
 */
export function containerSecurityContext(ctx: RenderContext, baseline: Values = {}): Values {
  return { ...baseline, ...asMap(ctx.values.securityContext) };
}

/** `# Source:` path of a sub-chart template. */
export function subchartSource(chart: string, file: string): string {
  return `agentplat/charts/${chart}/templates/${file}`;
}
