// Every object the sub-charts render validates against its Kubernetes schema with unknown fields
// rejected; Agents and RemoteMCPServers against our CRDs (CEL rules included).
import { describe, expect, it } from 'vitest';
import { expectValidK8sObjects, registerCrdSchemas, hasK8sSchema } from '../helpers/k8s-schema.ts';
import { chartCrdDocs } from '../../src/crds/index.ts';
import { validateCustomResources } from '../../src/kube-check/validate.ts';
import { AUTHPROXY_INLINE, render } from './helpers.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { stringify } from 'yaml';

registerCrdSchemas(chartCrdDocs().map((d) => d.object));

const everythingOn = (rev: Revision): Values => ({
  authproxy: AUTHPROXY_INLINE,
  substrate: { enabled: true },
  controller: { substrate: { enabled: true } },
  substrateWorkerPool: { create: true, [rev === 'A' ? 'ateomImage' : 'workerImage']: 'registry.example.com/substrate/worker:v0.0.9', template: { nodeSelector: { pool: 'sandbox' } } },
  'dashboards-mcp': { grafana: { serviceAccountToken: 'test-token' } },
  ...(rev === 'A' ? { 'observability-agent': { memory: { enabled: true } } } : {}),
});

describe('rendered sub-chart objects validate against their schemas', () => {
  for (const rev of ['A', 'B'] as const) {
    it(`revision ${rev}: every object, every sub-chart on, is a valid Kubernetes object (unknown fields rejected)`, () => {
      const docs = render(rev, everythingOn(rev));
      for (const d of docs) expect(hasK8sSchema(d.object.apiVersion, d.object.kind), `${d.object.kind} has a schema`).toBe(true);
      expectValidK8sObjects(docs.map((d) => d.object));
    });

    it(`revision ${rev}: every Agent and RemoteMCPServer passes the platform's CRD validation, CEL rules included`, () => {
      const docs = render(rev, everythingOn(rev)).filter((d) => d.object.apiVersion.startsWith('agentplat.dev/'));
      expect(docs.length).toBeGreaterThan(0);
      const result = validateCustomResources(docs.map((d, i) => ({ file: `${d.source}#${i}`, text: stringify(d.object) })));
      expect(result.checked).toBe(docs.length);
      expect(result.problems.filter((p) => p.severity === 'error')).toEqual([]);
    });
  }
});
