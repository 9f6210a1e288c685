// Keys the specification leaves out on purpose (value-surface section 8: revision-only keys, the
// one controller port of revision B, `global` in revision A, ui.env's shape, a key the proxy chart
// removed): lint keeps refusing them, and the hint names what to write instead.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { parseValuesText } from '../../src/values/source.ts';
import { explainKey } from '../../src/explain/explain.ts';
import { AgentplatError } from '../../src/problems/errors.ts';
import type { Revision } from '../../src/chart/revisions.ts';

const CASES: { revision: Revision; values: string; path: string; rule?: string; hint: RegExp }[] = [
  // Revision A only in the specification, refused in B.
  { revision: 'B', values: 'controller:\n  a2aBaseUrl: https://a\n', path: 'controller.a2aBaseUrl', hint: /only in revision A: .*`controller\.a2aGatewayUrl`/ },
  { revision: 'B', values: 'database:\n  rdb:\n    sessionRetentionDays: 7\n', path: 'database.rdb.sessionRetentionDays', hint: /`controller\.sessionIdleTTL`/ },
  { revision: 'B', values: 'controller:\n  substrate:\n    substrateApiServer: {namespace: x}\n', path: 'controller.substrate.substrateApiServer', hint: /pod certificates/ },
  { revision: 'B', values: 'controller:\n  substrate:\n    defaultWorkerPool: {name: p}\n', path: 'controller.substrate.defaultWorkerPool', hint: /`substrateWorkerPool\.create`/ },
  { revision: 'B', values: 'controller:\n  substrate:\n    pauseImage: p\n', path: 'controller.substrate.pauseImage', hint: /only in revision A: .*pause image/ },
  { revision: 'B', values: 'ui:\n  backendInternalUrl: http://x\n', path: 'ui.backendInternalUrl', hint: /through its Service/ },
  { revision: 'B', values: 'ui:\n  volumes:\n    nextjsCache: 1Gi\n', path: 'ui.volumes.nextjsCache', hint: /`ui\.volumes\.tmp`/ },
  { revision: 'B', values: 'otel:\n  tracing:\n    enabled: true\n', path: 'otel.tracing', hint: /`otel\.traces\.enabled`/ },
  { revision: 'B', values: 'otel:\n  logging:\n    enabled: true\n', path: 'otel.logging', hint: /`otel\.logs\.enabled`/ },
  { revision: 'B', values: 'substrateWorkerPool:\n  ateomImage: w\n', path: 'substrateWorkerPool.ateomImage', hint: /`substrateWorkerPool\.workerImage`/ },
  // Revision B: one controller port.
  { revision: 'B', values: 'controller:\n  service:\n    ports:\n      grpc: 9000\n', path: 'controller.service.ports.grpc', hint: /`controller\.service\.ports\.port`.*no second gRPC port/ },
  { revision: 'B', values: 'controller:\n  grpc:\n    bindAddress: ":9000"\n', path: 'controller.grpc.bindAddress', hint: /`controller\.service\.ports\.targetPort`/ },
  { revision: 'B', values: 'controller:\n  grpc:\n    maxMessageBytes: 1\n', path: 'controller.grpc.maxMessageBytes', hint: /only `reflection`/ },
  { revision: 'B', values: 'controller:\n  grpc:\n    tlsCertFile: /c\n', path: 'controller.grpc.tlsCertFile', hint: /terminate TLS in front of the controller Service/ },
  { revision: 'B', values: 'controller:\n  grpc:\n    tlsKeyFile: /k\n', path: 'controller.grpc.tlsKeyFile', hint: /terminate TLS in front of the controller Service/ },
  { revision: 'B', values: 'ui:\n  backendGrpcUrl: x\n', path: 'ui.backendGrpcUrl', hint: /controller service port/ },
  // Revision A: `global` is B's.
  { revision: 'A', values: 'global:\n  imagePullSecrets: [x]\n', path: 'global', hint: /only in revision B: list them in the top-level `imagePullSecrets`/ },
  { revision: 'A', values: 'global:\n  imageRegistry: mirror\n', path: 'global', hint: /only in revision B: set the top-level `registry`/ },
  { revision: 'A', values: 'global:\n  tag: "1.0"\n', path: 'global', hint: /set the top-level `tag`/ },
  { revision: 'A', values: 'global:\n  tag: "1.0"\n  imageRegistry: m\n', path: 'global', hint: /`registry` instead; set the top-level `tag`/ },
  // ui.env in the other revision's shape.
  { revision: 'A', values: 'ui:\n  env:\n    - {name: A, value: b}\n', path: 'ui.env', rule: 'values/schema', hint: /revision A takes `ui\.env` as a map/ },
  { revision: 'B', values: 'ui:\n  env:\n    A: b\n', path: 'ui.env', rule: 'values/schema', hint: /revision B takes `ui\.env` as a list/ },
  // Removed in the proxy chart itself.
];

describe('a key refused on purpose names its replacement', () => {
  for (const c of CASES) {
    it(`${c.revision}: ${c.values.replace(/\n/g, ' ').trim()}`, () => {
      const errors = lintValues({ revision: c.revision, layers: [parseValuesText(c.values, 'v.yaml').source!] }).problems.filter((p) => p.severity === 'error');
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatchObject({ rule: c.rule ?? 'values/unknown-key', path: c.path });
      expect(errors[0]!.hint).toMatch(c.hint);
    });
  }

  it('a key of the other revision without a table entry keeps the plain hint', () => {
    const [e] = lintValues({ revision: 'B', layers: [parseValuesText('controller:\n  toolRefreshInterval: 30s\n', 'v.yaml').source!] }).problems;
    expect(e!.hint).toBe('`controller.toolRefreshInterval` exists only in revision A; remove it, or lint with --revision A');
  });

  it('explain says the same for a key no revision has', async () => {
    let err: unknown;
    try {
      await explainKey('controller.service.ports.grpc', ['B']);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(AgentplatError);
    expect((err as AgentplatError).hint).toMatch(/no second gRPC port/);
  });
});
