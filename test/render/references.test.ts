// decisions.md "Cross-object references": every reference from one rendered object to another is
// computed from the release's fullname and namespace (namespaceOverride moves sub-chart objects
// too), so it resolves for any release name, namespace, nameOverride or fullnameOverride. This
// walks every reference kubectl would need to resolve after `render | kubectl apply`.
import { describe, expect, it } from 'vitest';
import type { RenderedDoc } from '../../src/render/engine.ts';
import type { Revision } from '../../src/spec/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { render } from './_render.ts';

/** References that point outside the release on purpose (the user or another install provides them). */
const EXTERNAL = {
  secrets: new Set(['oidc-credentials']),
  serviceAccounts: new Set(['substrate-system/substrate-api-server']),
  // the dashboards server the dashboards MCP talks to is not part of the release
  hosts: new Set(['dashboards']),
};

function dangling(docs: RenderedDoc[]): string[] {
  const objs = docs.map((d) => d.object as any);
  const has = (kind: string, ns: string | undefined, name: string) => objs.some((o) => o.kind === kind && o.metadata.name === name && o.metadata.namespace === ns);
  const services = objs.filter((o) => o.kind === 'Service');
  const out: string[] = [];
  const url = (where: string, u: string, ns: string) => {
    const m = /^(?:https?|postgres):\/\/(?:[^@/]*@)?([^/:]+)(?::(\d+))?/.exec(u);
    if (!m) return;
    const parts = m[1]!.split('.');
    if (parts.length > 3 || (parts.length === 3 && parts[2] !== 'svc')) return; // not an in-cluster short name
    const [name, svcNs = ns] = parts as [string, string?];
    if (EXTERNAL.hosts.has(name)) return;
    const svc = services.find((s) => s.metadata.name === name && s.metadata.namespace === svcNs);
    if (!svc) return void out.push(`${where}: ${u} names no Service ${svcNs}/${name}`);
    if (m[2] && !svc.spec.ports.some((p: any) => String(p.port) === m[2])) out.push(`${where}: ${u} names port ${m[2]} the Service does not have`);
  };
  for (const o of objs) {
    const ns = o.metadata.namespace;
    const where = `${o.kind} ${ns ?? ''}/${o.metadata.name}`;
    if (o.kind === 'RoleBinding' || o.kind === 'ClusterRoleBinding') {
      if (!has(o.roleRef.kind, o.roleRef.kind === 'Role' ? ns : undefined, o.roleRef.name)) out.push(`${where}: roleRef ${o.roleRef.kind}/${o.roleRef.name}`);
      for (const s of o.subjects ?? []) {
        if (s.kind === 'ServiceAccount' && !EXTERNAL.serviceAccounts.has(`${s.namespace}/${s.name}`) && !has('ServiceAccount', s.namespace, s.name)) out.push(`${where}: subject ${s.namespace}/${s.name}`);
      }
    }
    if (o.kind === 'Deployment') {
      const pod = o.spec.template.spec;
      const labels = o.spec.template.metadata.labels ?? {};
      if (Object.entries(o.spec.selector.matchLabels).some(([k, v]) => labels[k] !== v)) out.push(`${where}: selector does not select its pods`);
      if (pod.serviceAccountName && !has('ServiceAccount', ns, pod.serviceAccountName)) out.push(`${where}: serviceAccountName ${pod.serviceAccountName}`);
      for (const v of pod.volumes ?? []) {
        if (v.configMap && !has('ConfigMap', ns, v.configMap.name)) out.push(`${where}: volume ConfigMap ${v.configMap.name}`);
        if (v.persistentVolumeClaim && !has('PersistentVolumeClaim', ns, v.persistentVolumeClaim.claimName)) out.push(`${where}: volume claim ${v.persistentVolumeClaim.claimName}`);
      }
      for (const c of pod.containers) {
        for (const e of c.envFrom ?? []) {
          if (e.configMapRef && !has('ConfigMap', ns, e.configMapRef.name)) out.push(`${where}: envFrom ConfigMap ${e.configMapRef.name}`);
          if (e.secretRef && !has('Secret', ns, e.secretRef.name)) out.push(`${where}: envFrom Secret ${e.secretRef.name}`);
        }
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref && !ref.optional && !EXTERNAL.secrets.has(ref.name) && !has('Secret', ns, ref.name)) out.push(`${where}: env ${e.name} Secret ${ref.name}`);
          if (typeof e.value === 'string') url(`${where} env ${e.name}`, e.value, ns);
        }
      }
    }
    if (o.kind === 'Service' && !objs.some((d) => d.kind === 'Deployment' && d.metadata.namespace === ns && Object.entries(o.spec.selector ?? {}).every(([k, v]) => d.spec.template.metadata.labels?.[k] === v))) {
      out.push(`${where}: selector matches no pod`);
    }
    if (o.kind === 'ConfigMap') {
      for (const [key, text] of Object.entries<string>(o.data ?? {})) {
        if (/^https?:\/\//.test(text)) url(`${where} ${key}`, text, ns);
        for (const m of text.matchAll(/server ([a-z0-9.-]+\.svc:\d+);/g)) url(`${where} ${key} upstream`, `http://${m[1]}`, ns);
      }
    }
    if (o.kind === 'RemoteMCPServer') url(where, o.spec.url, ns);
    if (o.kind === 'Agent') {
      const d = o.spec.declarative;
      for (const s of d.promptTemplate?.dataSources ?? []) if (!has('ConfigMap', ns, s.name)) out.push(`${where}: prompts ConfigMap ${s.name}`);
      for (const mc of [d.modelConfig, d.memory?.modelConfig]) if (mc && !has('ModelConfig', ns, mc)) out.push(`${where}: ModelConfig ${mc}`);
      for (const t of d.tools ?? []) {
        if (t.mcpServer && !has(t.mcpServer.kind, ns, t.mcpServer.name)) out.push(`${where}: tool server ${t.mcpServer.name}`);
        if (t.agent && !has('Agent', ns, t.agent.name)) out.push(`${where}: agent ${t.agent.name}`);
      }
    }
  }
  return out;
}

