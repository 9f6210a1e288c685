// The sandbox substrate: two components.
//
// `substrate-integration` (gated by controller.substrate.enabled) renders what the main chart
// owns for the substrate: the optional WorkerPool of `substrateWorkerPool` (platform capacity,
// not owned by any agent or harness; created only with `create: true`) and, per env-source
// namespace, the Role + RoleBinding that let the substrate API server read the Secrets and
// ConfigMaps generated ActorTemplates reference. The controller's own substrate wiring (env,
// token volume) is the controller component's job.
//
// `substrate` (gated by substrate.enabled) is a deliberately small stand-in for the substrate
// sub-chart: only the substrate API server, because that is what the spec's keys configure
// ([B] `substrate.ateApi.extraArgs` are its extra args; [B]
// `substrate.credentialProvider.namespacePolicies` is the policy list it is given, as a mounted
// JSON file). Out of scope, and not rendered: the substrate controller, node agent, router,
// DNS, key-value store, pod-certificate controller, snapshot storage, default SandboxConfig and
// admission policies, and the substrate CRDs. Install the substrate project itself for those.
// Its image is an assumption of ours (see SUBSTRATE_API_IMAGE), pinned to the sub-chart version.

import { renderDocs, type RenderedDoc } from '../engine.ts';
import { dnsTrunc, type Component, type RenderContext } from '../context.ts';
import {
  block,
  chartLabel,
  containerSecurityContext,
  conventionalFullname,
  deploymentAnnotations,
  enabled,
  get,
  imageRef,
  list,
  mainChartLabels,
  mainSource,
  map,
  MANAGED_BY,
  nodeSelector,
  podAnnotations,
  podSecurityContext,
  pullPolicy,
  pullSecrets,
  registry,
  reRegistry,
  str,
  subchartNamespace,
  subchartSource,
  tolerations,
  withTopLevelLabels,
  type Labels,
} from './common.ts';
import { isPlainMap } from '../../values/merge.ts';
import { roleNamespaces } from '../derive.ts';

const CHART = 'substrate';
/** Our pick for the substrate API server image: the platform registry, tagged with the sub-chart pin. */
export const SUBSTRATE_API_IMAGE = { registry: 'ghcr.io', repository: 'agentplat/substrate-api' } as const;
export const SUBSTRATE_API_GRPC_PORT = 8443;
export const SUBSTRATE_API_METRICS_PORT = 9090;
/** Where the credential-provider policies are mounted in the API server. */
export const CREDENTIAL_POLICIES_DIR = '/etc/substrate/credential-provider';
export const CREDENTIAL_POLICIES_FILE = 'namespace-policies.json';
/** Defaults of the substrate API server's identity (decisions.md). */
export const SUBSTRATE_API_SERVER_DEFAULTS = { namespace: 'substrate-system', serviceAccount: 'substrate-api-server' } as const;

export function substrateFullname(ctx: RenderContext): string {
  return conventionalFullname(ctx.release.name, CHART, block(ctx, CHART));
}

/** The worker image key of each revision: ateomImage (A), workerImage (B). */
export function workerImageKey(ctx: RenderContext): 'ateomImage' | 'workerImage' {
  return ctx.revision === 'A' ? 'ateomImage' : 'workerImage';
}

