// Model providers: the default block must exist, and a block's config must belong to its provider
// (the generated ModelConfig puts the block's config under the block key, and the API server
// rejects a config block that does not match spec.provider).
//   bad: providers.default: providerZ (no such block)
//   bad: providers.providerA: {provider: ProviderB, config: {…}}

import type { ValuesRule } from './types.ts';
import { at, optMap, optStr } from '../../model/values-access.ts';

/** Config fields the Resource API requires per provider (seed 000, 2.12). */
const REQUIRED_CONFIG: Record<string, string[]> = {
  ProviderC: ['azureEndpoint', 'apiVersion'],
  ProviderF: ['projectID', 'location'],
  ProviderG: ['projectID', 'location'],
  ProviderH: ['region'],
  ProviderI: ['baseUrl'],
  ProviderJ: ['deployment'],
};

export const providerRules: ValuesRule = {
  ids: [
    { id: 'values/providers-default', description: 'providers.default must name a provider block that exists.' },
    { id: 'values/provider-block-mismatch', description: "A provider block's config must match its provider (providerX blocks configure ProviderX)." },
    { id: 'values/provider-required-config', description: 'The default provider block must carry the config fields its provider requires.' },
  ],
  check(ctx) {
    const providers = at(ctx.values, 'providers');
    if (providers === null || providers === undefined) return;
    const blocks = optMap(ctx.values, 'providers') ?? {};
    const names = Object.keys(blocks).filter((k) => k !== 'default' && k !== 'annotations');
    for (const name of names) {
      const block = optMap(ctx.values, `providers.${name}`);
      const provider = optStr(ctx.values, `providers.${name}.provider`);
      const expected = /^provider([A-J])$/.exec(name)?.[1];
      if (block && provider && expected && provider !== `Provider${expected}` && optMap(ctx.values, `providers.${name}.config`) && Object.keys(optMap(ctx.values, `providers.${name}.config`)!).length > 0) {
        ctx.report({
          rule: 'values/provider-block-mismatch',
          severity: 'error',
          path: `providers.${name}.provider`,
          message: `block \`providers.${name}\` says provider ${provider} but its config is ${name}'s: the ModelConfig would be rejected`,
          hint: `set \`providers.${name}.provider: Provider${expected}\`, or move the block under providers.provider${provider.slice(-1)}`,
        });
      }
    }
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
    const provider = optStr(ctx.values, `providers.${def}.provider`) ?? '';
    for (const field of REQUIRED_CONFIG[provider] ?? []) {
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
