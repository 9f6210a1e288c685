// `agentplat lsp` on a Flux HelmRelease and an Argo CD Application (issue 38): the values inside
// the object (spec.values, helm.valuesObject) are linted as `agentplat lint` lints the object,
// each finding at its position in the object's file (or in the ConfigMap's file beside it, when
// open); hover, completion and quick fixes work there with key paths relative to the values.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { indented, THREE_FINDINGS } from '../helpers/three-findings.ts';
import { ensureBuilt } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { LspClient, type Diagnostic, type TextEdit } from './client.ts';

beforeAll(() => ensureBuilt());

let client: LspClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

async function start(files: Record<string, string>): Promise<string> {
  const dir = tempDir('agentplat-lsp-gitops-');
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  client = new LspClient(dir);
  await client.initialize(dir);
  return dir;
}

const at = (d: Diagnostic) => [d.code, d.range.start.line + 1, d.range.start.character + 1, d.range.end.character + 1];

const HELMRELEASE = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: agentplat
  namespace: flux-system
spec:
  interval: 10m
  targetNamespace: agents
  chart:
    spec:
      chart: agentplat
      version: 0.11.x
      sourceRef:
        kind: HelmRepository
        name: agentplat
  values:
${indented(THREE_FINDINGS, 4)}`;

interface CodeAction {
  title: string;
  edit?: { changes: Record<string, TextEdit[]> };
}

describe('agentplat lsp in a GitOps object', () => {
  it("edit a HelmRelease's spec.values with the same results: diagnostics at their positions, hover, completion, the did-you-mean fix", async () => {
    const dir = await start({ 'helmrelease.yaml': HELMRELEASE });
    const uri = client!.open(join(dir, 'helmrelease.yaml'), HELMRELEASE);
    const diags = await client!.diagnostics(uri, 1);
    expect(diags.map((d) => [d.severity, ...at(d)])).toEqual([
      [1, 'values/unknown-key', 18, 7, 16],
      [1, 'values/pdb-thresholds-exclusive', 21, 9, 21],
      [2, 'values/no-effect', 24, 9, 18],
    ]);

    // Hover: the key path inside spec.values, the effective value from the object's own line.
    const hover = await client!.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 19, character: 10 } });
    expect(hover.contents.value).toContain('**controller.pdb.enabled** `bool` (revision B)');
    expect(hover.contents.value).toContain(`Effective value: \`true\` from ${join(dir, 'helmrelease.yaml')}:20`);
    const outside = await client!.request<unknown>('textDocument/hover', { textDocument: { uri }, position: { line: 6, character: 3 } });
    expect(outside).toBeNull();

    // Completion under spec.values.controller.
    const withLine = HELMRELEASE.replace('      replicass: 2\n', '      replicass: 2\n      \n');
    client!.change(uri, withLine);
    const items = await client!.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri }, position: { line: 18, character: 6 } });
    expect(items.map((i) => i.label)).toEqual(expect.arrayContaining(['image', 'tolerations', 'replicas']));
    expect(items.map((i) => i.label)).not.toContain('interval');

    // The did-you-mean fix, and the diagnostic goes.
    const version = client!.change(uri, HELMRELEASE);
    const typo = (await client!.diagnostics(uri, version)).find((d) => d.code === 'values/unknown-key')!;
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: typo.range, context: { diagnostics: [typo] } });
    const fixed = LspClient.applyEdits(HELMRELEASE, actions.find((a) => a.title === 'Change to `replicas`')!.edit!.changes[uri]!);
    expect(fixed).toBe(HELMRELEASE.replace('replicass:', 'replicas:'));
    const after = await client!.diagnostics(uri, client!.change(uri, fixed));
    expect(after.map((d) => d.code)).toEqual(['values/pdb-thresholds-exclusive', 'values/no-effect']);
  });

  it('a key with no effect in spec.values is removed by a quick fix', async () => {
    const text = HELMRELEASE.replace('      replicass: 2\n', '').replace('        minAvailable: 1\n', '');
    const dir = await start({ 'helmrelease.yaml': text });
    const uri = client!.open(join(dir, 'helmrelease.yaml'), text);
    const inert = (await client!.diagnostics(uri, 1)).find((d) => d.code === 'values/no-effect')!;
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: inert.range, context: { diagnostics: [inert] } });
    const fixed = LspClient.applyEdits(text, actions.find((a) => a.title.startsWith('Remove `ui.httpRoute.hostnames`'))!.edit!.changes[uri]!);
    expect(fixed).toBe(text.replace('        hostnames: [agents.example.com]\n', ''));
  });

  it("a finding in a ConfigMap's values is shown in the ConfigMap's file when it is open", async () => {
    const release = HELMRELEASE.replace(/ {2}values:\n[\s\S]*$/, '  valuesFrom:\n    - kind: ConfigMap\n      name: overrides\n');
    const configMap = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: overrides\n  namespace: flux-system\ndata:\n  values.yaml: |\n    controller:\n      replicass: 2\n';
    const dir = await start({ 'helmrelease.yaml': release, 'overrides.yaml': configMap });
    const cmUri = client!.open(join(dir, 'overrides.yaml'), configMap);
    const uri = client!.open(join(dir, 'helmrelease.yaml'), release);
    expect(await client!.diagnostics(uri, 1)).toEqual([]);
    const inConfigMap = await client!.diagnostics(cmUri);
    expect(inConfigMap.map(at)).toEqual([['values/unknown-key', 9, 7, 16]]);
  });

  it('an Application: hover inside helm.valuesObject is about the values key', async () => {
    const app = `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata:
  name: agentplat
  namespace: argocd
spec:
  destination:
    namespace: agents
    server: https://kubernetes.default.svc
  project: default
  source:
    repoURL: https://charts.example.com
    chart: agentplat
    targetRevision: 0.11.0
    helm:
      valuesObject:
        controller:
          replicas: 3
`;
    const dir = await start({ 'application.yaml': app });
    const uri = client!.open(join(dir, 'application.yaml'), app);
    expect(await client!.diagnostics(uri, 1)).toEqual([]);
    const hover = await client!.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 17, character: 12 } });
    expect(hover.contents.value).toContain('**controller.replicas** `int` (revision B)');
    expect(hover.contents.value).toContain('Effective value: `3`');
  });
});
