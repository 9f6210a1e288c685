// `agentplat plan` through the CLI (in-process): the upgrade from A to B of the embedded defaults
// and of a fuller values file, a values change within B that re-creates an object, its exit codes
// (0 nothing needs attention, 1 something does, 2 usage error or values that do not render), the
// JSON document, SARIF, and secrets masked as diff masks them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { ensureBuilt, STACK_TRACE, type RunResult } from './binary.ts';
import { runInProcess } from './in-process.ts';

const dir = tempDir('agentplat-plan-');

/** Revision A values with keys the migration renames, regroups, drops and leaves to decide. */
const FULLER_A = [
  'controller:', //                           1
  '  replicas: 2', //                         2
  '  auth:', //                               3
  '    mode: unsecure', //                    4
  '  toolRefreshInterval: 5m', //             5
  'rollouts-agent:', //                       6
  '  enabled: true', //                       7
  'ui:', //                                   8
  '  env:', //                                9
  '    LOG_LEVEL: debug', //                  10
  'otel:', //                                 11
  '  tracing:', //                            12
  '    enabled: true', //                     13
  '    exporter:', //                         14
  '      otlp:', //                           15
  '        endpoint: collector:4317', //      16
  '        insecure: true', //                17
  '',
].join('\n');

beforeAll(() => {
  ensureBuilt();
  writeFileSync(join(dir, 'fuller-a.yaml'), FULLER_A);
  writeFileSync(join(dir, 'replicas-a.yaml'), 'controller:\n  replicas: 2\n');
  writeFileSync(join(dir, 'class-standard.yaml'), 'database:\n  rdb:\n    bundled:\n      storageClassName: standard\n');
  writeFileSync(join(dir, 'class-fast.yaml'), 'database:\n  rdb:\n    bundled:\n      storageClassName: fast\n');
  writeFileSync(join(dir, 'bigger.yaml'), 'database:\n  rdb:\n    bundled:\n      storageClassName: standard\n      storage: 2Gi\n');
  writeFileSync(join(dir, 'broken.yaml'), 'controller:\n  replicas: [1\n');
  writeFileSync(join(dir, 'unknown.yaml'), 'controller:\n  replcas: 2\n');
});

const AGENTS = ['cluster', 'gateway', 'network-debug', 'network-manager', 'network-policy', 'observability', 'package-manager', 'query-language', 'rollouts', 'service-mesh'].map((a) => `${a}-agent`);

/** Each bundled agent is listed as deleted, with why (revision B ships none) and how to keep it (its render of A, applied; or the live object). */
function expectAgentsDeleted(stdout: string, renderOld: string, ns = 'default'): void {
  for (const name of AGENTS) {
    const source = `charts/${name}/templates/agent.yaml`;
    expect(stdout).toContain(
      `  delete  Agent.agentplat.dev ${ns}/${name}\n` +
        `      why:     revision B bundles no agents: nothing in revision B renders agentplat/${source}, whatever the values\n` +
        `      keep:    apply it yourself after the upgrade, outside the release: ${renderOld} --show-only ${source} | kubectl apply --server-side --field-manager agentplat -f - (or save the live object, with what was changed in the cluster, before the upgrade: kubectl get agent.agentplat.dev/${name} -n ${ns} -o yaml; `,
    );
  }
  expect(stdout.match(/^ {2}delete /gm)).toHaveLength(AGENTS.length);
}

async function plan(args: readonly string[]): Promise<RunResult> {
  const r = await runInProcess(['plan', ...args], { cwd: dir });
  expect(r.stderr).not.toMatch(STACK_TRACE);
  return r;
}

interface JsonPlan {
  version: number;
  tool: { name: string };
  from: { kind: string; revision: string; values: string[] };
  to: { kind: string; revision: string; values: string[] };
  attention: boolean;
  summary: Record<string, number | boolean>;
  migration: { file: string; line?: number; column?: number; path: string; kind: string; what: string; why: string }[];
  objects: { action: string; group: string; kind: string; namespace: string; name: string; source: string; changes?: unknown[]; replacement?: { refused: { field: string; reason: string }[]; deleteFirst: string; data?: string } }[];
  crds: unknown[];
  data: { kind: string; name: string; what: string; why: string }[];
  deletions: { group: string; kind: string; namespace: string; name: string; reason: string; why: string; keep: string }[];
}

