// Go validation rules of core objects where validate and kube-apiserver 1.34.4/1.37.2 disagreed
// on the cluster suite's corpus (test/cluster/validate-agreement.test.ts, "core:" categories): each
// case is one the server refused, at the field named here, and validate let through or placed
// elsewhere before.
import { describe, expect, it } from 'vitest';
import { validateYaml } from './helpers.ts';

const deployment = (selector: string, labels = 'app: web'): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
${selector}
  template:
    metadata:
      labels:
        ${labels}
    spec:
      containers:
        - name: web
          image: nginx:1.27
`;

const rules = (r: { problems: { rule: string; path: string }[] }) => r.problems.map((p) => [p.rule, p.path]);

describe('label selectors of workloads and PodDisruptionBudgets, as the API server checks them', () => {
  it('a selector that does not select the template is reported at the template labels, where the server reports it', async () => {
    expect(rules(await validateYaml(deployment('    matchLabels: {app: web}', 'app: api')))).toEqual([['crd/selector-mismatch', 'spec.template.metadata.labels']]);
  });

  it('an operator outside In, NotIn, Exists and DoesNotExist is refused at the operator', async () => {
    expect(rules(await validateYaml(deployment('    matchExpressions: [{key: app, operator: Bogus, values: [web]}]')))).toEqual([['crd/selector-mismatch', 'spec.selector.matchExpressions[0].operator']]);
  });

  it('In without values, and Exists with values, are refused at values', async () => {
    expect(rules(await validateYaml(deployment('    matchExpressions: [{key: app, operator: In, values: []}]')))).toEqual([['crd/selector-mismatch', 'spec.selector.matchExpressions[0].values']]);
    expect(rules(await validateYaml(deployment('    matchExpressions: [{key: app, operator: Exists, values: [web]}]')))).toEqual([['crd/selector-mismatch', 'spec.selector.matchExpressions[0].values']]);
  });

  it('matchLabels that are not labels are refused at that label, and not compared with the template', async () => {
    expect(rules(await validateYaml(deployment('    matchLabels: {app: "not a value"}', 'app: web')))).toEqual([['crd/value', 'spec.selector.matchLabels.app']]);
  });

  it("a PodDisruptionBudget's selector is held to the same rules", async () => {
    const pdb = 'apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\nspec:\n  minAvailable: 1\n  selector:\n    matchExpressions: [{key: app, operator: Bogus}]\n';
    expect(rules(await validateYaml(pdb))).toEqual([['crd/selector-mismatch', 'spec.selector.matchExpressions[0].operator']]);
  });
});

describe('Ingress backend ports, as the API server checks them (crd/ports)', () => {
  const ingress = (port: string) => `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n  - host: web.example.com\n    http:\n      paths:\n      - path: /\n        pathType: Prefix\n        backend:\n          service:\n            name: web\n            port: ${port}\n`;
  it('an Ingress backend port past 65535, a port name over 15 characters, or a number and a name, are refused', async () => {
    expect((await validateYaml(ingress('{number: 8080}'))).problems).toEqual([]);
    expect(rules(await validateYaml(ingress('{number: 70000}')))).toEqual([['crd/ports', 'spec.rules[0].http.paths[0].backend.service.port.number']]);
    expect(rules(await validateYaml(ingress(`{name: ${'p'.repeat(16)}}`)))).toEqual([['crd/ports', 'spec.rules[0].http.paths[0].backend.service.port.name']]);
    expect(rules(await validateYaml(ingress('{number: 80, name: http}')))).toEqual([['crd/ports', 'spec.rules[0].http.paths[0].backend']]);
  });
});

describe('RBAC bindings, as the API server checks them (crd/value)', () => {
  const binding = (kind: string, roleRef: string, subject: string) => `apiVersion: rbac.authorization.k8s.io/v1\nkind: ${kind}\nmetadata:\n  name: b\n  namespace: n\nroleRef: ${roleRef}\nsubjects:\n- ${subject}\n`;
  const role = '{apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: view}';
  const sa = '{kind: ServiceAccount, name: sa, namespace: n}';
  it('valid bindings pass: a ServiceAccount without namespace in a RoleBinding, a User of the RBAC group', async () => {
    expect((await validateYaml(binding('RoleBinding', role, '{kind: ServiceAccount, name: sa}'))).problems).toEqual([]);
    expect((await validateYaml(binding('ClusterRoleBinding', role, '{kind: User, apiGroup: rbac.authorization.k8s.io, name: jane}'))).problems).toEqual([]);
  });

  it('a ClusterRoleBinding cannot bind a Role', async () => {
    expect(rules(await validateYaml(binding('ClusterRoleBinding', '{apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}', sa)))).toEqual([['crd/value', 'roleRef.kind']]);
  });

  it('a ServiceAccount subject of the RBAC group, or a User of no group, is refused at apiGroup', async () => {
    expect(rules(await validateYaml(binding('RoleBinding', role, '{kind: ServiceAccount, apiGroup: rbac.authorization.k8s.io, name: sa, namespace: n}')))).toEqual([['crd/value', 'subjects[0].apiGroup']]);
    expect(rules(await validateYaml(binding('ClusterRoleBinding', role, '{kind: User, name: jane}')))).toEqual([['crd/value', 'subjects[0].apiGroup']]);
  });
});
