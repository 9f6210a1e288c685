// validate checks core Kubernetes kinds against the OpenAPI schema of the chosen release
// (schemas/kubernetes/openapi.json), strictly like the API server with fieldValidation=Strict,
// plus the named Go-validation rules of src/kube-check/core-rules.ts.
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
    const ok = await validateYaml(deployment('          resources:\n            requests: {cpu: 0.5, memory: 2Gi}\n            limits: {cpu: 1e3, memory: 4G}\n'));
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
    it('crd/value: counts that cannot be negative, file modes, HPA bounds and the RBAC subject kinds the server takes', async () => {
      expect(rules(await validateYaml(deployment('', '  replicas: -1\n')))).toEqual([['crd/value', 'spec.replicas']]);
      expect((await validateYaml(deployment('', '  replicas: 0\n'))).problems).toEqual([]);
      const mode = deployment('').replace('      containers:', '      volumes:\n        - name: c\n          configMap: {name: c, defaultMode: 1000}\n      containers:');
      expect(rules(await validateYaml(mode))).toEqual([['crd/value', 'spec.template.spec.volumes[0].configMap.defaultMode']]);
      const rb = await validateYaml('apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: r}\nroleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: r}\nsubjects:\n  - {kind: Robot, name: x}\n');
      expect(rb.problems).toMatchObject([{ rule: 'crd/value', path: 'subjects[0].kind' }]);
    });

    it('crd/value: names of referenced objects, label selectors, config keys, downward-API field paths', async () => {
      const y = deployment('          envFrom: [{secretRef: {name: Bad_Secret}}]\n          env:\n            - name: A\n              valueFrom: {secretKeyRef: {name: s, key: "bad key"}}\n            - name: B\n              valueFrom: {fieldRef: {fieldPath: metadata.nme}}\n');
      expect(rules(await validateYaml(y))).toEqual([
        ['crd/value', 'spec.template.spec.containers[0].envFrom[0].secretRef.name'],
        ['crd/value', 'spec.template.spec.containers[0].env[0].valueFrom.secretKeyRef.key'],
        ['crd/value', 'spec.template.spec.containers[0].env[1].valueFrom.fieldRef.fieldPath'],
      ]);
      const svc = await validateYaml('apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  selector: {app: "bad value!"}\n  ports: [{port: 80}]\n');
      expect(rules(svc)).toEqual([['crd/value', 'spec.selector.app']]);
      const cm = await validateYaml('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata:\n  "a b": x\n  config.yaml: y\n');
      expect(rules(cm)).toEqual([['crd/value', 'data["a b"]']]);
      const tmpl = deployment('').replace('        app: web\n    spec:', '        app: web\n        "bad key!": x\n    spec:');
      expect(rules(await validateYaml(tmpl))).toEqual([['crd/metadata', 'spec.template.metadata.labels["bad key!"]']]);
    });

    it("crd/value and crd/field-combination: a Role's resource rules name groups and resources; a probe has one handler", async () => {
      const role = await validateYaml('apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata: {name: r}\nrules:\n  - {apiGroups: [""], resources: [], verbs: [get]}\n  - {nonResourceURLs: [/metrics], verbs: [get]}\n');
      expect(rules(role)).toEqual([
        ['crd/value', 'rules[0].resources'],
        ['crd/value', 'rules[1].nonResourceURLs'],
      ]);
      const probe = await validateYaml(deployment('          readinessProbe: {periodSeconds: 5}\n          livenessProbe: {exec: {command: [x]}, tcpSocket: {port: 80}}\n'));
      expect(rules(probe)).toEqual([
        ['crd/field-combination', 'spec.template.spec.containers[0].readinessProbe'],
        ['crd/field-combination', 'spec.template.spec.containers[0].livenessProbe.tcpSocket'],
      ]);
    });

    it('defaults the server applies before validating are honoured, and a workload without a spec is refused in every release', async () => {
      const rb = 'apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata: {name: r}\nroleRef: {kind: Role, name: r}\nsubjects: [{kind: ServiceAccount, name: default}]\n';
      expect((await validateYaml(rb)).problems).toEqual([]);
      const nospec = 'apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n';
      for (const kube of ['1.34', '1.37']) expect((await validateYaml(nospec, ['--kube-version', kube])).code, kube).toBe(1);
    });

    it("crd/restart-policy: Always for a Deployment's pods, OnFailure or Never (and set) for a Job's", async () => {
      expect(rules(await validateYaml(deployment('').replace('      containers:', '      restartPolicy: Never\n      containers:')))).toEqual([['crd/restart-policy', 'spec.template.spec.restartPolicy']]);
      const job = (policy: string) => `apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec:\n  template:\n    spec:\n${policy}      containers: [{name: c, image: x}]\n`;
      expect((await validateYaml(job('      restartPolicy: Never\n'))).problems).toEqual([]);
      expect(rules(await validateYaml(job('')))).toEqual([['crd/restart-policy', 'spec.template.spec.restartPolicy']]);
    });

    it('crd/volumes: repeated volume names, and a mount of a volume the pod does not have', async () => {
      const y = deployment('          volumeMounts: [{name: confg, mountPath: /etc/c}]\n').replace('      containers:', '      volumes:\n        - {name: config, emptyDir: {}}\n        - {name: config, emptyDir: {}}\n      containers:');
      const r = await validateYaml(y);
      expect(rules(r)).toEqual([
        ['crd/volumes', 'spec.template.spec.volumes[1].name'],
        ['crd/volumes', 'spec.template.spec.containers[0].volumeMounts[0].name'],
      ]);
      expect(r.problems[1]!.hint).toBe('did you mean config?');
    });

    it('crd/field-combination: minAvailable with maxUnavailable, value with valueFrom', async () => {
      const pdb = await validateYaml('apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: p}\nspec:\n  minAvailable: 1\n  maxUnavailable: 1\n');
      expect(rules(pdb)).toEqual([['crd/field-combination', 'spec.maxUnavailable']]);
      const env = await validateYaml(deployment('          env:\n            - name: A\n              value: x\n              valueFrom: {fieldRef: {fieldPath: metadata.name}}\n'));
      expect(rules(env)).toEqual([['crd/field-combination', 'spec.template.spec.containers[0].env[0].valueFrom']]);
    });

    it('crd/cronjob: a schedule the controller cannot parse; a name over 52 characters is crd/metadata', async () => {
      const cj = (name: string, schedule: string) => `apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: ${name}}\nspec:\n  schedule: "${schedule}"\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: x}]\n`;
      for (const ok of ['*/15 * * * *', '0 3 * * MON-FRI', '@hourly', '5 4 1,15 JAN-MAR ?']) expect((await validateYaml(cj('c', ok))).problems, ok).toEqual([]);
      for (const bad of ['every minute', '61 * * * *', '* * * * * *', 'TZ=UTC 0 * * * *']) expect(rules(await validateYaml(cj('c', bad))), bad).toEqual([['crd/cronjob', 'spec.schedule']]);
      expect(rules(await validateYaml(cj('a'.repeat(53), '@daily')))).toEqual([['crd/metadata', 'metadata.name']]);
    });

    it('a Service needs a port unless headless or ExternalName; a claim needs a storage request', async () => {
      const svc = (spec: string) => `apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n${spec}`;
      expect(rules(await validateYaml(svc('  ports: []\n')))).toEqual([['crd/ports', 'spec.ports']]);
      expect((await validateYaml(svc('  clusterIP: None\n'))).problems).toEqual([]);
      const pvc = await validateYaml('apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: p}\nspec:\n  accessModes: [ReadWriteOnce]\n');
      expect(rules(pvc)).toEqual([['crd/resources', 'spec.resources.requests.storage']]);
      const nospec = await validateYaml('apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: p}\n', ['--kube-version', '1.34']);
      expect(rules(nospec)).toEqual([['crd/resources', 'spec.resources.requests.storage']]);
    });


    it('crd/selector-mismatch: a selector that does not select the template labels, or an empty one', async () => {
      const y = deployment('').replace('      labels:\n        app: web', '      labels:\n        app: api');
      // Named where the API server names it (the template's labels), placed at the selector.
      expect((await validateYaml(y)).problems).toMatchObject([{ rule: 'crd/selector-mismatch', path: 'spec.template.metadata.labels', line: 6 }]);
      const empty = deployment('').replace('    matchLabels:\n      app: web\n', '    matchLabels: {}\n');
      expect(rules(await validateYaml(empty))).toEqual([['crd/selector-mismatch', 'spec.selector']]);
      const expr = deployment('').replace('    matchLabels:\n      app: web\n', '    matchExpressions:\n      - {key: app, operator: In, values: [web, api]}\n');
      expect((await validateYaml(expr)).problems).toEqual([]);
    });

    it('crd/containers: not a DNS-1123 label, or the name of another container of the pod', async () => {
      const y = deployment('        - name: Side_Car\n          image: x\n        - name: web\n          image: y\n');
      expect(rules(await validateYaml(y))).toEqual([
        ['crd/containers', 'spec.template.spec.containers[1].name'],
        ['crd/containers', 'spec.template.spec.containers[2].name'],
      ]);
    });

    it('crd/ports: ports outside 1-65535 and port names that are not IANA service names', async () => {
      const y = deployment('          ports:\n            - containerPort: 70000\n            - containerPort: 80\n              name: Web_Port\n          readinessProbe:\n            httpGet: {port: 0}\n');
      expect(rules(await validateYaml(y))).toEqual([
        ['crd/ports', 'spec.template.spec.containers[0].ports[0].containerPort'],
        ['crd/ports', 'spec.template.spec.containers[0].ports[1].name'],
        ['crd/ports', 'spec.template.spec.containers[0].readinessProbe.httpGet.port'],
      ]);
      const svc = await validateYaml('apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n    - {name: a, port: 0, targetPort: 9000}\n    - {name: b, port: 80, targetPort: too-long-port-name}\n');
      expect(rules(svc)).toEqual([
        ['crd/ports', 'spec.ports[0].port'],
        ['crd/ports', 'spec.ports[1].targetPort'],
      ]);
    });

    it('crd/ports: a Service with several ports names each, distinctly, and takes each port and protocol once', async () => {
      const svc = (ports: string) => `apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n${ports}`;
      expect((await validateYaml(svc('    - {port: 80}\n'))).problems).toEqual([]);
      expect((await validateYaml(svc('    - {name: http, port: 80}\n    - {name: dns, port: 80, protocol: UDP}\n'))).problems).toEqual([]);
      expect(rules(await validateYaml(svc('    - {name: http, port: 80}\n    - {port: 81}\n')))).toEqual([['crd/ports', 'spec.ports[1].name']]);
      expect(rules(await validateYaml(svc('    - {name: http, port: 80}\n    - {name: http, port: 81}\n')))).toEqual([['crd/ports', 'spec.ports[1].name']]);
      expect(rules(await validateYaml(svc('    - {name: a, port: 80}\n    - {name: b, port: 80}\n')))).toEqual([['crd/ports', 'spec.ports[1]']]);
      expect(rules(await validateYaml(svc('    - {name: Web, port: 80}\n')))).toEqual([['crd/ports', 'spec.ports[0].name']]);
    });

    it('crd/containers: a container without an image', async () => {
      const y = deployment('').replace('          image: nginx:1.27\n', '');
      expect((await validateYaml(y)).problems).toMatchObject([{ rule: 'crd/containers', path: 'spec.template.spec.containers[0].image', line: 15 }]);
    });

    it('crd/resources: unknown resource names, negative quantities, requests above limits', async () => {
      const y = deployment('          resources:\n            limits: {cpu: "1", memory: 1Gi, example.com/gpu: 1, hugepages-2Mi: 1Gi}\n            requests: {cpu: 2, memroy: 1Gi, ephemeral-storage: -1Gi}\n');
      const r = await validateYaml(y);
      // In the order of the line: cpu, memroy, ephemeral-storage.
      expect(rules(r)).toEqual([
        ['crd/resources', 'spec.template.spec.containers[0].resources.requests'],
        ['crd/resources', 'spec.template.spec.containers[0].resources.requests.memroy'],
        ['crd/resources', 'spec.template.spec.containers[0].resources.requests.ephemeral-storage'],
      ]);
      expect(r.problems[1]!.hint).toBe('did you mean memory?');
    });
  });

  it("a Secret's values are never shown in a problem", async () => {
    const r = await validateYaml('apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  token: hunter2-is-secret!\n');
    expect(rules(r)).toEqual([['crd/schema', 'data.token']]);
    expect(JSON.stringify(r.problems)).not.toContain('hunter2');
  });
});

