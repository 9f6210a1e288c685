// validate checks core Kubernetes kinds against the OpenAPI schema of the chosen release
// (schemas/kubernetes/openapi.json), strictly like the API server with fieldValidation=Strict,
// plus the named Go-validation rules of src/crds/core-rules.ts.
import { describe, expect, it } from 'vitest';
import { marked, validateYaml } from './helpers.ts';

const deployment = (container: string, spec = ''): string => `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
${spec}  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      containers:
        - name: web
          image: nginx:1.27
${container}`;

const rules = (r: { problems: { rule: string; path: string }[] }) => r.problems.map((p) => [p.rule, p.path]);

describe('validate: core kinds against the Kubernetes OpenAPI', () => {
  it('a valid Deployment, Service and ConfigMap pass, and the summary counts them by kind', async () => {
    const y = `${deployment('          ports:\n            - containerPort: 8080\n              name: http\n          resources:\n            limits: {cpu: 500m, memory: 128Mi}\n')}---
apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports:
    - port: 80
      targetPort: http
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: web
data:
  a: "1"
`;
    const r = await validateYaml(y, ['-v']);
    expect(r.problems).toEqual([]);
    expect(r.code).toBe(0);
    expect(r.err).toBe('validate: checked 3 resources (ConfigMap 1, Deployment 1, Service 1)\n');
  });

  it("an unknown field in a Deployment's container is refused at its line and column", async () => {
    const y = deployment('          imagePullPolcy: Always # HERE\n');
    const r = await validateYaml(y);
    expect(r.code).toBe(1);
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.template.spec.containers[0].imagePullPolcy', ...marked(y), hint: 'did you mean imagePullPolicy?' }]);
  });

  it('replicas past int32 is refused, naming the bound', async () => {
    const y = deployment('', '  replicas: 2147483648 # HERE\n');
    const r = await validateYaml(y);
    expect(r.problems).toMatchObject([{ rule: 'crd/schema', path: 'spec.replicas', ...marked(y) }]);
    expect(r.problems[0]!.message).toContain('int32');
    expect((await validateYaml(deployment('', '  replicas: 2147483647\n'))).problems).toEqual([]);
  });

  it('a quantity that does not parse is refused; numbers and suffixed strings pass', async () => {
    const y = deployment('          resources:\n            requests:\n              memory: 1.5x # HERE\n');
    const r = await validateYaml(y);
    expect(r.problems).toMatchObject([{ rule: 'crd/schema', path: 'spec.template.spec.containers[0].resources.requests.memory', ...marked(y) }]);
    expect(r.problems[0]!.message).toContain('quantity');
    const ok = await validateYaml(deployment('          resources:\n            requests: {cpu: 0.5, memory: 2Gi}\n            limits: {cpu: 1e3, memory: 512M}\n'));
    expect(ok.problems).toEqual([]);
  });

  it('a missing required field is refused at its parent, and so is an empty containers list', async () => {
    const y = `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n    - targetPort: 8080 # HERE\n`;
    const r = await validateYaml(y);
    expect(r.problems).toMatchObject([{ rule: 'crd/schema', path: 'spec.ports[0].port', message: 'Service s: spec.ports[0].port is required', ...marked(y) }]);
    const empty = await validateYaml(deployment('').replace(/      containers:\n[\s\S]*$/, '      containers: []\n'));
    expect(rules(empty)).toEqual([['crd/schema', 'spec.template.spec.containers']]);
  });

  it('wrong types, bad enums and bad base64 are refused; an empty enum string is "not set"', async () => {
    const r = await validateYaml(deployment('          imagePullPolicy: Sometimes\n          tty: "yes"\n'));
    expect(rules(r)).toEqual([
      ['crd/schema', 'spec.template.spec.containers[0].imagePullPolicy'],
      ['crd/schema', 'spec.template.spec.containers[0].tty'],
    ]);
    expect((await validateYaml(deployment('          imagePullPolicy: ""\n'))).problems).toEqual([]);
    const secret = await validateYaml('apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  good: aGk=\n  bad: not base64!\n');
    expect(rules(secret)).toEqual([['crd/schema', 'data.bad']]);
  });

  it('a field of 1.37 (emptyDir.mode) passes with --kube-version 1.37 and is unknown with 1.34', async () => {
    const y = deployment('', '').replace('      containers:', '      volumes:\n        - name: scratch\n          emptyDir:\n            mode: 448 # HERE\n      containers:');
    expect((await validateYaml(y, ['--kube-version', '1.37'])).problems).toEqual([]);
    expect((await validateYaml(y)).problems).toEqual([]);
    const old = await validateYaml(y, ['--kube-version', 'v1.34.2']);
    expect(old.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.template.spec.volumes[0].emptyDir.mode', ...marked(y) }]);
  });

  it('an unsupported --kube-version is a usage error listing the supported ones', async () => {
    const r = await validateYaml(deployment(''), ['--kube-version', '1.29']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('1.34, 1.37');
  });

  it('a kind the release does not serve in a built-in group is an error, with the version that serves it', async () => {
    const beta = await validateYaml(deployment('').replace('apps/v1', 'apps/v1beta1'));
    expect(beta.problems).toMatchObject([{ rule: 'crd/unknown-version', path: 'apiVersion', hint: 'set `apiVersion: apps/v1`' }]);
    const typo = await validateYaml(deployment('').replace('kind: Deployment', 'kind: Deploymnet'));
    expect(typo.problems).toMatchObject([{ rule: 'crd/unknown-kind', hint: 'did you mean Deployment?' }]);
  });

  it('raw JSON fields take anything, while a CRD schema with an unknown keyword is refused', async () => {
    const crd = (extra: string) => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget, listKind: WidgetList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          x-kubernetes-preserve-unknown-fields: true
          properties:
            spec:
              type: object
              default: {any: [thing, 1], nested: {deep: true}}
              additionalProperties: {type: string}
${extra}`;
    expect((await validateYaml(crd(''))).problems).toEqual([]);
    const bad = await validateYaml(crd('              maxLenght: 3 # HERE\n'));
    expect(bad.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.versions[0].schema.openAPIV3Schema.properties.spec.maxLenght', hint: 'did you mean maxLength?', ...marked(crd('              maxLenght: 3 # HERE\n')) }]);
  });

  it('a List of core objects (kubectl get deploy -o yaml) is checked item by item, each at its own line', async () => {
    const item = (name: string, extra: string) => `  - apiVersion: apps/v1
    kind: Deployment
    metadata: {name: ${name}}
    spec:
      selector: {matchLabels: {app: ${name}}}
      template:
        metadata: {labels: {app: ${name}}}
        spec:
          containers:
            - name: c
              image: x
${extra}`;
    const y = `apiVersion: v1\nkind: List\nmetadata: {resourceVersion: ""}\nitems:\n${item('a', '')}${item('b', '              workdir: /x # HERE\n')}`;
    const r = await validateYaml(y, ['-v']);
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.template.spec.containers[0].workdir', ...marked(y), hint: 'did you mean workingDir?' }]);
    expect(r.err).toContain('checked 2 resources (Deployment 2)');
  });

  describe('the Go validation rules the OpenAPI cannot say', () => {
    it('crd/selector-mismatch: a selector that does not select the template labels, or an empty one', async () => {
      const y = deployment('').replace('      labels:\n        app: web', '      labels:\n        app: api');
      expect(rules(await validateYaml(y))).toEqual([['crd/selector-mismatch', 'spec.template.metadata.labels']]);
      const empty = deployment('').replace('    matchLabels:\n      app: web\n', '    matchLabels: {}\n');
      expect(rules(await validateYaml(empty))).toEqual([['crd/selector-mismatch', 'spec.selector']]);
      const expr = deployment('').replace('    matchLabels:\n      app: web\n', '    matchExpressions:\n      - {key: app, operator: In, values: [web, api]}\n');
      expect((await validateYaml(expr)).problems).toEqual([]);
    });

    it('crd/container-name: not a DNS-1123 label, or the name of another container of the pod', async () => {
      const y = deployment('        - name: Side_Car\n          image: x\n        - name: web\n          image: y\n');
      expect(rules(await validateYaml(y))).toEqual([
        ['crd/container-name', 'spec.template.spec.containers[1].name'],
        ['crd/container-name', 'spec.template.spec.containers[2].name'],
      ]);
    });

    it('crd/port-range: ports outside 1-65535 and port names that are not IANA service names', async () => {
      const y = deployment('          ports:\n            - containerPort: 70000\n            - containerPort: 80\n              name: Web_Port\n          readinessProbe:\n            httpGet: {port: 0}\n');
      expect(rules(await validateYaml(y))).toEqual([
        ['crd/port-range', 'spec.template.spec.containers[0].ports[0].containerPort'],
        ['crd/port-range', 'spec.template.spec.containers[0].ports[1].name'],
        ['crd/port-range', 'spec.template.spec.containers[0].readinessProbe.httpGet.port'],
      ]);
      const svc = await validateYaml('apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n    - {name: a, port: 0, targetPort: 9000}\n    - {name: b, port: 80, targetPort: too-long-port-name}\n');
      expect(rules(svc)).toEqual([
        ['crd/port-range', 'spec.ports[0].port'],
        ['crd/port-range', 'spec.ports[1].targetPort'],
      ]);
    });
  });
});
