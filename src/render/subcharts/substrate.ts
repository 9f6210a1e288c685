// The substrate sub-chart (`substrate.*`, gated by substrate.enabled, off by default): a
// deliberately small stand-in that renders only the substrate API server, because that is what
// the spec's keys configure: [B] `substrate.ateApi.extraArgs` are its extra args and [B]
// `substrate.credentialProvider.namespacePolicies` is the policy list it is given, as a mounted
// JSON file. Out of scope, and not rendered: the substrate controller, node agent, router, DNS,
// key-value store, pod-certificate controller, snapshot storage, default SandboxConfig and
// admission policies, and the substrate CRDs; install the substrate project itself for those.
// Its image is an assumption of ours (SUBSTRATE_API_IMAGE), pinned to the sub-chart version.
// The main chart's substrate objects (env-source RBAC, the optional WorkerPool) follow
// controller.substrate.enabled and live in src/render/components/substrate.ts.

import { dnsTrunc, type Component } from '../../model/context.ts';
import { asList, asStr, at } from '../../model/values-access.ts';
import { substrateApiServerAccount, substrateFullname } from './names.ts';
import { podView, subchartComponent, subchartDocs, subchartLabels } from './workload.ts';
import { jsonText } from '../../values/big-integers.ts';

const CHART = 'substrate';
/** Our pick for the substrate API server image: the platform registry, tagged with the sub-chart pin. */
export const SUBSTRATE_API_IMAGE = { registry: 'ghcr.io', repository: 'agentplat/substrate-api' } as const;
export const SUBSTRATE_API_GRPC_PORT = 8443;
export const SUBSTRATE_API_METRICS_PORT = 9090;
/** Where the credential-provider policies are mounted in the API server. */
export const CREDENTIAL_POLICIES_DIR = '/etc/substrate/credential-provider';
export const CREDENTIAL_POLICIES_FILE = 'namespace-policies.json';

export { substrateFullname };

export const substrateComponent: Component = subchartComponent(CHART, (ctx, b, version) => {
  const fullname = substrateFullname(ctx);
  const { selector, labels } = subchartLabels(ctx, {
    name: asStr(b.nameOverride) || CHART,
    selectorExtra: { 'app.kubernetes.io/component': 'api-server' },
    chart: CHART,
    chartVersion: version,
  });
  // [B] keys; revision A has neither, so its API server runs with its own defaults.
  const extraArgs = asList(at(b, 'ateApi.extraArgs')).map((a) => asStr(a, jsonText(a) as string));
  const policies = ctx.model.substrate.credentialPolicies;
  const args = [...extraArgs];
  if (policies) args.push(`--credential-provider-policies=${CREDENTIAL_POLICIES_DIR}/${CREDENTIAL_POLICIES_FILE}`);
  const view = {
    apiServer: substrateApiServerAccount(ctx).name,
    apiService: dnsTrunc(`${fullname}-api`),
    policiesName: dnsTrunc(`${fullname}-credential-provider`),
    namespace: substrateApiServerAccount(ctx).namespace,
    labels,
    selector,
    hasPolicies: policies !== undefined,
    policiesData: { [CREDENTIAL_POLICIES_FILE]: `${jsonText(policies ?? [], 2)}\n` },
    policiesDir: CREDENTIAL_POLICIES_DIR,
    args,
    grpcPort: SUBSTRATE_API_GRPC_PORT,
    metricsPort: SUBSTRATE_API_METRICS_PORT,
    ...podView(ctx, { image: { ...SUBSTRATE_API_IMAGE, tag: `v${version}` } }),
  };
  const files: [string, string][] = [
    ['api-server/serviceaccount.yaml', 'substrate/api-serviceaccount.yaml.hbs'],
    // The policies file exists only where the revision has the policy list ([B]).
    ...(policies !== undefined ? [['api-server/configmap.yaml', 'substrate/api-configmap.yaml.hbs'] as [string, string]] : []),
    ['api-server/rbac.yaml', 'substrate/api-rbac.yaml.hbs'],
    ['api-server/service.yaml', 'substrate/api-service.yaml.hbs'],
    ['api-server/deployment.yaml', 'substrate/api-deployment.yaml.hbs'],
  ];
  return subchartDocs(CHART, files, view);
});
