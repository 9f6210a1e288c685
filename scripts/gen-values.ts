// Writes the values artefacts generated from src/chart/values-model.ts: both revisions' defaults
// files and JSON schemas, and the list of secret fields the linter masks. Run
// `node scripts/gen-values.mjs` (Node 20 cannot run .ts directly).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REVISION_IDS } from '../src/chart/revisions.ts';
import { K8S_ROOTS, schemaText, secretFieldsModule, valuesSchema, valuesYaml } from '../src/chart/values-generate.ts';
import type { JsonSchema } from '../src/chart/values-nodes.ts';
import { deriveK8sDefinitions } from '../src/chart/values-k8s-defs.ts';
import { addProviderConfigFields, type CrdFieldNode } from '../src/chart/provider-config-schema.ts';
import { ModelConfigSpec } from '../src/crds/model.ts';
import { AGENT_COMPACTION_DEF } from '../src/chart/values-model.ts';
import { modelChartCrdDocs as chartCrdDocs } from '../src/crds/model-docs.ts';

/**
 * A field of an Agent CRD schema as a closed values-schema definition (the bundled agents'
 * `compaction` is copied into the Agent verbatim, so the values check it with the CRD's own
 * types and bounds). Kubernetes' extension keywords are left out.
 */
function agentFieldDefinition(path: readonly string[]): JsonSchema {
  const crd = chartCrdDocs().map((d) => d.object as unknown as { spec: { names: { kind: string }; versions: { schema: { openAPIV3Schema: JsonSchema } }[] } })
    .find((o) => o.spec?.names?.kind === 'Agent');
  if (!crd) throw new Error('no Agent CRD');
  let node: JsonSchema = crd.spec.versions[0]!.schema.openAPIV3Schema;
  for (const key of path) node = (node.properties as Record<string, JsonSchema>)[key]!;
  const close = (n: JsonSchema): JsonSchema => {
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(n)) {
      if (k.startsWith('x-kubernetes-') || k === 'default') continue;
      out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Record<string, JsonSchema>).map(([p, c]) => [p, close(c)])) : v;
    }
    if (out.properties) out.additionalProperties = false;
    return out;
  };
  return close(node);
}

/** Project-relative path -> generated text, for the writer and for the drift test. */
export function generatedFiles(): Record<string, string> {
  const definitions = { ...deriveK8sDefinitions(K8S_ROOTS), [AGENT_COMPACTION_DEF]: agentFieldDefinition(['spec', 'declarative', 'context', 'compaction']) };
  const files: Record<string, string> = {};
  const schemas: JsonSchema[] = [];
  for (const rev of REVISION_IDS) {
    const x = rev.toLowerCase();
    const schema = valuesSchema(rev, definitions);
    // The fields of each provider block's config and tls are the ModelConfig CRD's.
    addProviderConfigFields(schema, ModelConfigSpec as CrdFieldNode);
    schemas.push(schema);
    files[`values/revision-${x}.yaml`] = valuesYaml(rev);
    files[`schemas/values-${x}.schema.json`] = schemaText(schema);
  }
  files['src/problems/values-secret-fields.generated.ts'] = secretFieldsModule(schemas);
  return files;
}

export function main(root: string): void {
  for (const [path, text] of Object.entries(generatedFiles())) {
    writeFileSync(join(root, path), text);
    console.log(`wrote ${path}`);
  }
}
