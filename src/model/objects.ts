// The objects the chart is made of: what render produces and every later stage reads.

export type K8sObject = Record<string, unknown> & {
  apiVersion: string;
  kind: string;
  metadata: Record<string, unknown> & { name: string; namespace?: string };
};

/** One object of the output with the `# Source:` path it belongs to. */
export interface RenderedDoc {
  /** `agentplat/templates/controller-deployment.yaml`, `agentplat/charts/mcpop/templates/deployment.yaml`, `agentplat/crds/…` */
  source: string;
  object: K8sObject;
}
