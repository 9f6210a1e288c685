// The CRDs of the chart (the six Resource API kinds) and of the mcpop sub-chart, built from the
// model on first use. The validator lives in ./validate.ts (it loads ajv and CEL: import it lazily).

import type { RenderedDoc, K8sObject } from '../render/engine.ts';
import { buildCrd } from './generate.ts';
import { PREBUILT_CRDS } from './prebuilt.ts';
import { MCPSERVER_KIND } from './mcpop.ts';
import { GROUP, KINDS, VERSION } from './model.ts';

export { GROUP, VERSION } from './model.ts';

let chart: RenderedDoc[] | undefined;
let mcpop: RenderedDoc[] | undefined;

/** The six CRDs of the Resource API, one source file each, in a fixed order. */
export function chartCrdDocs(): RenderedDoc[] {
  chart ??= KINDS.map((k) => crdDoc(`agentplat/crds/${k.plural}.${GROUP}.yaml`, () => buildCrd({ ...k, group: GROUP, version: VERSION }) as K8sObject));
  return chart;
}

/** The MCP operator's MCPServer CRD. */
export function mcpopCrdDocs(): RenderedDoc[] {
  mcpop ??= [
    crdDoc(`agentplat/charts/mcpop/crds/${MCPSERVER_KIND.plural}.${GROUP}.yaml`, () => buildCrd({ ...MCPSERVER_KIND, group: GROUP }) as K8sObject),
  ];
  return mcpop;
}

/**
 * A CRD document. With a build-time text, the object stays unbuilt until something reads more than
 * its apiVersion, kind or metadata (`-o json` does; YAML output prints the text).
 */
function crdDoc(source: string, build: () => K8sObject): RenderedDoc {
  const pre = PREBUILT_CRDS[source];
  if (!pre) return { source, object: build() };
  let full: K8sObject | undefined;
  const whole = () => (full ??= build());
  const eager = new Set<PropertyKey>(['apiVersion', 'kind', 'metadata']);
  const object = new Proxy({ ...pre.head } as K8sObject, {
    get: (head, p) => (eager.has(p) ? Reflect.get(head, p) : Reflect.get(whole(), p)),
    has: (_, p) => p in whole(),
    ownKeys: () => Reflect.ownKeys(whole()),
    getOwnPropertyDescriptor: (head, p) => (eager.has(p) ? Reflect.getOwnPropertyDescriptor(head, p) : Reflect.getOwnPropertyDescriptor(whole(), p)),
  });
  return { source, object, text: pre.text };
}