describe('plan: a change of the values that changes nothing rendered', () => {
  it('nothing needs attention (exit 0), and the line after the summary names the keys that differ', async () => {
    writeFileSync(join(dir, 'route-a.yaml'), 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\n');
    const r = await plan(['-f', 'route-a.yaml', '--to-set', 'ui.httpRoute.hostnames[0]=b.example.com']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^nothing needs attention \(0 create, 0 update, 0 replace, 0 delete, \d+ unchanged\)\nthe values of the two sides differ at `ui\.httpRoute\.hostnames`, which changes nothing rendered/);
  });
});

describe('plan: a values change that mixes keys with and without effect', () => {
  it('the line after the summary names only the keys that change nothing rendered, and -o json has them as valuesWithoutEffect', async () => {
    writeFileSync(join(dir, 'route-a.yaml'), 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\n');
    const args = ['-f', 'route-a.yaml', '--to-set', 'ui.httpRoute.hostnames[0]=b.example.com,controller.replicas=3'];
    const r = await plan(args);
    expect(r.stderr).toMatch(/\(\d+ create, [1-9]\d* update, 0 replace, 0 delete, \d+ unchanged\)\nof the keys at which the values of the two sides differ, `ui\.httpRoute\.hostnames` changes nothing rendered/);
    expect(r.stderr).not.toContain('`controller.replicas`');
    const json = JSON.parse((await plan([...args, '-o', 'json'])).stdout) as { valuesWithoutEffect?: string[] };
    expect(json.valuesWithoutEffect).toEqual(['ui.httpRoute.hostnames']);
  });

  it('-o json of a values change that changes nothing rendered has every differing key as valuesWithoutEffect', async () => {
    writeFileSync(join(dir, 'route-a.yaml'), 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\n');
    const json = JSON.parse((await plan(['-f', 'route-a.yaml', '--to-set', 'ui.httpRoute.hostnames[0]=b.example.com', '-o', 'json'])).stdout) as { valuesWithoutEffect?: string[] };
    expect(json.valuesWithoutEffect).toEqual(['ui.httpRoute.hostnames']);
  });
});

describe('plan: the upgrade from A to B', () => {
  it('of the embedded defaults: every section, the ten bundled agents deleted, each with why and how to keep it; that needs attention (exit 1)', async () => {
    const r = await plan(['--from', 'A', '--to', 'B']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toMatch(/^Values migration \(revision A → B, as agentplat migrate does\)\n {2}nothing to migrate\n\nObjects: 0 to create, \d+ to update, 0 to replace, 10 to delete, \d+ unchanged\n/);
    expectAgentsDeleted(r.stdout, 'agentplat render --revision A');
    expect(r.stdout).toMatch(/ {2}update {2}Deployment\.apps default\/agentplat-controller: .*spec\.template\.spec\.containers\[name=controller\]\.image/);
    expect(r.stdout).toContain('\nCRD changes\n  none\n\nChanges that touch data\n  none\n');
    expect(r.stderr).toMatch(/^needs attention: 10 deletions \(0 create, \d+ update, 0 replace, 10 delete, \d+ unchanged\)\n$/);
  });

  it('of a values file that does not mention agents: the agents are still deleted, named with why and how to keep them (exit 1)', async () => {
    const r = await plan(['--from', 'A', '--to', 'B', '-f', 'replicas-a.yaml', '-n', 'agents']);
    expect(r.code, r.stderr).toBe(1);
    expect(r.stdout).toContain('Values migration (revision A → B, as agentplat migrate does)\n  nothing to migrate\n');
    expectAgentsDeleted(r.stdout, 'agentplat render --revision A -f replicas-a.yaml -n agents', 'agents');
    expect(r.stderr).toMatch(/^needs attention: 10 deletions \(/);
  });

  it('a value the user set that the migration drops (controller.toolRefreshInterval: 5m) needs attention alone: exit 1; revision A\'s default (60s) does not', async () => {
    const agents = ['rollouts-agent', 'network-debug-agent', 'network-manager-agent', 'network-policy-agent', 'package-manager-agent', 'service-mesh-agent', 'cluster-agent', 'gateway-agent', 'observability-agent', 'query-language-agent'];
    const noAgents = agents.map((a) => `${a}:\n  enabled: false\n`).join('');
    writeFileSync(join(dir, 'dropped-a.yaml'), `${noAgents}controller:\n  toolRefreshInterval: 5m\n`);
    writeFileSync(join(dir, 'default-a.yaml'), `${noAgents}controller:\n  toolRefreshInterval: 60s\n`);
    const dropped = await plan(['--from', 'A', '--to', 'B', '-f', 'dropped-a.yaml']);
    expect(dropped.stderr).toMatch(/^needs attention: 1 value you set that the migration drops \(0 create, \d+ update, 0 replace, 0 delete, \d+ unchanged\)\n$/);
    expect(dropped.code).toBe(1);
    const doc = JSON.parse((await plan(['--from', 'A', '--to', 'B', '-f', 'dropped-a.yaml', '-o', 'json'])).stdout) as JsonPlan;
    expect(doc.summary).toMatchObject({ delete: 0, decisions: 0, droppedSettings: 1, attention: true });
    expect(doc.migration.find((m) => m.path === 'controller.toolRefreshInterval')).toMatchObject({ kind: 'removed', dropped: true });
    const kept = await plan(['--from', 'A', '--to', 'B', '-f', 'default-a.yaml']);
    expect(kept.stderr).toMatch(/^nothing needs attention \(/);
    expect(kept.code).toBe(0);
  });

  it('the keep advice of a deleted agent renders it as the release had it', async () => {
    const doc = JSON.parse((await plan(['--from', 'A', '--to', 'B', '-f', 'replicas-a.yaml', '-o', 'json'])).stdout) as JsonPlan;
    const keep = doc.deletions.find((d) => d.name === 'rollouts-agent')!.keep;
    const command = keep.match(/: (agentplat render [^|]+) \| kubectl apply --server-side --field-manager agentplat -f -/)![1]!.trim().split(' ');
    expect(command.slice(0, 2)).toEqual(['agentplat', 'render']);
    const rendered = await runInProcess(command.slice(1), { cwd: dir });
    expect(rendered.code, rendered.stderr).toBe(0);
    const old = await runInProcess(['render', '--revision', 'A', '-f', 'replicas-a.yaml'], { cwd: dir });
    const agentDoc = old.stdout.split(/^---\n/m).find((d) => d.includes('\n  name: rollouts-agent\n'))!;
    expect(rendered.stdout).toBe(`---\n${agentDoc}`);
  });

  it('of a fuller values file: each moved, dropped and to-decide key at the file:line:col of the key, and exit 1 for the decisions', async () => {
    const r = await plan(['--from', 'A', '--to', 'B', '-f', 'fuller-a.yaml']);
    expect(r.code, r.stderr).toBe(1);
    const migration = r.stdout.slice(0, r.stdout.indexOf('\n\n'));
    expect(migration).toContain('  fuller-a.yaml:4:5: controller.auth.mode: unsecure → insecure — ');
    expect(migration).toContain('  fuller-a.yaml:5:3: controller.toolRefreshInterval: removed — ');
    expect(migration).toContain('  fuller-a.yaml:6:1: rollouts-agent: decide: removed — ');
    expect(migration).toContain('  fuller-a.yaml:9:3: ui.env: map → list of {name, value} — ');
    expect(migration).toContain('  fuller-a.yaml:13:5: otel.tracing.enabled: moved to otel.traces.enabled — ');
    expect(migration).toContain('  fuller-a.yaml:17:9: otel.tracing.exporter.otlp.insecure: removed — ');
    // In the order of the user's lines.
    const lines = [...migration.matchAll(/^ {2}fuller-a\.yaml:(\d+):/gm)].map((m) => Number(m[1]));
    expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(r.stdout).toContain('  update  Deployment.apps default/agentplat-controller: ');
    expect(r.stderr).toMatch(/^needs attention: 10 deletions, 1 migration decision, 1 value you set that the migration drops \(/);
  });

  it('-o json: one document with the sides, the summary, the migration with positions and the objects', async () => {
    const r = await plan(['--from', 'A', '--to', 'B', '-f', 'fuller-a.yaml', '-o', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonPlan;
    expect(Object.keys(doc)).toEqual(['version', 'tool', 'from', 'to', 'attention', 'summary', 'migration', 'objects', 'crds', 'data', 'deletions']);
    expect(doc).toMatchObject({ version: 1, tool: { name: 'agentplat' }, from: { kind: 'render', revision: 'A', values: ['fuller-a.yaml'] }, to: { kind: 'render', revision: 'B' }, attention: true });
    expect(doc.summary).toMatchObject({ create: 0, replace: 0, delete: 10, decisions: 1, crdBreaks: 0, dataChanges: 0, attention: true });
    expect(doc.migration.find((m) => m.path === 'rollouts-agent')).toMatchObject({ file: 'fuller-a.yaml', line: 6, column: 1, kind: 'decide', what: 'removed' });
    expect(doc.objects.filter((o) => o.action === 'delete').map((o) => o.kind)).toEqual(Array(10).fill('Agent'));
    const controller = doc.objects.find((o) => o.kind === 'Deployment' && o.name === 'agentplat-controller')!;
    expect(controller).toMatchObject({ action: 'update', group: 'apps', namespace: 'default', source: 'agentplat/templates/controller-deployment.yaml' });
    expect(controller.changes!.length).toBeGreaterThan(0);
    expect(doc.deletions.map((d) => `${d.kind} ${d.namespace}/${d.name} ${d.reason}`)).toEqual(AGENTS.map((a) => `Agent default/${a} revision`));
    for (const d of doc.deletions) expect(d.keep).toContain(`agentplat render --revision A -f fuller-a.yaml --show-only charts/${d.name}/templates/agent.yaml | kubectl apply --server-side --field-manager agentplat -f -`);
    expect(r.stderr).toBe('');
  });

  it('-o json and -o sarif carry the deletions and exit 1 as the text does, on values that do not mention agents', async () => {
    const json = await plan(['--from', 'A', '--to', 'B', '-f', 'replicas-a.yaml', '-o', 'json']);
    expect(json.code).toBe(1);
    const doc = JSON.parse(json.stdout) as JsonPlan;
    expect(doc.attention).toBe(true);
    expect(doc.summary).toMatchObject({ delete: 10, decisions: 0, replace: 0, dataChanges: 0, crdBreaks: 0, attention: true });
    expect(doc.deletions.map((d) => d.name)).toEqual(AGENTS);
    const sarif = await plan(['--from', 'A', '--to', 'B', '-f', 'replicas-a.yaml', '--format', 'sarif']);
    expect(sarif.code).toBe(1);
    const results = (JSON.parse(sarif.stdout) as { runs: { results: { ruleId: string; level: string; message: { text: string }; locations?: { physicalLocation: { artifactLocation: { uri: string } } }[] }[] }[] }).runs[0]!.results;
    const deletes = results.filter((x) => x.ruleId === 'plan/delete');
    expect(deletes.map((x) => x.message.text.split(' is deleted: ')[0])).toEqual(AGENTS.map((a) => `Agent.agentplat.dev default/${a}`));
    for (const x of deletes) {
      expect(x.level).toBe('warning');
      expect(x.message.text).toMatch(/ is deleted: revision B bundles no agents: .*Hint: to keep it, apply it yourself after the upgrade, outside the release: agentplat render --revision A -f replicas-a\.yaml --show-only /);
      expect(x.locations![0]!.physicalLocation.artifactLocation.uri).toBe('replicas-a.yaml');
    }
  });
});

describe('plan: a values change within one revision', () => {
  it('another storage class for the bundled database re-creates its claim: the refused field, the delete command, the data lost; exit 1', async () => {
    const r = await plan(['-r', 'B', '-f', 'class-standard.yaml', '--to-values', 'class-fast.yaml', '-o', 'json']);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as JsonPlan;
    expect(doc.migration).toEqual([]);
    expect(doc.objects).toEqual([
      expect.objectContaining({
        action: 'replace',
        kind: 'PersistentVolumeClaim',
        name: 'agentplat-postgresql',
        replacement: { refused: [{ field: 'spec.storageClassName', reason: expect.stringContaining('immutable after creation') }], deleteFirst: 'kubectl delete persistentvolumeclaim/agentplat-postgresql -n default', data: expect.stringContaining('data is lost') },
      }),
    ]);
    expect(doc.data).toEqual([expect.objectContaining({ kind: 'PersistentVolumeClaim', name: 'agentplat-postgresql', what: 're-created' })]);
    const text = await plan(['-r', 'B', '-f', 'class-standard.yaml', '--to-values', 'class-fast.yaml']);
    expect(text.stdout).toContain('  replace PersistentVolumeClaim default/agentplat-postgresql\n      refused: spec.storageClassName: ');
    expect(text.stdout).toContain('      first:   kubectl delete persistentvolumeclaim/agentplat-postgresql -n default, then apply\n');
    expect(text.stderr).toMatch(/^needs attention: 1 replacement, 1 change that touches data \(/);
  });

  it('a larger claim for the bundled database is an update, and nothing needs attention (exit 0)', async () => {
    const r = await plan(['-r', 'B', '-f', 'class-standard.yaml', '--to-values', 'bigger.yaml', '-o', 'json']);
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout) as JsonPlan;
    expect(doc.objects.map((o) => `${o.action} ${o.kind}`)).toEqual(['update PersistentVolumeClaim']);
    expect(doc.attention).toBe(false);
  });

  it('secrets are masked as diff masks them: a changed password shows as changed, never as itself', async () => {
    // $(NAME) keeps the URL in the Deployment's env, where the kubelet expands it: a password in a string.
    const r = await plan(['-r', 'B', '--set', 'database.rdb.url=postgres://u:hunter2pw@db/x?application_name=$(K8S_POD_NAME)', '--to-set', 'database.rdb.url=postgres://u:other9pw@db/x?application_name=$(K8S_POD_NAME)', '-o', 'json']);
    expect(r.stdout).not.toMatch(/hunter2pw|other9pw/);
    expect(r.stdout).toContain('postgres://u:********@db/x?application_name=$(K8S_POD_NAME) (new value)');
  });
});

describe('plan: SARIF', () => {
  it('--format sarif: a migration decision at its file and line, a replacement with its delete command', async () => {
    const decisions = JSON.parse((await plan(['--from', 'A', '--to', 'B', '-f', 'fuller-a.yaml', '--format', 'sarif'])).stdout) as { runs: { results: { ruleId: string; level: string; message: { text: string }; locations?: { physicalLocation: { artifactLocation: { uri: string }; region: { startLine: number; startColumn: number } } }[] }[] }[] };
    const decide = decisions.runs[0]!.results.find((x) => x.ruleId === 'plan/migration-decision')!;
    expect(decide.level).toBe('warning');
    expect(decide.locations![0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'fuller-a.yaml' }, region: { startLine: 6, startColumn: 1 } });
    const r = await plan(['-r', 'B', '-f', 'class-standard.yaml', '--to-values', 'class-fast.yaml', '-o', 'sarif']);
    expect(r.code).toBe(1);
    const results = (JSON.parse(r.stdout) as typeof decisions).runs[0]!.results;
    expect(results.map((x) => x.ruleId).sort()).toEqual(['plan/data', 'plan/replace']);
    expect(results.find((x) => x.ruleId === 'plan/replace')!.message.text).toMatch(/^PersistentVolumeClaim default\/agentplat-postgresql must be re-created: .*Hint: kubectl delete persistentvolumeclaim\/agentplat-postgresql -n default, then apply/);
    // Code scanning drops a result without a location: the object findings sit at the start of the values file that makes the change.
    for (const x of results) expect(x.locations![0]!.physicalLocation).toEqual({ artifactLocation: { uri: 'class-fast.yaml' }, region: { startLine: 1, startColumn: 1 } });
  });
});

describe('plan: usage errors and values that do not render exit 2 with nothing on stdout', () => {
  it('a values file that is not YAML: file:line:col on stderr, exit 2', async () => {
    const r = await plan(['--from', 'A', '--to', 'B', '-f', 'broken.yaml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^old side \(revision A\):\nbroken\.yaml:\d+:\d+ +error /);
  });

  it('a values file with an unknown key: the lint problem at its line, exit 2', async () => {
    const r = await plan(['-r', 'B', '-f', 'unknown.yaml', '--to-set', 'controller.replicas=3']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('unknown.yaml:2:3');
  });

  it('nothing to compare, a revision pair migrate cannot do, two formats at once', async () => {
    for (const args of [['-r', 'B'], ['--from', 'B', '--to', 'A'], ['--from', 'A', '--to', 'B', '-o', 'json', '--format', 'sarif'], ['--from', 'A', '--to', 'B', '-o', 'yaml']]) {
      const r = await plan(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stdout).toBe('');
    }
  });
});
