// `agentplat values --computed`: the values a release renders from (the one merge lint and render
// make, lintRelease), and with --show-origin where each leaf came from. Run in-process (the run()
// the executable calls, memory streams); values files are written by each test.
import { describe, expect, it } from 'vitest';
import { runInProcess } from './in-process.ts';
import { tempFiles } from '../helpers/temp-dir.ts';
import { lintRelease } from '../../src/pipeline/render.ts';
import { loadUserLayers } from '../../src/values/load.ts';

const folder = (files: Record<string, string>) => tempFiles('agentplat-values-', files);

async function ok(args: string[], cwd: string, stdin?: string): Promise<string> {
  const r = await runInProcess(['values', '--computed', ...args], { cwd, ...(stdin !== undefined ? { stdin } : {}) });
  expect(r.stderr).toBe('');
  expect(r.code).toBe(0);
  return r.stdout;
}

/** The text table's row of `key`: [value, origin]. */
function row(table: string, key: string): [string, string] | undefined {
  const line = table.split('\n').find((l) => l.startsWith(`${key} `));
  if (!line) return undefined;
  const [, value, origin] = /^\S+ +(.*?) {2,}(\S.*)$/.exec(line)!;
  return [value!, origin!];
}

/** Revision A values that the migration to B rewrites in each of its ways: renamed, moved, reshaped, left alone. */
const A_VALUES = `controller:
  auth:
    mode: unsecure
  replicas: 2
  goAgentImage:
    tag: "0.9"
substrateWorkerPool:
  ateomImage: my/worker:1
ui:
  env: {FOO: bar}
otel:
  tracing:
    enabled: true
    exporter:
      otlp:
        endpoint: collector:4317
`;

const PROD = 'controller:\n  replicas: 2\n  image:\n    tag: "1.2"\nui:\n  replicas: 1\n';

