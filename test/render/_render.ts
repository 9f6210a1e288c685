// Test support: render the chart from the revision defaults plus values layers, the way the
// CLI does (defaults ◄ layers, replace-not-merge paths taken from the user's layers).
import { parseDocument } from 'yaml';
import { defaultsSource } from '../../src/values/defaults.ts';
import type { Values } from '../../src/values/merge.ts';
import { layerRelease } from '../../src/values/replace.ts';
import type { ValuesSource } from '../../src/values/source.ts';
import { renderChart, type ChartRenderOptions } from '../../src/render/render.ts';
import type { RenderedDoc, K8sObject } from '../../src/model/objects.ts';
import type { Revision } from '../../src/chart/revisions.ts';

export function layer(data: Values, name = 'test'): ValuesSource {
  return { name, data, locate: () => undefined };
}

export function valuesFor(revision: Revision, ...user: Values[]): { values: Values } {
  const layers = user.map((u, i) => layer(u, `layer ${i}`));
  return { values: layerRelease(defaultsSource(revision), layers).values };
}

export function yamlValues(text: string): Values {
  return parseDocument(text).toJS() as Values;
}

export type Opts = Partial<ChartRenderOptions>;

export function render(revision: Revision, user: Values = {}, opts: Opts = {}): RenderedDoc[] {
  const { values } = valuesFor(revision, user);
  return renderChart(values, { revision, releaseName: 'agentplat', releaseNamespace: 'default', apiVersions: [], ...opts });
}

export { findObject as find, getObject as get } from '../helpers/objects.ts';

export function kinds(docs: RenderedDoc[]): string[] {
  return docs.map((d) => `${d.object.kind}/${d.object.metadata.namespace ? `${d.object.metadata.namespace}/` : ''}${d.object.metadata.name}`);
}

/** A container's env as name → value (valueFrom entries as their JSON). */
export function envOf(deployment: any): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of deployment.spec.template.spec.containers[0].env) out[e.name] = e.value ?? JSON.stringify(e.valueFrom);
  return out;
}
