// Image references and the one precedence of registries, pull policies, pull secrets and pod
// annotations that every pod of the chart and of its sub-charts follows (revision-model.ts).

import type { Values } from '../values/merge.ts';
import type { ImagePolicy } from './revision-model.ts';
import { firstOf, list, map, present, scalarText, str, type Json } from './values-access.ts';

export interface ImageParts {
  registry?: string;
  repository: string;
  tag?: string;
  digest?: string;
}

/** `<registry>/<repository>` + `:<tag>` and/or `@<digest>`, dropping empty segments. */
export function composeImage(p: ImageParts): string {
  const name = [p.registry, p.repository].filter((s) => s !== undefined && s !== '').join('/');
  return `${name}${p.tag ? `:${p.tag}` : ''}${p.digest ? `@${p.digest}` : ''}`;
}

/**
 * The images whose own tag the top-level `tag` replaces when set: the chart's workloads (the real
 * chart's rule). The images of agent pods keep their own tag first (revisions/shared.ts).
 */
export const TAG_FOLLOWS_TOP_LEVEL: readonly string[] = ['controller.image', 'ui.image'];

/**
 * [B] The images whose own tag `global.tag` replaces when set: the tools server's, under both of
 * its spellings (render/subcharts/tools.ts picks global.tag first).
 */
export const TAG_FOLLOWS_GLOBAL_TAG: readonly string[] = ['agentplat-tools.image', 'agentplat-tools.tools.image'];

/** Tag of a workload image (TAG_FOLLOWS_TOP_LEVEL): the top-level `tag`, else its own, else the chart version. */
export function workloadTag(values: Values, imagePath: string, chartVersion: string): string {
  return firstOf(str(values, 'tag'), str(values, `${imagePath}.tag`), chartVersion);
}

/** What a revision adds to the chart-wide image keys: its `global.*` fall-backs ("" and [] when it has none). */
export interface ImageGlobals {
  registry: string;
  pullPolicy: string;
  pullSecrets: Json[];
}

export function imagePolicy(values: Values, globals: ImageGlobals): ImagePolicy {
  return {
    mirror: globals.registry,
    registry: (own, ...fallbacks) => firstOf(globals.registry, own, ...fallbacks),
    // The registry part of a reference is its first segment when that holds a dot or a port.
    rehost: (image) => (globals.registry ? `${globals.registry}/${image.replace(/^[^/]*[.:][^/]*\//, '')}` : image),
    pullPolicy: (own) => firstOf(own, str(values, 'imagePullPolicy'), globals.pullPolicy, 'IfNotPresent'),
    pullSecrets(local = list(values, 'imagePullSecrets')) {
      const out: { name: string }[] = [];
      const seen = new Set<string>();
      for (const s of [...local, ...globals.pullSecrets]) {
        const name = typeof s === 'string' ? s : s !== null && typeof s === 'object' && !Array.isArray(s) ? scalarText((s as { name?: unknown }).name) : '';
        if (name === '' || seen.has(name)) continue;
        seen.add(name);
        out.push({ name });
      }
      return out;
    },
    podAnnotations(fixed = {}, own) {
      const user = own !== undefined && present(own) ? own : map(values, 'podAnnotations');
      const out: Record<string, string> = { ...fixed };
      for (const [k, v] of Object.entries(user)) out[k] = scalarText(v);
      return out;
    },
  };
}
