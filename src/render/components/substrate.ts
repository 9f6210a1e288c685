// Controller-side substrate objects (controller.substrate.enabled): a Role + RoleBinding per
// env-source namespace letting the substrate API server read Secrets and ConfigMaps (the
// configured server's account, plus the bundled sub-chart's when substrate.enabled), and the
// optional chart-installed WorkerPool (substrate-worker-pool).

import type { Component } from '../../model/context.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { chartLabels, nameOf, stringMap } from '../chart.ts';
import { bool, firstOf, map, num, present, str } from '../../model/values-access.ts';
import { substrateApiServerAccount } from '../subcharts/names.ts';
import { chartDocs, meta, RenderError } from './common.ts';
import { rolePairDocs, rule } from './rbac-docs.ts';

export const substrateComponent: Component = {
  id: 'substrate',
  render(ctx) {
    const v = ctx.values;
    if (!bool(v, 'controller.substrate.enabled')) return [];
    const docs: RenderedDoc[] = [];
    const labels = chartLabels(ctx);
    const name = nameOf(ctx, 'substrate-api-env-sources');
    const { namespace: apiNs, serviceAccount: apiSa } = ctx.model.substrate.apiServer;
    // The configured (or default) substrate API server account, and, when the bundled substrate
    // sub-chart is on, the API server account it creates: both resolve env sources.
    const subjects = [{ name: apiSa, namespace: apiNs }];
    if (bool(v, 'substrate.enabled')) {
      const bundled = substrateApiServerAccount(ctx);
      if (bundled.name !== apiSa || bundled.namespace !== apiNs) subjects.push(bundled);
    }
    const namespaces = [...new Set([...ctx.model.scope.roleNamespaces, ctx.namespace])].sort();
    for (const ns of namespaces) {
      docs.push(
        ...rolePairDocs(ctx, {
          files: { role: 'substrate-api-rbac.yaml', binding: 'substrate-api-rbac.yaml' },
          names: { role: name, binding: name },
          rules: [rule([''], ['secrets', 'configmaps'], ['get'])],
          subjects,
          labels,
          namespace: ns,
        }),
      );
    }
    if (bool(v, 'substrateWorkerPool.create')) {
      const pool = ctx.model.substrate.workerPool;
      const imageKey = pool.imageKey;
      const written = str(v, `substrateWorkerPool.${imageKey}`);
      if (!written) throw new RenderError(`substrateWorkerPool.${imageKey} is required when substrateWorkerPool.create is true`);
      // global-image-registry-override covers the substrate worker image too.
      const image = ctx.model.images.rehost(written);
      const poolName = firstOf(str(v, 'substrateWorkerPool.name'), 'agentplat-default');
      const template = map(v, 'substrateWorkerPool.template');
      const sandboxClass = firstOf(str(v, 'substrateWorkerPool.sandboxClass'), 'gvisor');
      // The WorkerPool's field names follow the substrate CRD of each revision's era (subcharts-facts 6.2).
      const spec = pool.spec(image, sandboxClass);
      docs.push(
        ...chartDocs('substrate-workerpool.yaml', 'substrate-workerpool.yaml.hbs', {
          meta: meta(ctx, poolName, { ...stringMap(map(v, 'substrateWorkerPool.labels')), ...labels, 'agentplat.dev/worker-pool': poolName }),
          replicas: num(v, 'substrateWorkerPool.replicas', 1),
          ...spec,
          template: present(template) ? template : null,
        }),
      );
    }
    return docs;
  },
};
