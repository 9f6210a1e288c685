// `agentplat lsp` driven by a real client over stdio (issue 38): a values file's findings arrive
// as diagnostics where lint puts them, hover explains the key under the cursor, completion offers
// the keys under `controller.`, and a quick fix takes its finding away.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { THREE_FINDINGS } from '../helpers/three-findings.ts';
import { ensureBuilt, ROOT, runBin } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { LspClient, type Diagnostic, type TextEdit } from './client.ts';

beforeAll(() => ensureBuilt());

let client: LspClient | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

/** A folder with `.agentplat.yaml` and a values file, and a client started in it. */
async function workspace(config: string, values: string): Promise<{ dir: string; file: string }> {
  const dir = tempDir('agentplat-lsp-');
  mkdirSync(dir, { recursive: true });
  if (config) writeFileSync(join(dir, '.agentplat.yaml'), config);
  const file = join(dir, 'values.yaml');
  writeFileSync(file, values);
  client = new LspClient(dir);
  await client.initialize(dir);
  return { dir, file };
}

const at = (d: Diagnostic) => [d.code, d.range.start.line + 1, d.range.start.character + 1, d.range.end.character + 1];

interface CodeAction {
  title: string;
  edit?: { changes: Record<string, TextEdit[]> };
}

// The issue's file: a typo, a cross-field error and a key with no effect.
const VALUES = THREE_FINDINGS;

