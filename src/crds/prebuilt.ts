// The CRDs as a run serves them: YAML texts and objects written to data files at build time
// (scripts/build.mjs), read when a command first prints a CRD (./index.ts calls prebuiltCrdDocs),
// so neither the CRD model nor its schemas are part of the bundle.

import type { K8sObject, RenderedDoc } from '../model/objects.ts';

export interface PrebuiltCrd {
  source: string;
  /** The object's YAML body as `render` prints it (read when first asked for). */
  text: () => string;
  /** apiVersion, kind and metadata: what ordering and checks read without the whole object. */
  head: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>;
}

export interface PrebuiltCrds {
  chart: PrebuiltCrd[];
  mcpop: PrebuiltCrd[];
}

/**
 * Documents over the texts. Each object stays a head until something reads more than its
 * apiVersion, kind or metadata (`-o json` does); then all objects are read from `objects()`.
 * `yaml` maps each of these objects to its text.
 */
export function prebuiltCrdDocs(texts: PrebuiltCrds, objects: () => Record<string, K8sObject>): { chart: RenderedDoc[]; mcpop: RenderedDoc[]; yaml: WeakMap<object, () => string> } {
  const yaml = new WeakMap<object, () => string>();
  let all: Record<string, K8sObject> | undefined;
  const doc = (pre: PrebuiltCrd): RenderedDoc => {
    const whole = () => (all ??= objects())[pre.source]!;
    const eager = new Set<PropertyKey>(['apiVersion', 'kind', 'metadata']);
    const object = new Proxy({ ...pre.head } as K8sObject, {
      get: (head, p) => (eager.has(p) ? Reflect.get(head, p) : Reflect.get(whole(), p)),
      has: (_, p) => p in whole(),
      ownKeys: () => Reflect.ownKeys(whole()),
      getOwnPropertyDescriptor: (head, p) => (eager.has(p) ? Reflect.getOwnPropertyDescriptor(head, p) : Reflect.getOwnPropertyDescriptor(whole(), p)),
    });
    yaml.set(object, pre.text);
    return { source: pre.source, object };
  };
  return { chart: texts.chart.map(doc), mcpop: texts.mcpop.map(doc), yaml };
}
