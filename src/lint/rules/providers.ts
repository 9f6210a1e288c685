// Model providers: the default block must exist, and a block's config must belong to its provider
// (the generated ModelConfig puts the block's config under the block key, and the API server
// rejects a config block that does not match spec.provider).
//   bad: providers.default: providerZ (no such block)
//   bad: providers.providerA: {provider: ProviderB, config: {…}}
//   bad: providers.providerB.config: {maxTokens: 0}   (the ModelConfig CRD: minimum 1)
// A block's config and tls are checked by the ModelConfig CRD itself (kube-check/validate.ts): the
// block's ModelConfig is built as render builds it and every finding is placed back on the key
// it came from, with the message `agentplat validate` gives for the rendered object.

import type { RuleContext, ValuesRule } from './types.ts';
import { at, optMap, optStr, present } from '../../model/values-access.ts';
import { DEFAULT_MODEL_CONFIG_NAME, modelConfigSource, modelConfigSpec } from '../../model/model-config.ts';
import { schemaAt } from '../schema.ts';
import { GROUP } from '../../crds/ids.ts';
import { crdSchemas } from '../../crds/crd-validators.ts';

/** The ModelConfig version the default block's ModelConfig is rendered as. */
const MODELCONFIG_VERSION = 'v1alpha2';

/**
 * Config fields the ModelConfig CRD requires of a provider's block (`spec.provider<X>.required`),
 * read from the CRD's schema, which the build makes from the CRD model (crds/model.ts): a
 * provider the CRD does not know requires nothing here (the schema check reports it).
 */
export function requiredConfig(provider: string): string[] {
  const m = /^Provider([A-Z])$/.exec(provider);
  if (!m) return [];
  type Props = { properties?: Record<string, { properties?: Record<string, { required?: string[] }> }> };
  const spec = (crdSchemas('ModelConfig', MODELCONFIG_VERSION).root as Props).properties?.spec?.properties ?? {};
  const block = `provider${m[1]}`;
  return Object.hasOwn(spec, block) ? [...(spec[block]!.required ?? [])] : [];
}

export const providerRules: ValuesRule = {
  ids: [
    { id: 'values/providers-default', description: 'providers.default must name a provider block that exists.' },
    { id: 'values/provider-block-mismatch', description: "A provider block's config must match its provider (providerX blocks configure ProviderX)." },
    { id: 'values/provider-required-config', description: 'The default provider block must carry the config fields its provider requires.' },
    { id: 'values/provider-modelconfig', description: "A provider block's config and tls must pass the ModelConfig CRD's schema and CEL rules (the check validate runs on the rendered object)." },
    { id: 'values/provider-api-key-unused', description: "A provider block's apiKey renders a Secret only in the default block and with apiKeySecretRef set; any other apiKey is never rendered." },
  ],
  check(ctx) {
    const providers = at(ctx.values, 'providers');
    if (providers === null || providers === undefined) return;
    const blocks = optMap(ctx.values, 'providers') ?? {};
    const names = Object.keys(blocks).filter((k) => k !== 'default' && k !== 'annotations');
    const toCheck: string[] = [];
    for (const name of names) {
      const block = optMap(ctx.values, `providers.${name}`);
      const provider = optStr(ctx.values, `providers.${name}.provider`);
      const expected = /^provider([A-J])$/.exec(name)?.[1];
      if (block && provider && expected && provider !== `Provider${expected}` && present(optMap(ctx.values, `providers.${name}.config`))) {
        ctx.report({
          rule: 'values/provider-block-mismatch',
          severity: 'error',
          path: `providers.${name}.provider`,
          message: `block \`providers.${name}\` says provider ${provider} but its config is ${name}'s: the ModelConfig would be rejected`,
          hint: `set \`providers.${name}.provider: Provider${expected}\`, or move the block under providers.provider${provider.slice(-1)}`,
        });
        continue;
      }
      // The defaults pass the CRD (a test pins it): only a block whose config or tls the user
      // wrote needs the check, so most runs never evaluate the CRD at all.
      if (block && (ctx.userSet(`providers.${name}.config`) || ctx.userSet(`providers.${name}.tls`))) toCheck.push(name);
    }
    // Before the checks of the default block, which give up on values of the wrong type.
    for (const name of toCheck) checkModelConfig(ctx, name);
    const def = optStr(ctx.values, 'providers.default') || 'providerB';
    if (!names.includes(def)) {
      ctx.report({
        rule: 'values/providers-default',
        severity: 'error',
        path: 'providers.default',
        message: `\`providers.default\` names "${def}", but there is no \`providers.${def}\` block`,
        hint: names.length > 0 ? `use one of: ${names.join(', ')}` : 'add a provider block under providers',
      });
      return;
    }
    unusedApiKeys(ctx, names, def);
    const provider = optStr(ctx.values, `providers.${def}.provider`) ?? '';
    for (const field of requiredConfig(provider)) {
      const v = at(ctx.values, `providers.${def}.config.${field}`);
      if (typeof v === 'string' && v !== '') continue;
      ctx.report({
        rule: 'values/provider-required-config',
        severity: 'warning',
        path: `providers.${def}.config.${field}`,
        message: `the default provider ${provider} needs \`providers.${def}.config.${field}\`; the generated ModelConfig cannot reach the model without it`,
        hint: `set providers.${def}.config.${field}`,
      });
    }
  },
};

