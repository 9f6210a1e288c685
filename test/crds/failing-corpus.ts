// Resources that `agentplat validate` rejects, one file each: every breaking case of the CEL rule
// and limit tests, plus schema errors inside the core types, maps, formats, patterns,
// int-or-string, metadata, and the YAML and document-level errors. (No nesting bomb: where the
// parser runs out of stack depends on the process, not on the validator.) test/generated.test.ts
// checks them with the generated validators and with ajv compiling the model's schemas: the
// generated validators must report the same errors.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CEL_CASES, modelConfig, remote } from './cel-cases.ts';
import { doc } from './helpers.ts';
import { buildLimitDoc, LIMITS } from './limit-cases.ts';

const agent = (spec: string): string => doc('Agent', spec);
const dep = (lines: string): string => agent(`  declarative:\n    deployment:\n${lines}`);

const EDGES: Record<string, string> = {
  'unknown-version': agent('  declarative: {}\n').replace('v1alpha2', 'v1alpha1'),
  'unknown-kind': doc('ModelConfg', '  model: m\n'),
  'unknown-kind-far': doc('Widget', '  model: m\n'),
  'unknown-field': modelConfig('  provder: ProviderA\n'),
  'unknown-field-no-guess': modelConfig('  zzzzzzzzzzzz: 1\n'),
  'enum-type-required': modelConfig('  provider: ProviderZ\n  providerB:\n    maxTokens: many\n'),
  'required-description': remote('').replace('  description: tools\n', '  url: https://x\n'),
  'no-name': 'apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  namespace: x\nspec:\n  model: m\n',
  'generate-name': 'apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  generateName: x-\nspec:\n  model: m\n  bogus: 1\n',
  'metadata-types': 'apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  name: 3\n  labels:\n    a: 1\n  annotations: []\n  extra: kept\nspec:\n  model: m\n',
  'not-an-object': '- a\n- b\n',
  'scalar-doc': 'just a string\n',
  'missing-kind': 'apiVersion: agentplat.dev/v1alpha2\nmetadata:\n  name: x\n',
  'missing-api-version': 'kind: Agent\nmetadata:\n  name: x\n',
  'yaml-syntax': 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nspec: [unclosed\n',
  'duplicate-key': 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nkind: Agent\n',
  'alias-bomb': `a: &a [x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d]\n`,
  'other-group-and-ours': `apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n---\n${modelConfig('  bogus: 1\n')}---\n---\n${remote('  url: ftp://x\n  tls: {bad: 1}\n')}`,
  'spec-not-a-map': agent('  - a\n'),
  'core-volume-unknown-field': dep('      volumes:\n        - name: v\n          emptyDir:\n            medium: Memory\n            sizeLimt: 1Gi\n          secret:\n            secretName: s\n            items:\n              - key: k\n                path: p\n                mod: 1\n'),
  'core-volume-missing-name': dep('      volumes:\n        - configMap: {name: c}\n'),
  'core-int-or-string': dep('      resources:\n        limits:\n          cpu: true\n          memory: [1]\n        requests:\n          cpu: 1\n      volumes:\n        - name: v\n          emptyDir:\n            sizeLimit: {a: 1}\n'),
  'core-container': dep(
    '      extraContainers:\n        - image: x\n          imagePullPolicy: Sometimes\n          ports:\n            - containerPort: http\n              protocl: TCP\n          env:\n            - name: A\n              valueFrom:\n                secretKeyRef: {name: s}\n                configMapRef: {}\n          livenessProbe:\n            httpGet:\n              port: [80]\n',
  ),
  'core-affinity-tolerations': dep(
    '      tolerations:\n        - effect: Sometimes\n          tolerationSeconds: soon\n      affinity:\n        nodeAffinity:\n          requiredDuringSchedulingIgnoredDuringExecution:\n            nodeSelectorTerms:\n              - matchExpressions:\n                  - key: k\n                    operator: Near\n                    valus: [a]\n      securityContext:\n        capabilities: {add: [1], remove: [x]}\n      podSecurityContext:\n        sysctls: [{name: a}]\n',
  ),
  'maps-and-types': dep('      labels:\n        a: 1\n        b: [x]\n      nodeSelector: x\n      replicas: "two"\n      env: {}\n      volumeMounts: [1, null]\n'),
  'formats-and-patterns': agent(
    '  declarative: {}\n  iconUrl: not a uri\n  documentationUrl: "http://exa mple.com"\n  provider:\n    url: \"::\"\n  skills:\n    objectStoreRefs:\n      - uri: gs://wrong\n',
  ),
  'status-date-time': `${doc('ModelProviderConfig', '  type: ProviderD\n  endpoint: ftp://x\n')}status:\n  lastDiscoveryTime: yesterday\n  conditions:\n    - type: Ready\n      status: "True"\n      lastTransitionTime: 2024-13-45T99:00:00Z\n      reason: r\n      message: m\n    - type: Other\n`,
  'cel-on-schema-failure': agent('  type: BYO\n  byo: 3\n'),
  'cel-error-keys': agent('  type: Declarative\n  declarative:\n    tools:\n      - type: McpServer\n        mcpServer:\n          name: t\n          toolNames: 3\n          requireApproval: [a]\n'),
  'quoted-keys': agent('  declarative:\n    deployment:\n      "weird key": 1\n      labels:\n        "a.b/c": 2\n'),
  'mcpserver': `apiVersion: agentplat.dev/v1alpha1\nkind: MCPServer\nmetadata:\n  name: m\nspec:\n  bogus: 1\n  deployment:\n    image: 3\n    volumes: [{name: v, hostPath: {}}]\n`,
  'mcpserver-wrong-version': `apiVersion: agentplat.dev/v1alpha2\nkind: MCPServer\nmetadata:\n  name: m\nspec: {}\n`,
  'empty-docs': '---\n---\n# nothing\n',
};

/** File name → YAML text of every failing resource. */
export function failingCorpus(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const c of CEL_CASES) out[`cel-${c.id.replace(/\//g, '-')}.yaml`] = c.bad;
  for (const [id, l] of LIMITS) out[`limit-${id}-${l.kind}-${l.path.replace(/[^\w.-]/g, '_')}-${l.keyword}.yaml`] = buildLimitDoc(l, true).yaml;
  for (const [name, text] of Object.entries(EDGES)) out[`edge-${name}.yaml`] = text;
  return out;
}

/** Writes the corpus into `dir` (created), one file per resource. */
export function writeFailingCorpus(dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const names = Object.keys(failingCorpus()).sort();
  const corpus = failingCorpus();
  for (const n of names) writeFileSync(join(dir, n), corpus[n]!);
  return names;
}
