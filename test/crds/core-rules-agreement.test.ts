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

const container = (resources: string) => `apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\nspec:\n  containers:\n  - name: c\n    image: nginx:1.27\n    resources: ${resources}\n`;

describe('extended resources, as the API server checks them (crd/resources)', () => {
  it('a whole extended resource with an equal limit passes', async () => {
    expect((await validateYaml(container('{requests: {example.com/gpu: 1}, limits: {example.com/gpu: 1}}'))).problems).toEqual([]);
  });
  it('a fractional extended resource is refused where it is written', async () => {
    expect(rules(await validateYaml(container('{limits: {example.com/gpu: 500m}}')))).toEqual([['crd/resources', 'spec.containers[0].resources.limits["example.com/gpu"]']]);
  });
  it('an extended resource requested without a limit, or below it, is refused', async () => {
    expect(rules(await validateYaml(container('{requests: {example.com/gpu: 1}}')))).toEqual([['crd/resources', 'spec.containers[0].resources.limits']]);
    expect(rules(await validateYaml(container('{requests: {example.com/gpu: 1}, limits: {example.com/gpu: 2}}')))).toEqual([['crd/resources', 'spec.containers[0].resources.requests']]);
  });
});

describe("a Deployment's progressDeadlineSeconds exceeds its minReadySeconds (crd/value)", () => {
  const dep = (extra: string) => deployment('    matchLabels: {app: web}').replace('spec:\n  selector', `spec:\n${extra}  selector`);
  it('minReadySeconds at or above the deadline (600 by default) is refused at progressDeadlineSeconds', async () => {
    expect((await validateYaml(dep('  minReadySeconds: 30\n'))).problems).toEqual([]);
    expect(rules(await validateYaml(dep('  minReadySeconds: 600\n')))).toEqual([['crd/value', 'spec.progressDeadlineSeconds']]);
    expect(rules(await validateYaml(dep('  minReadySeconds: 10\n  progressDeadlineSeconds: 10\n')))).toEqual([['crd/value', 'spec.progressDeadlineSeconds']]);
  });
});

describe('Ingress rules, as the API server checks them (crd/value)', () => {
  const ingress = (host: string, path: string, service = 'web') =>
    `apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata:\n  name: web\nspec:\n  rules:\n  - host: "${host}"\n    http:\n      paths:\n      - path: ${path}\n        pathType: Prefix\n        backend:\n          service:\n            name: ${service}\n            port: {number: 80}\n`;
  const base = 'spec.rules[0]';
  it('a DNS host, a wildcard host and an absolute path pass', async () => {
    expect((await validateYaml(ingress('web.example.com', '/'))).problems).toEqual([]);
    expect((await validateYaml(ingress('*.example.com', '/api'))).problems).toEqual([]);
    expect(rules(await validateYaml(ingress(`*.${'a'.repeat(61)}.${'b'.repeat(61)}.${'c'.repeat(61)}.${'d'.repeat(62)}.com`, '/')))).toEqual([['crd/value', `${base}.host`]]);
  });
  it('a host that is an IP address or not a DNS name is refused at the host', async () => {
    for (const ip of ['10.0.0.1', '010.0.0.1', '::1']) expect(rules(await validateYaml(ingress(ip, '/')))).toEqual([['crd/value', `${base}.host`]]);
    expect(rules(await validateYaml(ingress('bad_host.example.com', '/')))).toEqual([['crd/value', `${base}.host`]]);
  });
  it('a relative Prefix path is refused at the path; a backend Service name that is not a DNS label at the name', async () => {
    expect(rules(await validateYaml(ingress('web.example.com', 'agents')))).toEqual([['crd/value', `${base}.http.paths[0].path`]]);
    expect(rules(await validateYaml(ingress('web.example.com', '/', 'UI_svc')))).toEqual([['crd/value', `${base}.http.paths[0].backend.service.name`]]);
  });
  it("a backend Service name with a leading digit is refused on 1.34 and taken from 1.36, as the release's Service names", async () => {
    expect(rules(await validateYaml(ingress('web.example.com', '/', '1web'), ['--kube-version', '1.34']))).toEqual([['crd/value', `${base}.http.paths[0].backend.service.name`]]);
    expect((await validateYaml(ingress('web.example.com', '/', '1web'), ['--kube-version', '1.37'])).problems).toEqual([]);
  });
  it('an Exact or Prefix path with "//" or "/../" inside, or ending with "/..", is refused at the path', async () => {
    for (const p of ['/a//b', '/a/../b', '/a/..']) expect(rules(await validateYaml(ingress('web.example.com', p)))).toEqual([['crd/value', `${base}.http.paths[0].path`]]);
  });
});

describe("a Job's selector, as the API server checks it (crd/selector-mismatch)", () => {
  const job = (extra: string) => `apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: j\nspec:\n${extra}  template:\n    metadata:\n      labels: {app: migrate}\n    spec:\n      restartPolicy: Never\n      containers:\n      - name: c\n        image: busybox:1.36\n`;
  it('a selector with manualSelector that selects the template passes', async () => {
    expect((await validateYaml(job('  manualSelector: true\n  selector: {matchLabels: {app: migrate}}\n'))).problems).toEqual([]);
  });
  it('a selector without manualSelector is refused at the selector', async () => {
    expect(rules(await validateYaml(job('  selector: {matchLabels: {app: migrate}}\n')))).toEqual([['crd/selector-mismatch', 'spec.selector']]);
  });
  it('a manual selector that does not select the template is refused at the template labels', async () => {
    expect(rules(await validateYaml(job('  manualSelector: true\n  selector: {matchLabels: {app: other}}\n')))).toEqual([['crd/selector-mismatch', 'spec.template.metadata.labels']]);
  });
});

