// The `crds` operation: the CustomResourceDefinitions of the chart and its sub-charts, as
// `agentplat crds` prints them, annotated so that GitOps tools never prune them when asked.
import type { RenderedDoc } from '../model/objects.ts';

export async function crdsOperation(req: { protectCrds?: boolean }): Promise<RenderedDoc[]> {
  const { chartCrdDocs, mcpopCrdDocs } = await import('../crds/index.ts');
  const all = [...chartCrdDocs(), ...mcpopCrdDocs()];
  return req.protectCrds ? (await import('../render/crd-protect.ts')).protectCrds(all) : all;
}
