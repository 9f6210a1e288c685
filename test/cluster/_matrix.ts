// The configurations whose rendered output the cluster suite sends to the API server: every golden
// render fixture (defaults, metrics, PDBs, external database, namespaced RBAC, routes, ipv6, air-gap
// registry and pull secrets, extra objects) plus configurations that switch every sub-chart off and
// every optional part on, in both revisions.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';

export interface Config {
  name: string;
  revision: 'A' | 'B';
  namespace: string;
  apiVersions: string[];
  /** A values file's text. */
  values: string;
  /** Kinds the configuration is there to exercise: the check fails if one is missing. */
  expectKinds: string[];
}

const ROOT = join(import.meta.dirname, '..', '..', 'fixtures', 'render');

function goldens(): Config[] {
  return readdirSync(ROOT)
    .filter((d) => existsSync(join(ROOT, d, 'args.json')))
    .sort()
    .map((d) => {
      const args = JSON.parse(readFileSync(join(ROOT, d, 'args.json'), 'utf8')) as { revision: 'A' | 'B'; namespace?: string; apiVersions?: string[] };
      return { name: `golden ${d}`, revision: args.revision, namespace: args.namespace ?? 'default', apiVersions: args.apiVersions ?? [], values: readFileSync(join(ROOT, d, 'values.yaml'), 'utf8'), expectKinds: [] };
    });
}

const BUNDLED_AGENTS_A = ['rollouts-agent', 'network-debug-agent', 'network-manager-agent', 'network-policy-agent', 'package-manager-agent', 'service-mesh-agent', 'cluster-agent', 'gateway-agent', 'observability-agent', 'query-language-agent'];

const authproxy = { enabled: true, config: { clientID: 'agentplat', clientSecret: 'client-secret-value', cookieSecret: '0123456789abcdef0123456789abcdef' } };

function allOff(revision: 'A' | 'B'): Config {
  const v: Record<string, unknown> = { 'agentplat-tools': { enabled: false }, mcpop: { enabled: false }, 'dashboards-mcp': { enabled: false }, substrate: { enabled: false } };
  if (revision === 'A') for (const a of BUNDLED_AGENTS_A) v[a] = { enabled: false };
  return { name: `every sub-chart off (${revision})`, revision, namespace: 'default', apiVersions: [], values: stringify(v), expectKinds: ['Deployment'] };
}

function allOn(revision: 'A' | 'B'): Config {
  const pool = revision === 'A' ? { create: true, ateomImage: 'ghcr.io/example/ateom:1.0' } : { create: true, workerImage: 'ghcr.io/example/worker:1.0' };
  const v: Record<string, unknown> = {
    controller: {
      replicas: 2,
      metrics: { enabled: true, ...(revision === 'B' ? { serviceMonitor: { enabled: true, scraperServiceAccount: { name: 'prometheus-k8s' } } } : {}) },
      pdb: { enabled: true, unhealthyPodEvictionPolicy: 'AlwaysAllow' },
      substrate: { enabled: true },
    },
    ui: { pdb: { enabled: true } },
    substrate: { enabled: true },
    substrateWorkerPool: pool,
    authproxy,
    providers: { providerB: { apiKey: 'sk-test' } },
  };
  const kinds = ['WorkerPool', 'PodDisruptionBudget', ...(revision === 'A' ? ['Agent'] : ['ServiceMonitor'])];
  return { name: `every sub-chart and optional part on (${revision})`, revision, namespace: 'agentplat', apiVersions: ['monitoring.coreos.com/v1', 'route.openshift.io/v1'], values: stringify(v), expectKinds: kinds };
}

const extra: Config[] = [
  allOff('A'),
  allOff('B'),
  allOn('A'),
  allOn('B'),
  { name: 'authproxy (A)', revision: 'A', namespace: 'default', apiVersions: [], values: stringify({ authproxy }), expectKinds: [] },
  { name: 'ipv6 (B)', revision: 'B', namespace: 'default', apiVersions: [], values: stringify({ ipv6: true }), expectKinds: [] },
  {
    name: 'substrate with a worker pool (B)',
    revision: 'B',
    namespace: 'default',
    apiVersions: [],
    values: stringify({ controller: { substrate: { enabled: true } }, substrate: { enabled: true }, substrateWorkerPool: { create: true, replicas: 3, workerImage: 'ghcr.io/example/worker:1.0', labels: { pool: 'main' } } }),
    expectKinds: ['WorkerPool'],
  },
  {
    name: 'bundled agents with their own model and memory (A)',
    revision: 'A',
    namespace: 'agents',
    apiVersions: [],
    values: stringify(Object.fromEntries(BUNDLED_AGENTS_A.map((a, i) => [a, i % 2 === 0 ? { modelConfigRef: 'fast-model', memory: { enabled: true, ttlDays: 30 } } : { enabled: i % 3 !== 0 }]))),
    expectKinds: ['Agent', 'ModelConfig'],
  },
];

export const MATRIX: Config[] = [...goldens(), ...extra];
