// The default ModelConfig from the block providers.default selects, and a Secret when that
// block carries a non-empty inline apiKey (an empty key leaves the Secret to external managers).

import type { Component } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { chartLabels, DEFAULT_MODEL_CONFIG_NAME, stringMap } from '../chart.ts';
import { at, firstOf, map, present, scalarText, str } from '../../model/values-access.ts';
import { modelConfigSpec } from '../../model/model-config.ts';
import { chartDocs, meta, RenderError } from './common.ts';

export const providersComponent: Component = {
  id: 'providers',
  render(ctx) {
    const providers = at(ctx.values, 'providers');
    if (providers === null || providers === undefined) return [];
    const key = firstOf(str(ctx.values, 'providers.default'), 'providerB');
    const block = map(ctx.values, `providers.${key}`);
    if (!present(block)) throw new RenderError(`providers.default: the provider block "${key}" is not defined under providers`);
    const labels = chartLabels(ctx);
    const secretName = scalarText(block.apiKeySecretRef);
    const secretKey = scalarText(block.apiKeySecretKey);
    const spec = modelConfigSpec(ctx.values, key);
    const docs: RenderedDoc[] = [];
    const apiKey = scalarText(block.apiKey);
    if (secretName && apiKey) {
      const dataKey = firstOf(secretKey, `${scalarText(block.provider).toUpperCase()}_API_KEY`);
      docs.push(...chartDocs('modelconfig-secret.yaml', 'secret.yaml.hbs', { meta: meta(ctx, secretName, labels), data: { [dataKey]: Buffer.from(apiKey).toString('base64') } }));
    }
    docs.push(...chartDocs('modelconfig.yaml', 'modelconfig.yaml.hbs', { meta: meta(ctx, DEFAULT_MODEL_CONFIG_NAME, labels, stringMap(map(ctx.values, 'providers.annotations'))), spec }));
    return docs;
  },
};
