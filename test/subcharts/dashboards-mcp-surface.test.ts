// dashboards-mcp-surface: every key of the dashboards MCP chart takes effect on exactly the objects
// and fields that chart puts it in. Facts: the docs/values.md section "dashboards-mcp" (taken from the
// reference measurements of the real chart).
import { describe, expect } from 'vitest';
import { obj, surfaceCases, type SurfaceCase } from './surface.ts';

const NAME = 'agentplat-dashboards-mcp';
const DEP = `Deployment/${NAME}`;
const POD = `${DEP}:spec.template.spec`;
const C = `${POD}.containers[0]`;
const CHECKSUM_SECRET = `${DEP}:spec.template.metadata.annotations.checksum/secret`;
const CHECKSUM_CONFIG = `${DEP}:spec.template.metadata.annotations.checksum/configmap`;
const g = (v: Record<string, unknown>) => ({ 'dashboards-mcp': v });
const container = (docs: Parameters<typeof obj>[0]) => obj(docs, 'Deployment', NAME).spec.template.spec.containers[0];
const b64 = (s: string) => Buffer.from(s).toString('base64');

const CASES: SurfaceCase[] = [
  { key: 'image.registry', set: g({ image: { registry: 'mirror.example.com' } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('mirror.example.com/grafana/mcp-grafana:1.3.0') },
  { key: 'image.repository', set: g({ image: { repository: 'mcp/grafana' } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('docker.io/mcp/grafana:1.3.0') },
  { key: 'image.name', set: g({ image: { registry: 'mirror.example.com', repository: 'mcp', name: 'grafana' } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('mirror.example.com/mcp/grafana:1.3.0') },
  { key: 'image.tag', set: g({ image: { tag: '1.4.0' } }), changes: [`${C}.image`], check: (d) => expect(container(d).image).toBe('docker.io/grafana/mcp-grafana:1.4.0') },
  { key: 'image.pullPolicy', set: g({ image: { pullPolicy: 'Always' } }), changes: [`${C}.imagePullPolicy`] },
  {
    key: 'grafana.secretRef',
    set: g({ grafana: { secretRef: 'dashboards-credentials' } }),
    changes: [`-Secret/${NAME}`, `${C}.envFrom[1].secretRef.name`],
    check: (d) => expect(container(d).envFrom[1]).toEqual({ secretRef: { name: 'dashboards-credentials' } }),
  },
  {
    key: 'grafana.apiKey',
    set: g({ grafana: { apiKey: 'test-api-key' } }),
    changes: [`Secret/${NAME}:data`, CHECKSUM_SECRET],
    check: (d) => expect(obj(d, 'Secret', NAME).data).toEqual({ GRAFANA_API_KEY: b64('test-api-key') }),
  },
  {
    key: 'grafana.apiKey next to serviceAccountToken (the token wins)',
    base: g({ grafana: { serviceAccountToken: 'test-token' } }),
    set: g({ grafana: { apiKey: 'test-api-key' } }),
    changes: [],
  },
  {
    key: 'config',
    set: g({ config: { GRAFANA_ORG_ID: 2, GRAFANA_EXTRA_HEADERS: '{"X-Scope":"team"}' } }),
    changes: [`ConfigMap/${NAME}:data.GRAFANA_ORG_ID`, `ConfigMap/${NAME}:data.GRAFANA_EXTRA_HEADERS`, CHECKSUM_CONFIG],
    check: (d) => expect(obj(d, 'ConfigMap', NAME).data.GRAFANA_ORG_ID).toBe('2'),
  },
  { key: 'args', set: g({ args: ['--disable-oncall'] }), changes: [`${C}.args[2]`], check: (d) => expect(container(d).args).toEqual(['--transport', 'streamable-http', '--disable-oncall']) },
  {
    key: 'volumes, volumeMounts',
    set: g({ volumes: [{ name: 'ca', configMap: { name: 'corporate-ca' } }], volumeMounts: [{ name: 'ca', mountPath: '/etc/ssl/custom', readOnly: true }] }),
    changes: [`${POD}.volumes`, `${C}.volumeMounts`],
  },
  { key: 'replicas', set: g({ replicas: 2 }), changes: [`${DEP}:spec.replicas`] },
  { key: 'service.type', set: g({ service: { type: 'NodePort' } }), changes: [`Service/${NAME}:spec.type`] },
  {
    key: 'service.port',
    set: g({ service: { port: 8080 } }),
    changes: [`Service/${NAME}:spec.ports[0].port`, `${C}.ports[0].containerPort`, `RemoteMCPServer/${NAME}:spec.url`],
    check: (d) => expect(obj(d, 'RemoteMCPServer', NAME).spec.url).toBe('http://agentplat-dashboards-mcp.agentplat:8080/mcp'),
  },
  {
    key: 'serviceAccount.create',
    set: g({ serviceAccount: { create: false } }),
    changes: [`-ServiceAccount/${NAME}`, `${POD}.serviceAccountName`],
    check: (d) => expect(obj(d, 'Deployment', NAME).spec.template.spec.serviceAccountName).toBe('default'),
  },
  { key: 'serviceAccount.name', set: g({ serviceAccount: { name: 'dashboards-reader' } }), changes: [`-ServiceAccount/${NAME}`, '+ServiceAccount/dashboards-reader', `${POD}.serviceAccountName`] },
  { key: 'serviceAccount.annotations', set: g({ serviceAccount: { annotations: { 'iam.gke.io/gcp-service-account': 'dash@p.iam.gserviceaccount.com' } } }), changes: [`ServiceAccount/${NAME}:metadata.annotations`] },
  { key: 'podSecurityContext', set: g({ podSecurityContext: { runAsNonRoot: true, fsGroup: 999, seccompProfile: { type: 'RuntimeDefault' } } }), changes: [`${POD}.securityContext.fsGroup`] },
  {
    key: 'securityContext (coalesced over the top-level one and the image\'s user and group: a partial map keeps the rest)',
    set: g({ securityContext: { runAsUser: 2000 } }),
    changes: [`${C}.securityContext.runAsUser`],
  },
  { key: 'nodeSelector', set: g({ nodeSelector: { pool: 'tools' } }), changes: [`${POD}.nodeSelector`] },
  { key: 'tolerations', set: g({ tolerations: [{ key: 'dedicated', operator: 'Exists', effect: 'NoSchedule' }] }), changes: [`${POD}.tolerations`] },
];

describe('dashboards-mcp-surface: each key of the dashboards MCP chart changes exactly its objects and fields', () => {
  surfaceCases(CASES, ['A', 'B']);
});
