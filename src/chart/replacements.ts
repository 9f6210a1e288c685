// Keys a revision refuses on purpose although the other revision or the reference chart has them
// (the specification differs deliberately: revision-only keys, the one controller port of
// revision B, `global` in revision A, the shape of ui.env). Lint's refusal names what to write
// instead; `explain` says the same. Paths are dotted values paths; an entry covers its key and
// everything under it.

import type { Revision } from './revisions.ts';

export interface Replacement {
  /** The revision that refuses the key. */
  refusedIn: Revision;
  path: string;
  /** What to write instead (or why nothing replaces it). */
  hint: string;
  /** `shape`: the key exists in both revisions, written as a list in one and a map in the other. */
  shape?: true;
}

export const REPLACEMENTS: readonly Replacement[] = [
  // Revision A only in the specification.
  { refusedIn: 'B', path: 'controller.a2aBaseUrl', hint: 'revision B advertises `controller.a2aGatewayUrl` instead' },
  { refusedIn: 'B', path: 'database.rdb.sessionRetentionDays', hint: 'revision B has no session retention cleanup; idle sessions expire after `controller.sessionIdleTTL`' },
  { refusedIn: 'B', path: 'controller.substrate.substrateApiServer', hint: "revision B's controller authenticates to the substrate API with pod certificates; nothing to set" },
  {
    refusedIn: 'B',
    path: 'controller.substrate.defaultWorkerPool',
    hint: 'revision B has no default worker pool reference; name the pool in your harnesses, or let the chart create one with `substrateWorkerPool.create` and `substrateWorkerPool.name`',
  },
  { refusedIn: 'B', path: 'ui.backendInternalUrl', hint: "revision B's UI proxy reaches the controller through its Service; set `ui.basePath` or `ui.publicBackendUrl` for the browser's side" },
  { refusedIn: 'B', path: 'ui.volumes.nextjsCache', hint: "revision B's UI has no build cache volume; `ui.volumes.tmp` sizes its scratch volume" },
  { refusedIn: 'B', path: 'otel.tracing', hint: 'revision B groups telemetry by signal: `otel.traces.enabled`, with `otel.exporter.otlp.endpoint` (or `otel.traces.endpoint`)' },
  { refusedIn: 'B', path: 'otel.logging', hint: 'revision B groups telemetry by signal: `otel.logs.enabled`, with `otel.exporter.otlp.endpoint` (or `otel.logs.endpoint`)' },
  { refusedIn: 'B', path: 'controller.substrate.pauseImage', hint: 'revision B has no pause image setting; the substrate uses its own pause image' },
  { refusedIn: 'B', path: 'substrateWorkerPool.ateomImage', hint: 'revision B calls it `substrateWorkerPool.workerImage`' },
  // Revision B: one controller port (decisions.md), the reference's gRPC settings have no place.
  {
    refusedIn: 'B',
    path: 'controller.service.ports.grpc',
    hint: 'native gRPC, gRPC-Web and MCP share the controller service port in revision B: set `controller.service.ports.port` (and `targetPort`); there is no second gRPC port',
  },
  { refusedIn: 'B', path: 'controller.grpc.bindAddress', hint: 'gRPC listens on the controller port in revision B: set `controller.service.ports.targetPort`' },
  { refusedIn: 'B', path: 'controller.grpc.maxMessageBytes', hint: 'revision B sets no gRPC message limit; `controller.grpc` takes only `reflection`' },
  { refusedIn: 'B', path: 'controller.grpc.tlsCertFile', hint: 'gRPC shares the plain-HTTP controller port in revision B; terminate TLS in front of the controller Service' },
  { refusedIn: 'B', path: 'controller.grpc.tlsKeyFile', hint: 'gRPC shares the plain-HTTP controller port in revision B; terminate TLS in front of the controller Service' },
  { refusedIn: 'B', path: 'ui.backendGrpcUrl', hint: 'the UI reaches gRPC on the controller service port in revision B (`controller.service.ports.port`); nothing to set' },
  // `global` is revision B's (the hint follows "`global` exists only in revision B:"); its
  // settings are top-level keys in revision A.
  { refusedIn: 'A', path: 'global.imagePullSecrets', hint: 'list them in the top-level `imagePullSecrets` instead' },
  { refusedIn: 'A', path: 'global.imageRegistry', hint: 'set the top-level `registry` instead' },
  { refusedIn: 'A', path: 'global.imagePullPolicy', hint: 'set the top-level `imagePullPolicy` instead' },
  { refusedIn: 'A', path: 'global.watchNamespaces', hint: 'set `controller.watchNamespaces` and `rbac.namespaces` instead' },
  { refusedIn: 'A', path: 'global.tag', hint: 'set the top-level `tag` instead' },
  // Written as the other revision writes it.
  { refusedIn: 'A', path: 'ui.env', shape: true, hint: 'revision A takes `ui.env` as a map of NAME: value; a list of {name, value} entries is the shape of revision B' },
  { refusedIn: 'B', path: 'ui.env', shape: true, hint: 'revision B takes `ui.env` as a list of {name, value} entries (valueFrom allowed); a map is the shape of revision A, which `agentplat migrate` converts' },
  // The proxy chart's own redis sub-chart drives these; agentplat does not ship it.
  ...(['A', 'B'] as const).flatMap((refusedIn): Replacement[] => [
    {
      refusedIn,
      path: 'authproxy.initContainers',
      hint: "the wait-for-redis init container belongs to the proxy chart's own redis sub-chart, which agentplat does not ship; point the proxy at an external redis with authproxy.sessionStorage.type: redis and authproxy.sessionStorage.redis.*",
    },
    {
      refusedIn,
      path: 'authproxy.redis-ha',
      hint: "the proxy chart's bundled redis sub-chart is not shipped by agentplat; run redis yourself and set authproxy.sessionStorage.type: redis with authproxy.sessionStorage.redis.standalone.connectionUrl (or .cluster / .sentinel)",
    },
  ]),
];

const isMapValue = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * What replaces the key at `path` that `revision` refuses, given the value the user wrote there:
 * the entry of the key itself or of a key above it, else the entries of the keys below it that the
 * value sets (`global: {tag: x}` in revision A). Undefined when the table has nothing to say.
 */
export function replacementHint(revision: Revision, path: string, value: unknown, shape = false): string | undefined {
  const entries = REPLACEMENTS.filter((r) => r.refusedIn === revision && Boolean(r.shape) === shape);
  if (shape) return Array.isArray(value) || isMapValue(value) ? entries.find((r) => path === r.path)?.hint : undefined;
  const own = entries.find((r) => path === r.path || path.startsWith(`${r.path}.`));
  if (own) return own.hint;
  const below = entries.filter((r) => r.path.startsWith(`${path}.`) && isSet(value, r.path.slice(path.length + 1).split('.')));
  return below.length > 0 ? [...new Set(below.map((r) => r.hint))].join('; ') : undefined;
}

function isSet(value: unknown, rest: readonly string[]): boolean {
  let cur = value;
  for (const seg of rest) {
    if (!isMapValue(cur) || !Object.hasOwn(cur, seg)) return false;
    cur = cur[seg];
  }
  return true;
}