describe('agentplat lsp over stdio', () => {
  it('a file with a typo, a cross-field error and a key with no effect: the three diagnostics where lint puts them, with default rule levels', async () => {
    const { file } = await workspace('', VALUES);
    const uri = client!.open(file, VALUES);
    const diags = await client!.diagnostics(uri, 1);
    expect(diags.map((d) => [d.severity, ...at(d)])).toEqual([
      [1, 'values/unknown-key', 2, 3, 12],
      [1, 'values/pdb-thresholds-exclusive', 5, 5, 17],
      [2, 'values/no-effect', 8, 5, 14],
    ]);
    expect(diags[0]!.message).toContain('did you mean `replicas`?');
    expect(diags.every((d) => d.source === 'agentplat')).toBe(true);
  });

  it('hover on a key explains it: type, default, the effective value and where it comes from, the rules that read it', async () => {
    const values = 'controller:\n  replicas: 3\n';
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    await client!.diagnostics(uri, 1);
    const hover = await client!.request<{ contents: { kind: string; value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 4 } });
    expect(hover.contents.kind).toBe('markdown');
    const text = hover.contents.value;
    expect(text).toContain('**controller.replicas** `int` (revision B)');
    expect(text).toContain('Default: `1`');
    expect(text).toContain(`Effective value: \`3\` from ${file}:2`);
    expect(text).toMatch(/Deployment [^\n]*: spec\.replicas/);
    expect(text).toMatch(/Lint rules that read it: .*`values\/pdb-blocks-eviction`/);
  });

  /** The hover's text at a position of a values file of these contents, once its diagnostics are in. */
  async function hoverText(values: string, line: number, character: number): Promise<string> {
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    await client!.diagnostics(uri, 1);
    const hover = await client!.request<{ contents: { value: string } }>('textDocument/hover', { textDocument: { uri }, position: { line, character } });
    return hover.contents.value;
  }

  it('hover on a ServiceMonitor key names the ServiceMonitor it lands in and the API the cluster must serve for it', async () => {
    const text = await hoverText('controller:\n  metrics:\n    serviceMonitor:\n      labels: {}\n', 3, 8);
    expect(text).toContain('Renders into (when the cluster serves it: `-a monitoring.coreos.com/v1`):');
    expect(text).toMatch(/- ServiceMonitor agentplat-controller-metrics: metadata\.labels\.example/);
  });

  it('hover on a key of revision A only, in a revision B file, names revision A', async () => {
    expect(await hoverText('controller:\n  toolRefreshInterval: 30s\n', 1, 4)).toMatch(/exists only in revision A/);
  });

  it('completion under `controller.` offers its keys with type, default and description, and not the ones written', async () => {
    const values = 'controller:\n  replicas: 2\n  \n';
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    const items = await client!.request<{ label: string; detail: string; documentation: { value: string }; insertText?: string }[]>('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 2 } });
    const labels = items.map((i) => i.label);
    expect(labels).toContain('image');
    expect(labels).toContain('tolerations');
    expect(labels).not.toContain('replicas');
    expect(labels).not.toContain('controller');
    const pdb = items.find((i) => i.label === 'pdb')!;
    expect(pdb.detail).toBe('object');
    const tolerations = items.find((i) => i.label === 'tolerations')!;
    expect(tolerations.insertText).toMatch(/^tolerations:\n {2}- key: /);
  });

  it('completion of a value offers the words its key takes', async () => {
    const values = 'controller:\n  pdb:\n    enabled: \n';
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    const items = await client!.request<{ label: string }[]>('textDocument/completion', { textDocument: { uri }, position: { line: 2, character: 13 } });
    expect(items.map((i) => i.label).sort()).toEqual(['false', 'true']);
  });

  it('the did-you-mean quick fix writes the key meant, and the diagnostic goes', async () => {
    const values = 'controller:\n  replicass: 2\n';
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    const diags = await client!.diagnostics(uri, 1);
    const typo = diags.find((d) => d.code === 'values/unknown-key')!;
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: typo.range, context: { diagnostics: [typo] } });
    const fix = actions.find((a) => a.title === 'Change to `replicas`')!;
    const fixed = LspClient.applyEdits(values, fix.edit!.changes[uri]!);
    expect(fixed).toBe('controller:\n  replicas: 2\n');
    const version = client!.change(uri, fixed);
    expect((await client!.diagnostics(uri, version)).filter((d) => d.code === 'values/unknown-key')).toEqual([]);
  });

  it('the release namespace a rule asks for is added to the list by a quick fix', async () => {
    const values = 'rbac:\n  namespaces:\n    - team-a\n';
    const { file } = await workspace('editor:\n  namespace: agents\n', values);
    const uri = client!.open(file, values);
    const diags = await client!.diagnostics(uri, 1);
    const missing = diags.find((d) => d.code === 'values/rbac-release-namespace')!;
    expect(missing.message).toContain('"agents"');
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: missing.range, context: { diagnostics: [missing] } });
    const fixed = LspClient.applyEdits(values, actions.find((a) => a.title.startsWith('Add "agents"'))!.edit!.changes[uri]!);
    expect(fixed).toBe('rbac:\n  namespaces:\n    - team-a\n    - "agents"\n');
    const version = client!.change(uri, fixed);
    expect((await client!.diagnostics(uri, version)).map((d) => d.code)).not.toContain('values/rbac-release-namespace');
  });

  it('a key with no effect is removed by a quick fix', async () => {
    const values = 'ui:\n  replicas: 2\n  httpRoute:\n    hostnames: [agents.example.com]\n';
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    const inert = (await client!.diagnostics(uri, 1)).find((d) => d.code === 'values/no-effect')!;
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: inert.range, context: { diagnostics: [inert] } });
    const fixed = LspClient.applyEdits(values, actions.find((a) => a.title.startsWith('Remove'))!.edit!.changes[uri]!);
    expect(fixed).toBe('ui:\n  replicas: 2\n  httpRoute:\n');
  });

  it('a file written for revision A, linted as B, offers its migration as an edit', async () => {
    const values = 'controller:\n  toolRefreshInterval: 30s\n';
    const { file } = await workspace('', values);
    const uri = client!.open(file, values);
    const diags = await client!.diagnostics(uri, 1);
    const actions = await client!.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri }, range: diags[0]!.range, context: { diagnostics: diags } });
    const migrate = actions.find((a) => a.title.startsWith('Migrate this file from revision A to B'))!;
    expect(migrate).toBeDefined();
    const migrated = LspClient.applyEdits(values, migrate.edit!.changes[uri]!);
    const version = client!.change(uri, migrated);
    expect((await client!.diagnostics(uri, version)).filter((d) => d.severity === 1)).toEqual([]);
  });

  it('after a run of edits (a value the chart reads, a switch that turns a block on and off, a comment), the diagnostics are what `agentplat lint` reports for the final text', async () => {
    // The largest values file of the fixtures, as bench/lsp.mjs edits it, and edits that flip verdicts the server keeps between edits.
    const text = readFileSync(join(ROOT, 'fixtures', 'subcharts', 'authproxy-production.values.yaml'), 'utf8');
    const { file } = await workspace('', text);
    const uri = client!.open(file, text);
    await client!.diagnostics(uri, 1);
    const texts = [
      `${text}controller:\n  replicas: 3\n`,
      text.replace('authproxy:\n  enabled: true\n', 'authproxy:\n  enabled: false\n'),
      text.replace('  autoscaling:\n    enabled: true\n', '  autoscaling:\n    enabled: false\n'),
      `${text}# a comment\n`,
      text.replace('  autoscaling:\n    enabled: true\n', '  replicaCount: 2\n  autoscaling:\n    enabled: true\n'),
      text.replace('  autoscaling:\n    enabled: true\n', '  replicaCount: 2\n  autoscaling:\n    enabled: false\n'),
    ];
    const inert: string[][] = [];
    for (const t of texts) {
      const diags = await client!.diagnostics(uri, client!.change(uri, t));
      inert.push(diags.filter((d) => d.code === 'values/no-effect').map((d) => (d.data as { path: string }).path));
      writeFileSync(file, t);
      const lint = runBin(['lint', 'values.yaml', '--format', 'json'], { cwd: join(file, '..') });
      const reported = (JSON.parse(lint.stdout) as { files: { problems: { severity: string; rule: string; line?: number; column?: number; message: string; hint?: string }[] }[] }).files.flatMap((f) => f.problems);
      const severity = { error: 1, warning: 2, info: 3 } as Record<string, number>;
      expect(diags.map((d) => [d.severity, d.code, d.range.start.line + 1, d.range.start.character + 1, d.message])).toEqual(
        reported.map((p) => [severity[p.severity], p.rule, p.line, p.column, `${p.message}${p.hint ? `\n${p.hint}` : ''}`]),
      );
    }
    // A replica count beside autoscaling has no effect; once autoscaling is off, it has one.
    expect(inert[4]).toContain('authproxy.replicaCount');
    expect(inert[5]).not.toContain('authproxy.replicaCount');
  });

  it('the layers .agentplat.yaml lists lie under the open file, its unsaved text linted', async () => {
    const dir = tempDir('agentplat-lsp-');
    writeFileSync(join(dir, '.agentplat.yaml'), 'editor:\n  values: [base.yaml, values.yaml]\n');
    writeFileSync(join(dir, 'base.yaml'), 'controller:\n  pdb:\n    enabled: true\n    maxUnavailable: null\n');
    writeFileSync(join(dir, 'values.yaml'), '');
    client = new LspClient(dir);
    await client.initialize(dir);
    const uri = client.open(join(dir, 'values.yaml'), 'controller:\n  pdb:\n    minAvailable: 1\n');
    expect((await client.diagnostics(uri, 1)).map(at)).toEqual([['values/pdb-blocks-eviction', 3, 5, 17]]);
  });

  it('a mistake in .agentplat.yaml is a diagnostic naming the file and line, not a crash', async () => {
    const { file } = await workspace('editor:\n  namespaces: agents\n', 'controller: {}\n');
    const uri = client!.open(file, 'controller: {}\n');
    const [d] = await client!.diagnostics(uri, 1);
    expect(d!.message).toMatch(/\.agentplat\.yaml:2:3: unknown setting `editor\.namespaces`/);
    expect(d!.message).toContain('did you mean `namespace`?');
  });
});
