// Small builders shared by the chart's components: object metadata and the `# Source:` path.

import type { RenderContext } from '../../model/context.ts';
import { renderDocs } from '../engine.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import type { Labels } from '../chart.ts';

/** `agentplat/templates/<file>`: the path `# Source:` headers and --show-only use. */
export function chartSource(file: string): string {
  return `agentplat/templates/${file}`;
}

export interface Meta {
  name: string;
  namespace: string | null;
  labels: Labels;
  annotations: Labels;
}

/** Metadata of a namespaced object of the chart (namespace = the chart namespace unless given). */
export function meta(ctx: RenderContext, name: string, labels: Labels, annotations: Labels = {}, namespace: string | null = ctx.namespace): Meta {
  return { name, namespace, labels, annotations };
}

/** Renders `templates/chart/<template>` for the given source file. */
export function chartDocs(file: string, template: string, data: unknown): RenderedDoc[] {
  return renderDocs(chartSource(file), `chart/${template}`, data);
}

/** An error in values that the linter should have caught; the message names the values path. */
export class RenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RenderError';
  }
}
