// The README's tour as data: its `sh` block taken from README.md (so a change to the README changes
// what the tests run), which lines need a cluster, the exit code each line's comment documents,
// and the files its lines read. test/docs/readme-tour.test.ts runs the offline lines against an
// installed pack; test/cluster/readme-tour.test.ts runs the whole tour, in order, against a real
// kube-apiserver with kubectl.
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(import.meta.dirname, '..', '..');
const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The command lines of the tour's `sh` block, in order: comment lines and blank lines dropped, a line ending in `\` joined with the next. */
export function tourLines(): string[] {
  const start = README.indexOf('\n## A tour\n');
  if (start < 0) throw new Error('README has no heading "## A tour"');
  const block = README.slice(start).match(/^```sh\n([\s\S]*?)^```$/m);
  if (!block) throw new Error('README "A tour" has no sh block');
  const joined = block[1]!.replace(/\\\n\s*/g, '');
  return joined.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
}

/** A line that needs a live cluster: it runs kubectl, or asks agentplat for --cluster. */
export const needsCluster = (line: string): boolean => /\bkubectl\b|\s--cluster\b/.test(line);

/** The exit code the line's comment documents, `(exit N` or `(exit N: why)`; 0 when it names none. */
export function documentedExit(line: string): number {
  const comment = line.match(/\s#\s.*$/)?.[0] ?? '';
  return Number(comment.match(/\(exit (\d)\b/)?.[1] ?? 0);
}

/** The tour's lines that need a cluster, in order. */
export const CLUSTER_LINES = [
  'agentplat crds -r B | kubectl apply --server-side --field-manager agentplat -f -',
  'kubectl wait --for=condition=Established crd -l app.kubernetes.io/part-of=agentplat --timeout=60s',
  'kubectl create namespace agentplat',
  'agentplat render --revision B -f values.yaml -n agentplat --skip-crds | kubectl apply --server-side --field-manager agentplat -f -',
  'agentplat render -r B -f values.yaml -n agentplat --skip-crds | KUBECTL_APPLYSET=true kubectl apply --server-side --field-manager agentplat -n agentplat --prune --applyset=agentplat -f -',
  'agentplat validate --cluster --revision B',
  'agentplat diff --cluster -f values-a.yaml --from-revision A --to-revision B -n agentplat',
  'agentplat render -r B -f values-b.yaml -n agentplat --skip-crds | KUBECTL_APPLYSET=true kubectl apply --server-side --field-manager agentplat -n agentplat --prune --applyset=agentplat -f -',
  'agentplat diff --cluster -f values-b.yaml -n agentplat --applyset agentplat',
];

/** The command of a line without its comment. */
export const command = (line: string): string => line.replace(/\s+#\s.*$/, '').trim();

/**
 * The files the tour's lines read, as a user would have them: values.yaml (and v.yaml) for
 * revision B with a key revision A does not know, values-a.yaml the values revision A was
 * installed with (a bundled agent kept: a decision for the migration), prod.yaml and
 * overrides.yaml valid in both revisions, the lint run's base and environments, a custom
 * resource under agents/, and stand-ins for the tools the lines pipe into.
 */
export const FIXTURES: Record<string, string> = {
  'values.yaml': 'global:\n  imageRegistry: registry.example.com\ncontroller:\n  replicas: 2\n',
  'v.yaml': 'global:\n  imageRegistry: registry.example.com\n',
  'values-a.yaml': '# the values revision A was installed with\ncontroller:\n  replicas: 2\n  auth:\n    mode: unsecure # A\'s word\nrollouts-agent:\n  enabled: true\n',
  'prod.yaml': 'controller:\n  replicas: 2\n',
  // The GitOps lines: a Flux HelmRelease of the chart, its values partly in a ConfigMap beside it.
  'clusters/prod/helmrelease.yaml': [
    'apiVersion: helm.toolkit.fluxcd.io/v2',
    'kind: HelmRelease',
    'metadata:',
    '  name: agentplat',
    '  namespace: flux-system',
    'spec:',
    '  interval: 10m',
    '  targetNamespace: agents',
    '  chart:',
    '    spec:',
    '      chart: agentplat',
    '      version: 0.11.x',
    '      sourceRef:',
    '        kind: HelmRepository',
    '        name: agentplat',
    '  valuesFrom:',
    '    - kind: ConfigMap',
    '      name: agentplat-values',
    '  values:',
    '    controller:',
    '      replicas: 2',
    '',
  ].join('\n'),
  'clusters/prod/values.yaml': ['apiVersion: v1', 'kind: ConfigMap', 'metadata:', '  name: agentplat-values', '  namespace: flux-system', 'data:', '  values.yaml: |', '    ui:', '      replicas: 2', ''].join('\n'),
  'prod-next.yaml': 'controller:\n  replicas: 3\n',
  'overrides.yaml': 'ui:\n  replicas: 2\n',
  'base.yaml': 'controller:\n  replicas: 2\n',
  'envs/dev/values.yaml': 'ui:\n  replicas: 1\n',
  'envs/prod/values.yaml': 'ui:\n  replicas: 3\n',
  'agents/team/helper.yaml': [
    'apiVersion: agentplat.dev/v1alpha2',
    'kind: Agent',
    'metadata:',
    '  name: helper',
    '  namespace: agentplat',
    'spec:',
    "  description: Answers questions about the team's services.",
    '  type: Declarative',
    '  declarative:',
    '    modelConfig: default-model-config',
    "    systemMessage: You answer questions about the team's services.",
    '',
  ].join('\n'),
  // kustomize is not installed here: the post-renderer passes the manifests through.
  'kustomize.sh': '#!/bin/sh\nexec cat\n',
  // A pager waits for a terminal: this one copies.
  'stand-ins/less': '#!/bin/sh\nexec cat\n',
};


/** Writes FIXTURES into `dir`, the stand-ins executable; returns the folder to put first on PATH (the stand-ins for tools that are not installed). */
export function writeTourFixtures(dir: string): string {
  for (const [name, text] of Object.entries(FIXTURES)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  chmodSync(join(dir, 'kustomize.sh'), 0o755);
  chmodSync(join(dir, 'stand-ins', 'less'), 0o755);
  return join(dir, 'stand-ins');
}
