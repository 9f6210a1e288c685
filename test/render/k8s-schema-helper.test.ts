// The schema helper itself: it must catch misspelled fields at any depth, leave maps and
// free-form objects open, and know every kind the chart renders.
import { describe, expect, it } from 'vitest';
import { expectValidK8sObjects, hasK8sSchema, k8sSchemaIssues } from '../helpers/k8s-schema.ts';

const deployment = () => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'x', namespace: 'ns', labels: { 'any/label': 'v' }, annotations: { a: 'b' } },
  spec: {
    selector: { matchLabels: { app: 'x' } },
    template: {
      metadata: { labels: { app: 'x' } },
      spec: {
        containers: [{ name: 'c', image: 'i', imagePullPolicy: 'IfNotPresent', ports: [{ name: 'http', containerPort: 80 }], resources: { limits: { cpu: 2, memory: '1Gi' } } }],
        nodeSelector: { 'kubernetes.io/os': 'linux' },
      },
    },
  },
});

describe('k8s schema helper', () => {
  it('accepts a valid Deployment (maps such as labels, nodeSelector and resources stay open)', () => {
    expect(k8sSchemaIssues(deployment())).toEqual([]);
  });

  it('rejects a misspelled field deep in a pod template', () => {
    const d = deployment() as any;
    d.spec.template.spec.containers[0].imagePullPolicyy = 'Always';
    expect(k8sSchemaIssues(d)).toEqual([{ path: '/spec/template/spec/containers/0/imagePullPolicyy', message: 'unknown field "imagePullPolicyy"' }]);
  });

  it('rejects a misspelled field at the top, in metadata and in a port', () => {
    const d = deployment() as any;
    d.specs = {};
    d.metadata.label = {};
    d.spec.template.spec.containers[0].ports[0].port = 80;
    const paths = k8sSchemaIssues(d).map((i) => i.path).sort();
    expect(paths).toEqual(['/metadata/label', '/spec/template/spec/containers/0/ports/0/port', '/specs']);
  });

  it('rejects a wrong type and a missing required field', () => {
    const d = deployment() as any;
    d.spec.replicas = 'two';
    delete d.spec.template.spec.containers[0].name;
    expect(k8sSchemaIssues(d).length).toBeGreaterThanOrEqual(2);
  });

  it('expectValidK8sObjects throws naming the object and the path', () => {
    const d = deployment() as any;
    d.spec.strategyy = {};
    expect(() => expectValidK8sObjects([d])).toThrow(/Deployment\/x: \/spec\/strategyy: unknown field/);
  });

  it('knows every kind the chart renders, and checks HTTPRoute, ServiceMonitor and Route strictly', () => {
    for (const [v, k] of [
      ['v1', 'ConfigMap'], ['v1', 'Secret'], ['v1', 'Service'], ['v1', 'ServiceAccount'], ['v1', 'PersistentVolumeClaim'],
      ['apps/v1', 'Deployment'], ['policy/v1', 'PodDisruptionBudget'], ['rbac.authorization.k8s.io/v1', 'ClusterRole'],
      ['rbac.authorization.k8s.io/v1', 'ClusterRoleBinding'], ['rbac.authorization.k8s.io/v1', 'Role'], ['rbac.authorization.k8s.io/v1', 'RoleBinding'],
      ['gateway.networking.k8s.io/v1', 'HTTPRoute'], ['monitoring.coreos.com/v1', 'ServiceMonitor'], ['route.openshift.io/v1', 'Route'],
      ['apiextensions.k8s.io/v1', 'CustomResourceDefinition'],
    ]) expect(hasK8sSchema(v!, k!), `${v} ${k}`).toBe(true);
    const hr = { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'HTTPRoute', metadata: { name: 'r' }, spec: { parentRefs: [{ name: 'gw' }], rules: [{ backendRef: [] }] } };
    expect(k8sSchemaIssues(hr).map((i) => i.path)).toEqual(['/spec/rules/0/backendRef']);
    const sm = { apiVersion: 'monitoring.coreos.com/v1', kind: 'ServiceMonitor', metadata: { name: 's' }, spec: { selector: {}, endpoints: [{ port: 'https', sheme: 'https' }] } };
    expect(k8sSchemaIssues(sm).map((i) => i.path)).toEqual(['/spec/endpoints/0/sheme']);
    const route = { apiVersion: 'route.openshift.io/v1', kind: 'Route', metadata: { name: 'r' }, spec: { to: { kind: 'Service', name: 'ui' }, tls: { termination: 'edge', insecureEdgeTerminationPolicy: 'Redirect' } } };
    expect(k8sSchemaIssues(route)).toEqual([]);
    (route.spec.tls as any).terminaton = 'edge';
    expect(k8sSchemaIssues(route).some((i) => i.message.includes('additional'))).toBe(true);
  });

  it('reports a kind without a schema instead of passing it', () => {
    expect(k8sSchemaIssues({ apiVersion: 'example.com/v1', kind: 'Thing', metadata: { name: 't' } })[0]!.message).toMatch(/no schema known/);
  });
});