describe('values --computed', () => {
  it('prints the values render renders from: the same tree lintRelease makes of the same layers', async () => {
    const dir = folder({ 'prod.yaml': PROD });
    const args = ['-f', 'prod.yaml', '--set', 'controller.replicas=3'];
    const printed = JSON.parse(await ok([...args, '-o', 'json'], dir));
    const loaded = await loadUserLayers({ values: ['prod.yaml'], set: ['controller.replicas=3'] }, { cwd: dir, readStdin: () => Promise.reject(new Error('no stdin in this test')) });
    const { layered } = lintRelease({ revision: 'B', layers: loaded.sources, namespace: 'default', apiVersions: [] });
    expect(printed).toEqual(layered.values);
    expect(printed.controller.replicas).toBe(3);
    // and render renders that value
    const render = await runInProcess(['render', ...args, '-s', 'templates/controller-deployment.yaml', '-o', 'json'], { cwd: dir });
    expect(render.code).toBe(0);
    expect(JSON.parse(render.stdout).items[0].spec.replicas).toBe(3);
  });

  it('a key set in a file and overridden by --set shows the --set value with origin --set #1; the file\'s other keys show file:line:column', async () => {
    const dir = folder({ 'prod.yaml': PROD });
    const table = await ok(['-f', 'prod.yaml', '--set', 'ui.replicas=2,controller.replicas=3', '--show-origin'], dir);
    expect(table.split('\n')[0]).toMatch(/^KEY +VALUE +ORIGIN$/);
    expect(row(table, 'controller.replicas')).toEqual(['3', '--set #1']);
    expect(row(table, 'controller.image.tag')).toEqual(['"1.2"', 'prod.yaml:4:5']);
    expect(row(table, 'ui.replicas')).toEqual(['2', '--set #1']);
  });

  it('a later --set is named by its number, and a later -f file wins over an earlier one at its own line and column', async () => {
    const dir = folder({ 'a.yaml': PROD, 'b.yaml': '# override\ncontroller:\n    replicas: 5\n' });
    const table = await ok(['-f', 'a.yaml,b.yaml', '--set', 'ui.replicas=2', '--set', 'controller.loglevel=debug', '--show-origin'], dir);
    expect(row(table, 'controller.replicas')).toEqual(['5', 'b.yaml:3:5']);
    expect(row(table, 'controller.image.tag')).toEqual(['"1.2"', 'a.yaml:4:5']);
    expect(row(table, 'controller.loglevel')).toEqual(['"debug"', '--set #2']);
  });

  it('a key that changes nothing rendered says so after its origin, naming the key and why, as lint does; -o json gives the verdict under noEffect', async () => {
    const dir = folder({ 'v.yaml': 'ui:\n  httpRoute:\n    hostnames: [a.example.com]\ncontroller:\n  replicas: 1\n  loglevel: debug\n' });
    const table = await ok(['-f', 'v.yaml', '--show-origin'], dir);
    expect(row(table, 'ui.httpRoute.hostnames[0]')).toEqual(['"a.example.com"', 'v.yaml:3:17  (`ui.httpRoute.hostnames` has no effect: `ui.httpRoute.enabled` is false, so nothing renders from it)']);
    expect(row(table, 'controller.replicas')).toEqual(['1', "v.yaml:5:3  (`controller.replicas` is set to the chart's default)"]);
    expect(row(table, 'controller.loglevel')).toEqual(['"debug"', 'v.yaml:6:3']);
    const json = JSON.parse(await ok(['-f', 'v.yaml', '--show-origin', '-o', 'json'], dir)) as { origins: Record<string, { noEffect?: unknown }> };
    expect(json.origins['ui.httpRoute.hostnames[0]']!.noEffect).toEqual({ rule: 'values/no-effect', key: 'ui.httpRoute.hostnames', why: '`ui.httpRoute.enabled` is false, so nothing renders from it' });
    expect(json.origins['controller.loglevel']!.noEffect).toBeUndefined();
  });

  it('keys nobody set show default (revision X) of the revision asked for', async () => {
    const dir = folder({});
    const a = await ok(['-r', 'A', '--show-origin'], dir);
    expect(row(a, 'controller.image.repository')?.[1]).toBe('default (revision A)');
    const b = await ok(['--show-origin'], dir);
    const rows = b.split('\n').slice(1).filter((l) => l !== '');
    expect(rows.length).toBeGreaterThan(50);
    for (const l of rows) expect(l).toMatch(/ {2}default \(revision B\)$/);
  });

  it('.agentplat.yaml decides as it does for render: its revision, and its ignoreKeys let a file with anchor keys through', async () => {
    const dir = folder({ '.agentplat.yaml': "revision: A\nignoreKeys: ['x-*']\n", 'v.yaml': 'x-common: &r 2\ncontroller:\n  replicas: *r\n' });
    const table = await ok(['-f', 'v.yaml', '--show-origin'], dir);
    expect(row(table, 'controller.image.repository')?.[1]).toBe('default (revision A)');
    expect(row(table, 'controller.replicas')).toEqual(['2', 'v.yaml:3:3']);
    const render = await runInProcess(['render', '-f', 'v.yaml'], { cwd: dir });
    expect(render.code).toBe(0);
  });

  it('stdin and --set-file are named as the linter names them: <stdin>:line:column and --set-file #n', async () => {
    const dir = folder({ 'ca.pem': '-----BEGIN CERTIFICATE-----\nabc\n-----END CERTIFICATE-----\n' });
    const table = await ok(['-f', '-', '--set-file', 'controller.loglevel=ca.pem', '--show-origin'], dir, '# from stdin\nui:\n  replicas: 2\n');
    expect(row(table, 'ui.replicas')).toEqual(['2', '<stdin>:3:3']);
    expect(row(table, 'controller.loglevel')?.[1]).toBe('--set-file #1');
  });

  it('a key the user replaces as a whole (a probe) shows only what the user wrote, as render renders it', async () => {
    const dir = folder({ 'p.yaml': 'controller:\n  readinessProbe:\n    exec:\n      command: [cat, /tmp/ready]\n' });
    const table = await ok(['-f', 'p.yaml', '--show-origin'], dir);
    expect(row(table, 'controller.readinessProbe.exec.command[0]')).toEqual(['"cat"', 'p.yaml:4:17']);
    expect(table).not.toMatch(/^controller\.readinessProbe\.httpGet/m);
  });

  it('secret fields are masked in YAML, JSON and the origin table, wherever the secret was written', async () => {
    const secret = 'sk-not-for-your-eyes-42';
    // Keys that are rendered (an apiKey of a block that is not the default is reported as unused).
    const dir = folder({ 's.yaml': `providers:\n  providerB:\n    apiKey: ${secret}\n` });
    for (const extra of [[], ['-o', 'json'], ['--show-origin'], ['--show-origin', '-o', 'json']]) {
      const out = await ok(['-f', 's.yaml', '--set', `authproxy.config.clientSecret=${secret}-b`, ...extra], dir);
      expect(out).not.toContain('not-for-your-eyes');
      expect(out).toContain('********');
    }
    const table = await ok(['-f', 's.yaml', '--show-origin'], dir);
    expect(row(table, 'providers.providerB.apiKey')).toEqual(['"********"', 's.yaml:3:5']);
  });

  it('-o json --show-origin gives {values, origins}: each leaf path with its source, and line and column where they apply', async () => {
    const dir = folder({ 'prod.yaml': PROD });
    const out = JSON.parse(await ok(['-f', 'prod.yaml', '--set', 'controller.replicas=3', '--show-origin', '-o', 'json'], dir));
    expect(Object.keys(out)).toEqual(['values', 'origins']);
    expect(out.values.controller.replicas).toBe(3);
    expect(out.origins['controller.replicas']).toEqual({ source: '--set #1', column: 1 });
    expect(out.origins['controller.image.tag']).toEqual({ source: 'prod.yaml', line: 4, column: 5 });
    expect(out.origins['controller.image.repository']).toEqual({ source: 'default (revision B)' });
    // every leaf has an origin and nothing else does
    expect(out.origins['controller.image']).toBeUndefined();
  });

  it('without --show-origin: YAML by default, the plain values object with -o json', async () => {
    const dir = folder({ 'prod.yaml': PROD });
    const yaml = await ok(['-f', 'prod.yaml'], dir);
    expect(yaml).toMatch(/^controller:\n {2}replicas: 2\n/);
    const json = JSON.parse(await ok(['-f', 'prod.yaml', '-o', 'json'], dir));
    expect(json.controller.replicas).toBe(2);
  });

  it('values with an error print the problems on stderr as render does, exit 1 and print nothing on stdout', async () => {
    const dir = folder({ 'bad.yaml': 'controller:\n  replicas: "x"\n' });
    for (const extra of [[], ['--show-origin'], ['-o', 'json']]) {
      const r = await runInProcess(['values', '--computed', '-f', 'bad.yaml', '--no-color', ...extra], { cwd: dir });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/bad\.yaml:2:3 +error +`controller\.replicas` must be an integer/);
    }
    const syntax = await runInProcess(['values', '--computed', '--set', 'controller.replicas'], { cwd: dir });
    expect(syntax.code).toBe(1);
    expect(syntax.stdout).toBe('');
    expect(syntax.stderr).toMatch(/--set #1/);
  });

  it('layer flags, --show-origin or -o json without --computed are usage errors that point at --computed', async () => {
    for (const args of [['-f', 'x.yaml'], ['--set', 'a=b'], ['--show-origin'], ['-o', 'json']]) {
      const r = await runInProcess(['values', ...args]);
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/add --computed/);
    }
  });

  it('--from-revision A migrates the values first; every key the migration wrote shows "migration from key K (file:line:column)" of the user\'s file, a key it left alone its own place', async () => {
    const dir = folder({ 'a.yaml': A_VALUES });
    const r = await runInProcess(['values', '--computed', '--from-revision', 'A', '-f', 'a.yaml', '--set', 'controller.goAgentImage.registry=r.example', '--show-origin'], { cwd: dir });
    expect(r.code).toBe(0);
    // the report of what moved goes to stderr, as diff prints it
    expect(r.stderr).toMatch(/^the values, migrated from revision A to B/);
    // each step at the file:line:col of its key, as plan and diff print it
    expect(r.stderr).toMatch(/\n {2}a\.yaml:\d+:\d+: otel\.tracing\.enabled: moved to otel\.traces\.enabled/);
    expect(r.stderr).toContain('\n  --set #1:1:1: controller.goAgentImage.registry: moved to controller.agentImage.registry');
    const table = r.stdout;
    // insecure is revision B's default: the row says so (values/same-as-default)
    expect(row(table, 'controller.auth.mode')).toEqual(['"insecure"', "migration from key controller.auth.mode (a.yaml:3:5)  (`controller.auth.mode` is set to the chart's default)"]);
    expect(row(table, 'controller.agentImage.tag')).toEqual(['"0.9"', 'migration from key controller.goAgentImage.tag (a.yaml:6:5)']);
    expect(row(table, 'controller.agentImage.registry')).toEqual(['"r.example"', 'migration from key controller.goAgentImage.registry (--set #1)']);
    // the pool is off by default: the migrated key renders nothing, and the row says why
    expect(row(table, 'substrateWorkerPool.workerImage')).toEqual(['"my/worker:1"', 'migration from key substrateWorkerPool.ateomImage (a.yaml:8:3)  (`substrateWorkerPool.workerImage` has no effect: `substrateWorkerPool.create` is false, so nothing renders from it)']);
    expect(row(table, 'otel.traces.enabled')).toEqual(['true', 'migration from key otel.tracing.enabled (a.yaml:13:5)']);
    expect(row(table, 'otel.exporter.otlp.endpoint')).toEqual(['"http://collector:4317"', 'migration from key otel.tracing.exporter.otlp.endpoint (a.yaml:16:9)']);
    expect(row(table, 'ui.env[0].value')).toEqual(['"bar"', 'migration from key ui.env (a.yaml:10:3)']);
    // untouched by the migration: the user's own line, not a line of the migrated text
    expect(row(table, 'controller.replicas')).toEqual(['2', 'a.yaml:4:3']);
    expect(row(table, 'controller.image.repository')?.[1]).toBe('default (revision B)');
  });

  it('--from-revision A -o json: the origin of a migrated key has migratedFrom next to the source, line and column of that key', async () => {
    const dir = folder({ 'a.yaml': A_VALUES });
    const r = await runInProcess(['values', '--computed', '--from-revision', 'A', '-f', 'a.yaml', '--show-origin', '-o', 'json'], { cwd: dir });
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.values.otel.traces.enabled).toBe(true);
    expect(out.origins['otel.traces.enabled']).toEqual({ source: 'a.yaml', line: 13, column: 5, migratedFrom: 'otel.tracing.enabled' });
    expect(out.origins['controller.agentImage.tag']).toEqual({ source: 'a.yaml', line: 6, column: 5, migratedFrom: 'controller.goAgentImage.tag' });
    expect(out.origins['controller.replicas']).toEqual({ source: 'a.yaml', line: 4, column: 3 });
  });

  it('--from-revision is refused backwards (B to A) and without --computed, as usage errors', async () => {
    const back = await runInProcess(['values', '--computed', '--from-revision', 'B', '-r', 'A']);
    expect(back.code).toBe(2);
    expect(back.stderr).toMatch(/cannot migrate values from revision B to A/);
    const alone = await runInProcess(['values', '--from-revision', 'A']);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toMatch(/add --computed/);
  });

  it('completion offers the new flags of values', async () => {
    const r = await runInProcess(['complete', '--', 'values', '--']);
    expect(r.code).toBe(0);
    const offered = r.stdout.split('\n').map((l) => l.split('\t')[0]);
    for (const flag of ['--computed', '--show-origin', '--set', '--values', '--output']) expect(offered).toContain(flag);
  });
});