/** Namespaces whose Secrets/ConfigMaps the API server may read: role namespaces ∪ chart namespace, sorted. */
export function envSourceNamespaces(ctx: RenderContext): string[] {
  const set = new Set<string>([ctx.namespace, ...roleNamespaces(ctx)]);
  return [...set].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The API-server accounts the env-source bindings name: the configured one, and the bundled one when rendered. */
export function substrateApiSubjects(ctx: RenderContext): { kind: 'ServiceAccount'; name: string; namespace: string }[] {
  const server = map(get(ctx.values, 'controller.substrate.substrateApiServer'));
  const subjects = [
    {
      kind: 'ServiceAccount' as const,
      name: str(server.serviceAccount) || SUBSTRATE_API_SERVER_DEFAULTS.serviceAccount,
      namespace: str(server.namespace) || SUBSTRATE_API_SERVER_DEFAULTS.namespace,
    },
  ];
  if (enabled(ctx, CHART)) {
    const own = { kind: 'ServiceAccount' as const, name: dnsTrunc(`${substrateFullname(ctx)}-api-server`), namespace: subchartNamespace(ctx, block(ctx, CHART)) };
    if (own.name !== subjects[0]!.name || own.namespace !== subjects[0]!.namespace) subjects.push(own);
  }
  return subjects;
}

export class SubstrateRenderError extends Error {}

export const substrateIntegrationComponent: Component = {
  id: 'substrate-integration',
  render(ctx) {
    if (get(ctx.values, 'controller.substrate.enabled') !== true) return [];
    const docs: RenderedDoc[] = [];
    const pool = map(ctx.values.substrateWorkerPool);
    if (pool.create === true) {
      const key = workerImageKey(ctx);
      const image = str(pool[key]);
      // lint reports this first (values/substrate-worker-image); render never guesses an image.
      if (!image) throw new SubstrateRenderError(`substrateWorkerPool.${key} is required when substrateWorkerPool.create is true`);
      const name = str(pool.name);
      const sandboxClass = str(pool.sandboxClass) || 'gvisor';
      docs.push(
        ...renderDocs(mainSource('substrate-workerpool.yaml'), 'substrate/workerpool.yaml.hbs', {
          name,
          namespace: ctx.namespace,
          labels: mainChartLabels(ctx, { ...stringMap(pool.labels), 'agentplat.dev/worker-pool': name }),
          replicas: typeof pool.replicas === 'number' ? pool.replicas : 1,
          revisionA: ctx.revision === 'A',
          image: ctx.revision === 'B' ? reRegistry(image, str(get(ctx.values, 'global.imageRegistry'))) : image,
          sandboxClass,
          sandboxClasses: [{ name: sandboxClass }],
          template: map(pool.template),
        }),
      );
    }
    const subjects = substrateApiSubjects(ctx);
    const name = dnsTrunc(`${ctx.fullname}-substrate-api-env-sources`);
    for (const namespace of envSourceNamespaces(ctx)) {
      docs.push(
        ...renderDocs(mainSource('substrate-api-rbac.yaml'), 'substrate/env-sources-rbac.yaml.hbs', {
          name,
          namespace,
          labels: mainChartLabels(ctx),
          subjects,
        }),
      );
    }
    return docs;
  },
};

function stringMap(v: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (isPlainMap(v)) for (const [k, x] of Object.entries(v)) out[k] = str(x);
  return out;
}

export const substrateComponent: Component = {
  id: 'substrate',
  render(ctx) {
    if (!enabled(ctx, CHART)) return [];
    const b = block(ctx, CHART);
    const fullname = substrateFullname(ctx);
    const version = ctx.rev.subcharts[CHART] ?? '';
    const selector: Labels = {
      'app.kubernetes.io/name': str(b.nameOverride) || CHART,
      'app.kubernetes.io/instance': ctx.release.name,
      'app.kubernetes.io/component': 'api-server',
    };
    const labels = withTopLevelLabels(ctx, {
      'helm.sh/chart': chartLabel(CHART, version),
      ...selector,
      'app.kubernetes.io/version': version,
      'app.kubernetes.io/managed-by': MANAGED_BY,
    });
    // [B] keys; revision A has neither, so its API server runs with its own defaults.
    const extraArgs = list(get(b, 'ateApi.extraArgs')).map((a) => str(a, JSON.stringify(a)));
    const policies = ctx.revision === 'B' ? list(get(b, 'credentialProvider.namespacePolicies')) : undefined;
    const args = [...extraArgs];
    if (policies) args.push(`--credential-provider-policies=${CREDENTIAL_POLICIES_DIR}/${CREDENTIAL_POLICIES_FILE}`);
    const view = {
      apiServer: dnsTrunc(`${fullname}-api-server`),
      apiService: dnsTrunc(`${fullname}-api`),
      policiesName: dnsTrunc(`${fullname}-credential-provider`),
      namespace: subchartNamespace(ctx, b),
      labels,
      selector,
      hasPolicies: policies !== undefined,
      policiesData: { [CREDENTIAL_POLICIES_FILE]: `${JSON.stringify(policies ?? [], null, 2)}\n` },
      policiesDir: CREDENTIAL_POLICIES_DIR,
      args,
      grpcPort: SUBSTRATE_API_GRPC_PORT,
      metricsPort: SUBSTRATE_API_METRICS_PORT,
      image: imageRef(registry(ctx, SUBSTRATE_API_IMAGE.registry), SUBSTRATE_API_IMAGE.repository, `v${version}`),
      pullPolicy: pullPolicy(ctx),
      pullSecrets: pullSecrets(ctx),
      deploymentAnnotations: deploymentAnnotations(ctx),
      podAnnotations: podAnnotations(ctx),
      podSecurityContext: podSecurityContext(ctx),
      securityContext: containerSecurityContext(ctx),
      nodeSelector: nodeSelector(ctx),
      tolerations: tolerations(ctx),
    };
    const files: [string, string][] = [
      ['api-server/serviceaccount.yaml', 'substrate/api-serviceaccount.yaml.hbs'],
      ['api-server/configmap.yaml', 'substrate/api-configmap.yaml.hbs'],
      ['api-server/rbac.yaml', 'substrate/api-rbac.yaml.hbs'],
      ['api-server/service.yaml', 'substrate/api-service.yaml.hbs'],
      ['api-server/deployment.yaml', 'substrate/api-deployment.yaml.hbs'],
    ];
    return files.flatMap(([file, tpl]) => renderDocs(subchartSource(CHART, file), tpl, view));
  },
};
