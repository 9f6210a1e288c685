// Writes the values artefacts generated from src/spec/values-model.ts: both revisions' defaults
// files and JSON schemas, and the list of secret fields the linter masks. Run
// `node scripts/gen-values.mjs` (Node 20 cannot run .ts directly).

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REVISION_IDS } from '../src/spec/revisions.ts';
import { K8S_ROOTS, schemaText, secretFieldsModule, valuesSchema, valuesYaml } from '../src/spec/values-generate.ts';
import type { JsonSchema } from '../src/spec/values-nodes.ts';
import { deriveK8sDefinitions } from '../src/spec/values-k8s-defs.ts';
import { addProviderConfigFields, type CrdFieldNode } from '../src/spec/provider-config-schema.ts';
import { ModelConfigSpec } from '../src/crds/model.ts';

/** Project-relative path -> generated text, for the writer and for the drift test. */
export function generatedFiles(): Record<string, string> {
  const definitions = deriveK8sDefinitions(K8S_ROOTS);
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
