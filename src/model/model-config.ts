// The default ModelConfig a provider block generates (Resource API 2.12): render writes it, and
// lint checks the same object against the ModelConfig CRD before anything is rendered, so the two
// can never disagree about which values field lands in which spec field.

import type { Values } from '../values/merge.ts';
import { map, present, scalarText, type Json, type JsonMap } from './values-access.ts';

/** The default ModelConfig every agent falls back to. */
export const DEFAULT_MODEL_CONFIG_NAME = 'default-model-config';

/**
 * Where each field of the ModelConfig spec comes from in a provider block: `spec.<block key>`
 * (the provider's config, e.g. spec.providerB) from the block's `config`, `spec.tls` from its
 * `tls`, the rest from the block's own keys.
 */
export const MODEL_CONFIG_SOURCES: Readonly<Record<string, string>> = {
  provider: 'provider',
  model: 'model',
  apiKeySecret: 'apiKeySecretRef',
  apiKeySecretKey: 'apiKeySecretKey',
  defaultHeaders: 'defaultHeaders',
  tls: 'tls',
};

/** The spec of the default ModelConfig when `providers.<key>` is the default block. */
export function modelConfigSpec(values: Values, key: string): JsonMap {
  const block = map(values, `providers.${key}`);
  const spec: JsonMap = { provider: scalarText(block.provider), model: scalarText(block.model) };
  const secretName = scalarText(block.apiKeySecretRef);
  const secretKey = scalarText(block.apiKeySecretKey);
  if (secretName) spec.apiKeySecret = secretName;
  if (secretKey) spec.apiKeySecretKey = secretKey;
  // Headers are copied even when empty; TLS and the provider's config only when non-empty.
  if (block.defaultHeaders !== undefined) spec.defaultHeaders = block.defaultHeaders;
  if (present(block.tls)) spec.tls = block.tls as Json;
  if (present(block.config)) spec[key] = block.config as Json;
  return spec;
}

/** The values path (under `providers.<key>`) a path inside the generated spec comes from. */
export function modelConfigSource(key: string, specPath: readonly (string | number)[]): (string | number)[] | undefined {
  const [field, ...rest] = specPath;
  if (field === undefined) return ['providers', key];
  if (field === key) return ['providers', key, 'config', ...rest];
  const source = typeof field === 'string' && Object.hasOwn(MODEL_CONFIG_SOURCES, field) ? MODEL_CONFIG_SOURCES[field] : undefined;
  return source ? ['providers', key, source, ...rest] : undefined;
}