describe('validate: the foreign CRDs the chart renders', () => {
  const serviceMonitor = (endpoint: string) => `apiVersion: monitoring.coreos.com/v1
kind: ServiceMonitor
metadata:
  name: m
spec:
  selector:
    matchLabels: {app: web}
  endpoints:
    - port: http
${endpoint}`;

  it('a ServiceMonitor with a typo is refused at the field, with a did-you-mean', async () => {
    expect((await validateYaml(serviceMonitor('      interval: 30s\n      scheme: https\n'))).problems).toEqual([]);
    const y = serviceMonitor('      intreval: 30s # HERE\n');
    const r = await validateYaml(y);
    expect(r.problems).toMatchObject([{ rule: 'crd/unknown-field', path: 'spec.endpoints[0].intreval', hint: 'did you mean interval?', ...marked(y) }]);
    const scheme = await validateYaml(serviceMonitor('      scheme: htps\n'));
    expect(scheme.problems).toMatchObject([{ rule: 'crd/schema', path: 'spec.endpoints[0].scheme', hint: 'did you mean https?' }]);
    const meta = await validateYaml(serviceMonitor('').replace('  name: m', '  name: m\n  lables: {a: b}'));
    expect(rules(meta)).toEqual([['crd/unknown-field', 'metadata.lables']]);
  });

  it("an HTTPRoute is held to the Gateway API's schema: patterns and bounds", async () => {
    const route = (hostname: string) => `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}]
  hostnames: ["${hostname}"]
  rules:
    - backendRefs: [{name: svc, port: 80}]
`;
    expect((await validateYaml(route('app.example.com'))).problems).toEqual([]);
    expect(rules(await validateYaml(route('Bad_Host')))).toEqual([['crd/schema', 'spec.hostnames[0]']]);
    const version = await validateYaml(route('a.example.com').replace('gateway.networking.k8s.io/v1', 'gateway.networking.k8s.io/v1alpha9'));
    expect(version.problems).toMatchObject([{ rule: 'crd/unknown-version', path: 'apiVersion' }]);
  });
});

