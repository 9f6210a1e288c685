import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { migrateValues } from '../../src/pipeline/migrate.ts';
import { expectGolden, ROOT } from '../cli-formats/helpers.ts';
import { runInProcess } from '../cli/in-process.ts';

const FIXTURES = join(ROOT, 'fixtures/migrate');
const inputs = readdirSync(FIXTURES).filter((f) => f.endsWith('-a.yaml')).sort();
const tmp = mkdtempSync(join(tmpdir(), 'agentplat-migrate-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** Migrates A text (no file needed); returns the B text and the report lines. */
async function migrate(text: string) {
  const r = await migrateValues(text, 'values.yaml', 'A', 'B');
  return { ...r, lines: r.changes.map((c) => `${c.path} ${c.kind}`) };
}

describe('migrate A → B: every fixture round-trips', () => {
  it('has fixtures', () => expect(inputs.length).toBeGreaterThanOrEqual(3));

  for (const name of inputs) {
    const base = name.replace(/-a\.yaml$/, '');
    it(`${name}: migrates as reviewed, then lints clean and renders in revision B`, async () => {
      const m = await runInProcess(['migrate', '--from', 'A', '--to', 'B', '-f', `fixtures/migrate/${name}`]);
      expectGolden(`fixtures/migrate/expected/${base}-b.yaml`, m.stdout);
      expectGolden(`fixtures/migrate/expected/${base}.report.txt`, m.stderr);
      expect(m.code).toBe(m.stderr.includes(': decide: ') ? 1 : 0);

      const migrated = join(tmp, `${base}-b.yaml`);
      writeFileSync(migrated, m.stdout);
      // lint takes render's namespace: the two decide alike for the same release.
      // --no-effects: the migrated files keep keys B renders nothing from (a registry under
      // global.imageRegistry, the worker pool of a substrate left off), which lint names as
      // values/no-effect; migrate keeps what the user wrote, and this test is about its validity.
      const lint = await runInProcess(['lint', '--revision', 'B', '-n', 'agentplat', '--no-effects', '-f', migrated]);
      // clean: no error or warning (an evaluation setup keeps the bundled database, which is noted as an info)
      expect(lint.stdout.trimEnd().split('\n').at(-1)).toMatch(/^1 file, 0 errors, 0 warnings(, 1 info)?$/);
      expect(lint.code).toBe(0);

      const render = await runInProcess(['render', '--revision', 'B', '-n', 'agentplat', '-f', migrated]);
      expect(render.stderr.split('\n').filter((l) => / {2}(error|warning) {2}/.test(l))).toEqual([]);
      expect(render.code).toBe(0);
      expect(render.stdout).toContain('kind: Deployment');
    });
  }
});

describe('migrate A → B: what is kept', () => {
  it('keeps comments and key order', async () => {
    const { text } = await migrate(readFileSync(join(FIXTURES, 'production-a.yaml'), 'utf8'));
    for (const comment of ['# Owner: platform team.', '# Network policies isolate the controller', '# two replicas for rolling upgrades', '# Go runtime from the mirror', '# Shown in the header bar.', '# megabytes'])
      expect(text).toContain(comment);
    expect(Object.keys(parse(text!))).toEqual(['registry', 'imagePullPolicy', 'imagePullSecrets', 'rbac', 'controller', 'ui', 'database', 'otel']);
  });

  it('returns a file revision B already accepts unchanged, byte for byte', async () => {
    const text = '# mine\ncontroller:\n  replicas: 2 # two\n\nui:\n  replicas: 1\n';
    const r = await migrate(text);
    expect(r.text).toBe(text);
    expect(r.changes).toEqual([]);
    expect(r.decisionsLeft).toBe(false);
  });

  it('keeps the controller pod keys and provider config/tls both revisions take, byte for byte', async () => {
    const text =
      'controller:\n  imagePullSecrets:\n    - name: ctrl\n  podSecurityContext:\n    runAsUser: 1001\n  securityContext:\n    privileged: false\n' +
      'providers:\n  providerB:\n    config:\n      baseUrl: https://gateway.example/v1\n    tls:\n      caCertSecretRef: ca\n      caCertSecretKey: ca.crt\n';
    const r = await migrate(text);
    expect(r.text).toBe(text);
    expect(r.changes).toEqual([]);
    expect(r.problems.filter((p) => p.severity === 'error')).toEqual([]);
  });

  it('keeps an explicit IfNotPresent pull policy and says nothing about it', async () => {
    const r = await migrate('imagePullPolicy: IfNotPresent\ndatabase:\n  rdb:\n    bundled:\n      image:\n        pullPolicy: IfNotPresent\n');
    expect(parse(r.text!)).toEqual({ imagePullPolicy: 'IfNotPresent', database: { rdb: { bundled: { image: { pullPolicy: 'IfNotPresent' } } } } });
    expect(r.changes).toEqual([]);
  });

  it('keeps rbac.namespaces under rbac (in B the rbac key overrides global.watchNamespaces)', async () => {
    const r = await migrate('rbac:\n  namespaces: [team-a]\n');
    expect(parse(r.text!)).toEqual({ rbac: { namespaces: ['team-a'] } });
    expect(r.changes).toEqual([]);
  });

  it('keeps the user\'s spelling of flow sequences and maps: [a] stays [a], [ a ] stays [ a ]', async () => {
    const tight = 'ui:\n  httpRoute:\n    enabled: true\n    hostnames: [agents.example.com]\n    parentRefs: [{name: gw}]\ncontroller:\n  toolRefreshInterval: 30s\n  replicas: 2\n';
    expect((await migrate(tight)).text).toBe('ui:\n  httpRoute:\n    enabled: true\n    hostnames: [agents.example.com]\n    parentRefs: [{name: gw}]\ncontroller:\n  replicas: 2\n');
    const padded = 'rbac:\n  namespaces: [ team-a, team-b ]\ncontroller:\n  toolRefreshInterval: 30s\n  replicas: 2\n';
    expect((await migrate(padded)).text).toBe('rbac:\n  namespaces: [ team-a, team-b ]\ncontroller:\n  replicas: 2\n');
  });

  it('leaves trusted-proxy mode alone and renames unsecure to insecure', async () => {
    expect((await migrate('controller:\n  auth:\n    mode: trusted-proxy\n')).changes).toEqual([]);
    expect(parse((await migrate('controller:\n  auth:\n    mode: unsecure\n')).text!)).toEqual({ controller: { auth: { mode: 'insecure' } } });
  });
});

describe('migrate A → B: telemetry', () => {
  const otel = (body: string) => migrate(`otel:\n${body}`);

  it('moves equal endpoints to the shared exporter and adds the scheme from insecure', async () => {
    const r = await otel('  logging:\n    enabled: true\n    exporter: {otlp: {endpoint: "c:4317"}}\n  tracing:\n    enabled: true\n    exporter: {otlp: {endpoint: "c:4317"}}\n');
    expect(parse(r.text!).otel).toEqual({ exporter: { otlp: { endpoint: 'http://c:4317' } }, logs: { enabled: true }, traces: { enabled: true } });
    expect(r.decisionsLeft).toBe(false);
  });

  it('keeps a different logs endpoint as the per-signal override', async () => {
    const r = await otel('  tracing:\n    exporter:\n      otlp:\n        endpoint: https://t:4317\n  logging:\n    exporter:\n      otlp:\n        endpoint: https://l:4317\n');
    expect(parse(r.text!).otel).toEqual({ exporter: { otlp: { endpoint: 'https://l:4317' } }, traces: { endpoint: 'https://t:4317' } });
  });

  it('asks the user when the two signals had different timeouts', async () => {
    const r = await otel('  logging:\n    exporter: {otlp: {timeout: 5000}}\n  tracing:\n    exporter: {otlp: {timeout: 20000}}\n');
    expect(parse(r.text!).otel).toEqual({ exporter: { otlp: { timeout: '5000' } } });
    expect(r.lines).toContain('otel.tracing.exporter.otlp.timeout decide');
    expect(r.decisionsLeft).toBe(true);
  });

  it('asks the user when insecure contradicts the endpoint scheme', async () => {
    const r = await otel('  tracing:\n    exporter: {otlp: {endpoint: "https://t:4317", insecure: true}}\n');
    expect(r.lines).toContain('otel.tracing.exporter.otlp.insecure decide');
  });

  it('translates protocol http to http/protobuf', async () => {
    expect(parse((await otel('  tracing:\n    exporter: {otlp: {protocol: http}}\n')).text!).otel).toEqual({ exporter: { otlp: { protocol: 'http/protobuf' } } });
  });
});

describe('migrate A → B: removed keys', () => {
  it('reports disabled bundled agents as removed and configured ones as decisions', async () => {
    const r = await migrate('cluster-agent:\n  enabled: false\ngateway-agent:\n  modelConfigRef: m\n');
    expect(r.text).toBe('{}\n');
    expect(r.lines).toEqual(['cluster-agent removed', 'gateway-agent decide']);
  });

  it('moves goAgentImage into agentImage, replacing the python image parts', async () => {
    const r = await migrate('controller:\n  agentImage:\n    repository: my/python\n  goAgentImage:\n    repository: my/go\n    pullPolicy: Always\n');
    expect(parse(r.text!)).toEqual({ controller: { agentImage: { repository: 'my/go' } } });
    expect(r.lines).toEqual(['controller.agentImage.repository removed', 'controller.goAgentImage.repository changed', 'controller.goAgentImage.pullPolicy removed']);
  });

  it('asks the user about a custom python runtime image', async () => {
    const r = await migrate('controller:\n  agentImage:\n    repository: my/python\n');
    expect(r.lines).toEqual(['controller.agentImage.repository decide']);
  });

  it.each([
    ['controller:\n  toolRefreshInterval: 30s\n', 'controller.toolRefreshInterval removed'],
    ['controller:\n  skillsInitImage: {tag: x}\n', 'controller.skillsInitImage removed'],
    ['controller:\n  a2aBaseUrl: ""\n', 'controller.a2aBaseUrl removed'],
    ['controller:\n  a2aBaseUrl: https://a\n', 'controller.a2aBaseUrl decide'],
    ['database:\n  rdb:\n    sessionRetentionDays: 0\n', 'database.rdb.sessionRetentionDays removed'],
    ['database:\n  rdb:\n    sessionRetentionDays: 7\n', 'database.rdb.sessionRetentionDays decide'],
    ['ui:\n  volumes:\n    nextjsCache: 1Gi\n', 'ui.volumes.nextjsCache removed'],
    ['controller:\n  substrate:\n    pauseImage: ""\n', 'controller.substrate.pauseImage removed'],
    ['controller:\n  substrate:\n    pauseImage: mirror/pause:3.10\n', 'controller.substrate.pauseImage decide'],
    ['ui:\n  backendInternalUrl: http://x\n', 'ui.backendInternalUrl decide'],
    ['controller:\n  substrate:\n    substrateApiInsecure: true\n', 'controller.substrate.substrateApiInsecure removed'],
    ['controller:\n  substrate:\n    defaultWorkerPool: {name: p}\n', 'controller.substrate.defaultWorkerPool decide'],
    ['substrateWorkerPool:\n  ateomImage: x\n', 'substrateWorkerPool.ateomImage changed'],
    ['controller:\n  agentDeployment:\n    nodeSelector: {pool: a}\n', 'controller.agentDeployment decide'],
    ['controller:\n  agentImage:\n    pullSecret: s\n', 'controller.agentImage.pullSecret decide'],
  ])('%j → %s', async (text, line) => {
    const r = await migrate(text);
    expect(r.lines).toEqual([line]);
    expect(r.decisionsLeft).toBe(line.endsWith('decide'));
  });

  it('turns the ui.env map into a list of {name, value} with string values', async () => {
    const r = await migrate('ui:\n  env:\n    A: 1\n    B: true\n    C: x\n');
    expect(parse(r.text!)).toEqual({ ui: { env: [{ name: 'A', value: '1' }, { name: 'B', value: 'true' }, { name: 'C', value: 'x' }] } });
  });
});

describe('agentplat migrate: command', () => {
  it('prints the migrated file on stdout and the report on stderr, reading stdin with -f -', async () => {
    const r = await runInProcess(['migrate', '-f', '-'], { stdin: 'controller:\n  toolRefreshInterval: 30s\n  replicas: 2\n' });
    expect(r.stdout).toBe('controller:\n  replicas: 2\n');
    expect(r.stderr).toBe(
"controller.toolRefreshInterval: removed — revision B has no setting for it; tool discovery refreshes on the controller's built-in schedule\n" +
        '1 change, 0 decisions left for you\n',
    );
    expect(r.code).toBe(0);
  });

  it('exits 1 when a decision is left', async () => {
    const r = await runInProcess(['migrate', '-f', '-'], { stdin: 'controller:\n  a2aBaseUrl: https://agents.example.com\n' });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('controller.a2aBaseUrl: decide: removed — ');
  });

  it.each([
    ['no -f', ['migrate']],
    ['B to A', ['migrate', '--from', 'B', '--to', 'A', '-f', 'fixtures/migrate/production-a.yaml']],
    ['an unknown revision', ['migrate', '--to', 'C', '-f', 'fixtures/migrate/production-a.yaml']],
    ['a missing file', ['migrate', '-f', 'fixtures/migrate/nope.yaml']],
  ])('exits 2 on %s', async (_name, args) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('agentplat migrate: the file as an argument, and --in-place', () => {
  const A_FILE = 'controller:\n  toolRefreshInterval: 30s # gone in B\n  replicas: 2 # keep me\n';
  const B_FILE = 'controller:\n  replicas: 2 # keep me\n';
  let n = 0;
  const fileWith = (text: string) => {
    const path = join(tmp, `in-place-${n++}.yaml`);
    writeFileSync(path, text);
    return path;
  };

  it('a positional file migrates as -f does', async () => {
    const viaArgument = await runInProcess(['migrate', 'fixtures/migrate/production-a.yaml']);
    const viaFlag = await runInProcess(['migrate', '-f', 'fixtures/migrate/production-a.yaml']);
    expect(viaArgument).toEqual(viaFlag);
    expect(viaArgument.stdout).not.toBe('');
  });

  it('one file per run: an argument and -f together are refused (exit 2)', async () => {
    const r = await runInProcess(['migrate', 'fixtures/migrate/production-a.yaml', '-f', 'fixtures/migrate/production-a.yaml']);
    expect(r).toMatchObject({ code: 2, stdout: '' });
    expect(r.stderr).toContain('exactly one values file (an argument or -f), got 2');
  });

  it('--in-place writes the migrated text back into the file, its mode kept, and prints nothing on stdout', async () => {
    const path = fileWith(A_FILE);
    chmodSync(path, 0o640);
    const r = await runInProcess(['migrate', '--in-place', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('controller.toolRefreshInterval: removed');
    expect(readFileSync(path, 'utf8')).toBe(B_FILE);
    expect(statSync(path).mode & 0o777).toBe(0o640);
    expect(readdirSync(tmp).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('--in-place through a symbolic link rewrites the file it points to and keeps the link', async () => {
    const path = fileWith(A_FILE);
    const link = join(tmp, `link-${n++}.yaml`);
    symlinkSync(path, link);
    expect((await runInProcess(['migrate', '-i', '-f', link])).code).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe(B_FILE);
    expect(readFileSync(link, 'utf8')).toBe(B_FILE);
  });

  it('--in-place changes nothing when the input is broken, and refuses standard input', async () => {
    const broken = 'controller:\n  replicas: [1,\n';
    const path = fileWith(broken);
    const r = await runInProcess(['migrate', '--in-place', path]);
    expect(r.code).toBe(1);
    expect(readFileSync(path, 'utf8')).toBe(broken);
    const stdin = await runInProcess(['migrate', '--in-place', '-'], { stdin: A_FILE });
    expect(stdin).toMatchObject({ code: 2, stdout: '' });
    expect(stdin.stderr).toContain('--in-place needs a file');
  });

  it('--in-place that cannot write exits 2, names the file and leaves it as it was', async () => {
    const path = fileWith(A_FILE);
    // The temporary file beside it cannot be made: a folder holds its name.
    const name = path.split('/').pop()!;
    mkdirSync(join(tmp, `.${name}.agentplat-${process.pid}.tmp`));
    const r = await runInProcess(['migrate', '--in-place', path]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('cannot replace the file in place');
    expect(r.stderr).toContain('the file is unchanged');
    expect(readFileSync(path, 'utf8')).toBe(A_FILE);
  });
});

describe('agentplat migrate: input problems are reported as lint reports them', () => {
  it.each([
    ['an empty file', ''],
    ['a comments-only file', '# written by hand\n# nothing set yet\n'],
  ])('%s migrates to itself (never `null`) and exits 0', async (_name, text) => {
    const r = await runInProcess(['migrate', '-f', '-'], { stdin: text });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(text);
    expect(r.stdout).not.toContain('null');
  });

  it('a YAML syntax error gives lint\'s report, with line and column, and prints nothing', async () => {
    const text = 'controller:\n  replicas: [1,\nui: 2\n';
    const m = await runInProcess(['--no-color', 'migrate', '-f', '-'], { stdin: text });
    const l = await runInProcess(['--no-color', 'lint', '-f', '-'], { stdin: text });
    expect(m.code).toBe(1);
    expect(m.stdout).toBe('');
    expect(m.stderr).toMatch(/^<stdin>:\d+:\d+ {2}error {2}invalid YAML: .*\[values\/yaml-syntax\]$/m);
    expect(m.stderr).toBe(l.stdout);
  });

  it('an unknown revision names the flag it came from (--to, --from, --revision)', async () => {
    for (const flag of ['--to', '--from', '--revision', '-r']) {
      const r = await runInProcess(['migrate', flag, 'C', '-f', 'fixtures/migrate/production-a.yaml']);
      expect(r.code, flag).toBe(2);
      expect(r.stderr, flag).toContain(`${flag === '-r' ? '--revision' : flag}: unknown revision "C"`);
    }
  });

  it('-r/--revision names the target revision like in every command; --to is its synonym', async () => {
    const args = ['-f', 'fixtures/migrate/production-a.yaml'];
    const viaR = await runInProcess(['migrate', '-r', 'B', ...args]);
    expect(viaR.stdout).toBe((await runInProcess(['migrate', '--to', 'B', ...args])).stdout);
    expect(viaR.stdout).not.toBe('');
    const clash = await runInProcess(['migrate', '-r', 'B', '--to', 'A', ...args]);
    expect(clash.code).toBe(2);
    expect(clash.stderr).toContain('name different revisions');
  });
});

describe('agentplat migrate: a file already written for revision B, or mixing the two revisions', () => {
  let n = 0;
  const fileWith = (text: string) => {
    const path = join(tmp, `revisions-${n++}.yaml`);
    writeFileSync(path, text);
    return path;
  };
  // Revision B's shapes and keys, with controller.agentImage (B's go runtime image) set.
  const B_FILE = '# for revision B\ncontroller:\n  agentImage:\n    tag: v2 # go runtime\n  a2aGatewayUrl: https://agents.example.com\nui:\n  env:\n    - name: FEATURE_X\n      value: "on"\n';

  it('a revision B file is recognised: printed unchanged, "already revision B" on stderr, exit 0', async () => {
    const r = await runInProcess(['migrate', '-f', '-'], { stdin: B_FILE });
    expect(r.stdout).toBe(B_FILE);
    expect(r.stderr).toBe(
      'already revision B: the file has what only revision B has (controller.a2aGatewayUrl, ui.env) and nothing only revision A has; nothing changed\n' +
        '0 changes, 0 decisions left for you\n',
    );
    expect(r.code).toBe(0);
  });

  it('migrate -i of a revision B file does not write it', async () => {
    const path = fileWith(B_FILE);
    const before = statSync(path);
    const r = await runInProcess(['migrate', '-i', path]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('already revision B');
    expect(readFileSync(path, 'utf8')).toBe(B_FILE);
    // Not even rewritten with the same text: a write renames a new file over it.
    expect(statSync(path).ino).toBe(before.ino);
  });

  it('migrate -i twice: after the first run the file keeps every byte, and the second run says already revision B', async () => {
    const path = fileWith('# mine\ncontroller:\n  goAgentImage:\n    tag: v2 # pinned\n  replicas: 2\nui:\n  env:\n    FEATURE_X: x\n');
    const first = await runInProcess(['migrate', '-i', path]);
    expect(first.code, first.stderr).toBe(0);
    const migrated = readFileSync(path, 'utf8');
    expect(parse(migrated)).toEqual({ controller: { agentImage: { tag: 'v2' }, replicas: 2 }, ui: { env: [{ name: 'FEATURE_X', value: 'x' }] } });
    const ino = statSync(path).ino;
    const second = await runInProcess(['migrate', '-i', path]);
    expect(second.code).toBe(0);
    expect(second.stderr).toContain('already revision B');
    expect(second.stderr).toContain('0 changes');
    expect(readFileSync(path, 'utf8')).toBe(migrated);
    expect(statSync(path).ino).toBe(ino);
  });

  it('a migrated file valid in both revisions keeps controller.agentImage.tag on a second run: kept and left to the user, never deleted', async () => {
    const path = fileWith('controller:\n  goAgentImage:\n    tag: v2\n');
    expect((await runInProcess(['migrate', '-i', path])).code).toBe(0);
    const migrated = readFileSync(path, 'utf8');
    expect(migrated).toBe('controller:\n  agentImage:\n    tag: v2\n');
    const second = await runInProcess(['migrate', '-i', path]);
    expect(readFileSync(path, 'utf8')).toBe(migrated);
    expect(second.stderr).toContain('controller.agentImage.tag: decide: kept — this file has nothing only revision A has');
    expect(second.stderr).not.toContain('removed');
    expect(second.code).toBe(1);
  });

  it('a file mixing revision A and B keys is refused: exit 1, each key named at file:line:col, nothing printed or written', async () => {
    const text = 'controller:\n  goAgentImage:\n    tag: v2\n  a2aGatewayUrl: https://a\n  auth:\n    mode: unsecure\nui:\n  env:\n    - name: X\n      value: y\n';
    const path = fileWith(text);
    for (const args of [['migrate', path], ['migrate', '-i', path]]) {
      const r = await runInProcess(['--no-color', ...args]);
      expect(r.code, args.join(' ')).toBe(1);
      expect(r.stdout).toBe('');
      const located = r.stderr.split('\n').filter((l) => l.includes('[migrate/mixed-revisions]')).map((l) => l.replace(/ {2}error {2}.*?`([^`]+)` is written as revision (\w).*/, ' $1 $2'));
      expect(located).toEqual([`${path}:2:3 controller.goAgentImage A`, `${path}:4:3 controller.a2aGatewayUrl B`, `${path}:6:5 controller.auth.mode A`, `${path}:8:3 ui.env B`]);
      expect(readFileSync(path, 'utf8')).toBe(text);
    }
  });
});

describe('migrate keeps strings strings for YAML 1.1 readers (helm, PyYAML)', () => {
  /** The env list of a migrated file as a YAML 1.1 reader (helm's go-yaml, PyYAML) reads it. */
  const envAs11 = (text: string) => (parseWith11(text) as { ui: { env: { name: unknown; value: unknown }[] } }).ui.env;
  const parseWith11 = (text: string) => parse(text, { version: '1.1' }) as unknown;

  it('FEATURE_X: "on" in the ui.env map becomes value: "on", the user\'s quotes kept', async () => {
    const r = await migrate('ui:\n  env:\n    FEATURE_X: "on" # a flag\n    MODE: \'off\'\n');
    expect(r.text).toBe('ui:\n  env:\n    - name: FEATURE_X\n      value: "on" # a flag\n    - name: MODE\n      value: \'off\'\n');
    expect(envAs11(r.text!)).toEqual([{ name: 'FEATURE_X', value: 'on' }, { name: 'MODE', value: 'off' }]);
  });

  const AMBIGUOUS = [
    'y', 'Y', 'yes', 'Yes', 'YES', 'n', 'N', 'no', 'No', 'NO', 'on', 'On', 'ON', 'off', 'Off', 'OFF',
    'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'null', 'Null', 'NULL', '~', '',
    '010', '0o17', '0x1F', '0b101', '1_000', '1:20', '-1:30:00', '.inf', '-.Inf', '.NaN', '1e3', '12', '1.5', '+7', '2001-12-14', '=', '<<',
  ];

  it.each(AMBIGUOUS)('an env value written as the string %j stays that string', async (s) => {
    const text = `ui:\n  env:\n    V: ${JSON.stringify(s)}\n`;
    const out = (await migrate(text)).text!;
    expect(envAs11(out)).toEqual([{ name: 'V', value: s }]);
    // And for YAML 1.2 readers (agentplat itself) too.
    expect(parse(out)).toEqual({ ui: { env: [{ name: 'V', value: s }] } });
  });

  it('an env name that YAML 1.1 reads as a boolean stays a string', async () => {
    const out = (await migrate('ui:\n  env:\n    "Y": a\n    "ON": b\n')).text!;
    expect(envAs11(out)).toEqual([{ name: 'Y', value: 'a' }, { name: 'ON', value: 'b' }]);
  });

  it('values written as numbers or booleans become strings a YAML 1.1 reader reads as strings', async () => {
    const out = (await migrate('ui:\n  env:\n    A: 1\n    B: true\n    C: 1.50\n    D:\n')).text!;
    expect(envAs11(out)).toEqual([{ name: 'A', value: '1' }, { name: 'B', value: 'true' }, { name: 'C', value: '1.5' }, { name: 'D', value: '' }]);
  });

  it('the OTLP timeout moved to otel.exporter.otlp.timeout is a string for a YAML 1.1 reader', async () => {
    const out = (await migrate('otel:\n  tracing:\n    enabled: true\n    exporter:\n      otlp:\n        endpoint: http://collector:4317\n        timeout: 15000\n')).text!;
    expect((parseWith11(out) as { otel: { exporter: { otlp: { timeout: unknown } } } }).otel.exporter.otlp.timeout).toBe('15000');
  });
});