/**
 * An apiKey the user writes is rendered into a Secret only in the default block and only when the
 * block names the Secret (apiKeySecretRef): anywhere else the key is dropped, and a ModelConfig
 * that names a key of no Secret fails at run time. A secret the user gives is used or reported.
 */
function unusedApiKeys(ctx: RuleContext, names: readonly string[], def: string): void {
  for (const name of names) {
    const key = at(ctx.values, `providers.${name}.apiKey`);
    if (!ctx.userSet(`providers.${name}.apiKey`) || key === undefined || key === null || key === '') continue;
    if (name !== def) {
      ctx.report({
        rule: 'values/provider-api-key-unused',
        severity: 'warning',
        path: `providers.${name}.apiKey`,
        message: `providers.${name}.apiKey is never rendered: only the default provider block renders a ModelConfig and its Secret, and providers.default is ${def}`,
        hint: `set providers.default: ${name} to use this block, or remove providers.${name}.apiKey (keep API keys out of values files you do not use)`,
      });
      continue;
    }
    if (!optStr(ctx.values, `providers.${name}.apiKeySecretRef`)) {
      ctx.report({
        rule: 'values/provider-api-key-unused',
        severity: 'error',
        path: `providers.${name}.apiKey`,
        message: `providers.${name}.apiKey is never rendered: providers.${name}.apiKeySecretRef is empty, so no Secret is rendered for it${optStr(ctx.values, `providers.${name}.apiKeySecretKey`) ? ` and the ModelConfig ${DEFAULT_MODEL_CONFIG_NAME} names the key ${optStr(ctx.values, `providers.${name}.apiKeySecretKey`)} of no Secret` : ''}`,
        hint: `name the Secret to render in providers.${name}.apiKeySecretRef (for example agentplat-${name.toLowerCase()}), or remove providers.${name}.apiKey and name the Secret you create yourself in apiKeySecretRef`,
      });
    }
  }
}

/**
 * The ModelConfig `providers.<name>` generates when it is the default block, checked by the CRD;
 * each finding is reported on the values key its field comes from.
 */
function checkModelConfig(ctx: RuleContext, name: string): void {
  const object = { apiVersion: `${GROUP}/${MODELCONFIG_VERSION}`, kind: 'ModelConfig', metadata: { name: DEFAULT_MODEL_CONFIG_NAME }, spec: modelConfigSpec(ctx.values, name) };
  const check = ctx.checkModelConfig;
  // The operation that lints passes the check whenever the layers set config or tls (src/lint/crd-check.ts).
  if (!check) throw new Error(`bug: providers.${name} sets config or tls, but lintValues was not given checkModelConfig (modelConfigCheckFor in src/lint/crd-check.ts)`);
  for (const { problem, at: where } of check(object)) {
    const path = scalarAbove(ctx, (where[0] === 'spec' && modelConfigSource(name, where.slice(1))) || ['providers', name]);
    ctx.report({
      rule: 'values/provider-modelconfig',
      severity: 'error',
      path,
      message: problem.message,
      hint: problem.hint ?? `\`${path.join('.')}\` becomes \`${problem.path}\` of the default ModelConfig ${DEFAULT_MODEL_CONFIG_NAME}`,
    });
  }
}

/**
 * Validate names a map written where a scalar belongs through the map's keys (as the API server
 * does); in values the fault is the key that holds the map, so the finding goes there: the first
 * key on the path whose schema (the CRD's field, generated into the values schema) is a scalar.
 */
function scalarAbove(ctx: RuleContext, path: (string | number)[]): (string | number)[] {
  for (let len = 4; len < path.length; len++) {
    const type = schemaAt(ctx.revision, path.slice(0, len))?.type;
    if (typeof type === 'string' && type !== 'object' && type !== 'array') return path.slice(0, len);
  }
  return path;
}