describe('ConfigMap and typed Secret keys, as the API server checks them', () => {
  it('a key in both data and binaryData is refused at data', async () => {
    const cm = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: x\nbinaryData:\n  k: eA==\n';
    expect(rules(await validateYaml(cm))).toEqual([['crd/field-combination', 'data.k']]);
  });
  const secret = (type: string, body: string, meta = '') => `apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n${meta}type: ${type}\n${body}`;
  it('a TLS Secret needs tls.crt and tls.key, from data or stringData', async () => {
    expect((await validateYaml(secret('kubernetes.io/tls', 'stringData:\n  tls.crt: c\ndata:\n  tls.key: aw==\n'))).problems).toEqual([]);
    expect(rules(await validateYaml(secret('kubernetes.io/tls', 'stringData:\n  tls.crt: c\n')))).toEqual([['crd/value', 'data["tls.key"]']]);
  });
  it('a basic-auth Secret needs a username or a password', async () => {
    expect((await validateYaml(secret('kubernetes.io/basic-auth', 'stringData:\n  password: p\n'))).problems).toEqual([]);
    expect(rules(await validateYaml(secret('kubernetes.io/basic-auth', 'stringData:\n  other: x\n')))).toEqual([
      ['crd/value', 'data.password'],
      ['crd/value', 'data.username'],
    ]);
  });
  it('registry, ssh-auth and service-account-token Secrets need their keys', async () => {
    expect(rules(await validateYaml(secret('kubernetes.io/dockerconfigjson', 'stringData:\n  other: x\n')))).toEqual([['crd/value', 'data[".dockerconfigjson"]']]);
    expect(rules(await validateYaml(secret('kubernetes.io/dockerconfigjson', 'stringData:\n  .dockerconfigjson: "not json"\n')))).toEqual([['crd/value', 'data[".dockerconfigjson"]']]);
    expect((await validateYaml(secret('kubernetes.io/dockerconfigjson', "stringData:\n  .dockerconfigjson: '{\"auths\": {}}'\n"))).problems).toEqual([]);
    expect(rules(await validateYaml(secret('kubernetes.io/ssh-auth', 'stringData:\n  other: x\n')))).toEqual([['crd/value', 'data.ssh-privatekey']]);
    expect(rules(await validateYaml(secret('kubernetes.io/service-account-token', '')))).toEqual([['crd/value', 'metadata.annotations["kubernetes.io/service-account.name"]']]);
    expect((await validateYaml(secret('kubernetes.io/service-account-token', '', '  annotations: {kubernetes.io/service-account.name: sa}\n'))).problems).toEqual([]);
  });
});

describe('Service type combinations, as the API server checks them (crd/field-combination)', () => {
  const svc = (extra: string, port = '{name: http, port: 80}') => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n${extra}  ports: [${port}]\n`;
  it('nodePort and externalTrafficPolicy pass on a NodePort Service', async () => {
    expect((await validateYaml(svc('  type: NodePort\n  externalTrafficPolicy: Local\n', '{name: http, port: 80, nodePort: 30080}'))).problems).toEqual([]);
  });
  it('a ClusterIP Service with a nodePort or externalTrafficPolicy is refused at that field', async () => {
    expect(rules(await validateYaml(svc('', '{name: http, port: 80, nodePort: 30080}')))).toEqual([['crd/field-combination', 'spec.ports[0].nodePort']]);
    expect(rules(await validateYaml(svc('  externalTrafficPolicy: Local\n')))).toEqual([['crd/field-combination', 'spec.externalTrafficPolicy']]);
    expect(rules(await validateYaml(svc('  type: ""\n', '{name: http, port: 80, nodePort: 30080}')))).toEqual([['crd/field-combination', 'spec.ports[0].nodePort']]);
  });
});

describe("a PodDisruptionBudget's minAvailable and maxUnavailable (crd/value)", () => {
  const pdb = (field: string, v: string) => `apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata:\n  name: p\nspec:\n  ${field}: ${v}\n  selector: {matchLabels: {app: web}}\n`;
  it('a count or a percentage up to 100% passes', async () => {
    expect((await validateYaml(pdb('minAvailable', '1'))).problems).toEqual([]);
    expect((await validateYaml(pdb('maxUnavailable', '"100%"'))).problems).toEqual([]);
  });
  it('a negative count, a percentage over 100% or a word is refused at the field', async () => {
    expect(rules(await validateYaml(pdb('minAvailable', '-1')))).toEqual([['crd/value', 'spec.minAvailable']]);
    expect(rules(await validateYaml(pdb('minAvailable', '"150%"')))).toEqual([['crd/value', 'spec.minAvailable']]);
    expect(rules(await validateYaml(pdb('maxUnavailable', 'twelve')))).toEqual([['crd/value', 'spec.maxUnavailable']]);
  });
});
