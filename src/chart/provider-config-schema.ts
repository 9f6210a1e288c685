// The values schema of the provider blocks' `config` and `tls`, from the ModelConfig CRD model:
// each field the CRD gives `spec.provider<X>` and `spec.tls`, with its type and description, so
// editors, `docs`, `explain` and completion know them. The generator (scripts/gen-values.ts) adds
// them; the model's declared fields (providerC, providerD) keep their doc and default. Lint does
// not judge these fields by this schema: values/provider-modelconfig checks them with the CRD
// itself (its schema and CEL rules), and lint/rules/index.ts drops the schema's findings there.

import type { JsonSchema } from './values-nodes.ts';

/** The part of a CRD model node this conversion reads (crds/dsl.ts Node). */
export interface CrdFieldNode {
  type?: string;
  description?: string;
  enum?: unknown[];
  default?: unknown;
  minimum?: number;
  maximum?: number;
  properties?: Record<string, CrdFieldNode>;
  items?: CrdFieldNode;
  additionalProperties?: CrdFieldNode;
  required?: string[];
  secret?: boolean;
}

/** What an editor shows and checks as the user types; lengths, required fields and CEL rules are the CRD check's. */
const KEPT = ['type', 'enum', 'minimum', 'maximum'] as const;

/** One CRD field as a values schema node: the validating keywords JSON schema shares, and notes. */
export function crdFieldSchema(n: CrdFieldNode, where: string): JsonSchema {
  const out: JsonSchema = {};
  for (const k of KEPT) if (n[k] !== undefined) out[k] = structuredClone(n[k]);
  if (n.properties) {
    out.type = 'object';
    out.properties = Object.fromEntries(Object.entries(n.properties).map(([k, sub]) => [k, crdFieldSchema(sub, `${where}.${k}`)]));
    out.additionalProperties = false;
  }
  // A field the CRD leaves untyped (forwarded JSON) or types by reference (a core type) is a map.
  out.type ??= 'object';
  if (n.items) out.items = crdFieldSchema(n.items, `${where}[]`);
  if (n.additionalProperties) out.additionalProperties = crdFieldSchema(n.additionalProperties, `${where}.*`);
  if (n.description) {
    out.description = n.description;
    const md = [n.description];
    if (n.default !== undefined) md.push(`The ModelConfig's default: \`${JSON.stringify(n.default)}\``);
    md.push(`Becomes \`${where}\` of the default ModelConfig; checked by the ModelConfig CRD.`);
    out.markdownDescription = md.join('\n\n');
  }
  if (n.secret) out['x-agentplat-secret'] = true;
  return out;
}

/**
 * A CRD node (converted) with the model's declared node laid over it: the declared doc and default
 * win, the CRD gives the type; fields only the CRD has follow, fields of a map (providerD's
 * options) keep the map's value type.
 */
function merged(crd: CrdFieldNode, declared: JsonSchema | undefined, where: string): JsonSchema {
  const converted = crdFieldSchema(crd, where);
  if (!declared) return converted;
  const { properties: declaredProps, additionalProperties: _closed, type: _type, ...annotations } = declared;
  const out: JsonSchema = { ...converted, ...annotations };
  const props = (declaredProps ?? {}) as Record<string, JsonSchema>;
  if (crd.properties || Object.keys(props).length > 0) {
    const properties: Record<string, JsonSchema> = {};
    for (const k of new Set([...Object.keys(crd.properties ?? {}), ...Object.keys(props)])) {
      const sub = crd.properties?.[k] ?? crd.additionalProperties;
      properties[k] = sub ? merged(sub, props[k], `${where}.${k}`) : props[k]!;
    }
    out.properties = properties;
  }
  return out;
}

/**
 * Fills `config` and `tls` of every provider block in a values schema from the ModelConfig spec
 * node of the CRD model (`spec.properties.provider<X>` and `spec.properties.tls`).
 */
export function addProviderConfigFields(schema: JsonSchema, modelConfigSpec: CrdFieldNode): void {
  const blocks = ((schema.properties as Record<string, JsonSchema>).providers?.properties ?? {}) as Record<string, JsonSchema>;
  for (const [key, block] of Object.entries(blocks)) {
    const props = block.properties as Record<string, JsonSchema> | undefined;
    if (!/^provider[A-J]$/.test(key) || !props) continue;
    const config = modelConfigSpec.properties?.[key];
    if (config && props.config) props.config = merged(config, props.config, `spec.${key}`);
    const tls = modelConfigSpec.properties?.tls;
    if (tls && props.tls) props.tls = merged(tls, props.tls, 'spec.tls');
  }
}