const EVERYTHING = (rev: Revision): Values => ({
  authproxy: { enabled: true, config: { existingSecret: 'oidc-credentials' } },
  controller: { replicas: 2, metrics: { enabled: true }, pdb: { enabled: true }, substrate: { enabled: true } },
  substrate: { enabled: true },
  substrateWorkerPool: { create: true, [rev === 'A' ? 'ateomImage' : 'workerImage']: 'registry.example.com/worker:1' },
  ui: { pdb: { enabled: true }, service: { ports: { port: 9090, targetPort: 9091 } } },
});

const CASES: { name: string; revision: Revision; values: Values; release: string; namespace: string }[] = [];
for (const revision of ['A', 'B'] as const) {
  CASES.push(
    { name: 'defaults', revision, values: {}, release: 'agentplat', namespace: 'default' },
    { name: 'release prod in team-x, everything on', revision, values: EVERYTHING(revision), release: 'prod', namespace: 'team-x' },
    { name: 'fullnameOverride and namespaceOverride', revision, values: { ...EVERYTHING(revision), fullnameOverride: 'fx', namespaceOverride: 'ns2' }, release: 'prod', namespace: 'team-x' },
    { name: 'nameOverride, custom controller port', revision, values: { ...EVERYTHING(revision), nameOverride: 'np', controller: { ...(EVERYTHING(revision).controller as Values), service: { ports: { port: 9083, targetPort: 9083 } } } }, release: 'r1', namespace: 'ops' },
  );
}

describe('cross-object references resolve for any release (decisions.md)', () => {
  for (const c of CASES) {
    it(`revision ${c.revision}: ${c.name}`, () => {
      const docs = render(c.revision, c.values, { releaseName: c.release, releaseNamespace: c.namespace });
      expect(docs.length).toBeGreaterThan(20);
      expect(dangling(docs)).toEqual([]);
    });
  }

  it('the check is not vacuous: a renamed Service is reported by every object that references it', () => {
    const docs = render('A', {}, { releaseName: 'prod', releaseNamespace: 'team-x' });
    const svc = docs.find((d) => d.object.kind === 'Service' && d.object.metadata.name === 'prod-controller')!;
    (svc.object.metadata as any).name = 'renamed';
    const found = dangling(docs);
    expect(found.some((f) => f.startsWith('ConfigMap team-x/prod-controller A2A_BASE_URL'))).toBe(true);
    expect(found.some((f) => f.startsWith('Deployment team-x/prod-ui env BACKEND_INTERNAL_URL'))).toBe(true);
    expect(found.some((f) => f.startsWith('ConfigMap team-x/prod-ui-config edge.conf upstream'))).toBe(true);
  });
});
