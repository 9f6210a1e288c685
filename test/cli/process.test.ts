// The CLI's contract with its caller: exit codes, what goes to stdout and what to stderr, color
// switches, help and usage errors, a closed pipe, hostile input, and secrets kept out of output.
// What only a process shows runs the real executable (runBin): the exit status of the process,
// its standard streams and environment, standard input, a closed pipe, a full disk, and the
// deepest and largest inputs (the process's own stack and memory). The rest is checked in-process
// (runInProcess: the same run() the executable calls, with memory streams), which is much faster.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, constants, existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { BIN, ensureBuilt, HANG_GUARD_MS, ROOT, runBin, runClosingStdout, STACK_TRACE, type RunResult } from './binary.ts';
import { runInProcess } from './in-process.ts';
import { installedPack } from '../helpers/pack.ts';
import { createProgram } from '../../src/cli/program.ts';
import { createMemoryIo } from '../../src/cli/io.ts';

const ESC = '\u001b[';
const COMMANDS = ['render', 'diff', 'lint', 'validate', 'crds', 'values', 'schema', 'docs', 'migrate', 'version'] as const;
const pkgVersion = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

const tmp = tempDir('agentplat-process-');

beforeAll(() => {
  ensureBuilt();
});

function expectNoCrash(r: RunResult): void {
  expect(r.signal, 'the process was killed by the hang guard').toBeNull();
  expect(r.stderr).not.toMatch(STACK_TRACE);
  expect(r.stdout).not.toMatch(STACK_TRACE);
  expect(r.code).not.toBe(3);
}

function file(name: string, content: string | Buffer): string {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
}

describe('exit codes: 0 success, 1 problems, 2 usage', () => {
  it.each([
    { name: 'render of the defaults', args: ['render'], code: 0 },
    { name: 'lint of a clean fixture', args: ['lint', 'fixtures/lint/pdb-eviction-policy.yaml'], code: 0 },
    { name: 'validate of the example resources', args: ['validate', 'fixtures/resources'], code: 0 },
    { name: 'crds', args: ['crds'], code: 0 },
    { name: 'values', args: ['values', '-r', 'A'], code: 0 },
    { name: 'schema', args: ['schema'], code: 0 },
    { name: 'docs', args: ['docs'], code: 0 },
    { name: 'version', args: ['version', '-o', 'json'], code: 0 },
    { name: 'lint with an error', args: ['lint', 'fixtures/lint/unknown-key.yaml'], code: 1 },
    { name: 'lint --strict with a warning', args: ['lint', 'fixtures/lint/stream-timeout.yaml', '--strict'], code: 1 },
    { name: 'render of values with an error', args: ['render', '--set', 'controller.replicas=two'], code: 1 },
    { name: 'an unknown revision', args: ['render', '-r', 'C'], code: 2 },
    { name: 'an unknown lint format', args: ['lint', '--format', 'xml'], code: 2 },
    { name: 'an unknown render output', args: ['render', '-o', 'toml'], code: 2 },
    { name: 'validate without a path', args: ['validate'], code: 2 },
    { name: 'migrate without -f', args: ['migrate'], code: 2 },
  ])('$name exits $code', async ({ args, code }) => {
    const r = await runInProcess(args);
    expectNoCrash(r);
    expect(r.code, r.stderr).toBe(code);
  });

  it.each([
    { args: ['version', '-o', 'json'], code: 0 },
    { args: ['lint', 'fixtures/lint/unknown-key.yaml'], code: 1 },
    { args: ['render', '-r', 'C'], code: 2 },
  ])('the process exits with the code of the run: agentplat $args.0 … exits $code', ({ args, code }) => {
    const r = runBin(args);
    expectNoCrash(r);
    expect(r.code, r.stderr).toBe(code);
  });
});

describe('stdout carries results, stderr carries problems and messages', () => {
  it('render: manifests only on stdout, nothing on stderr when the values are clean', async () => {
    const r = await runInProcess(['render', '-r', 'B', '-n', 'agentplat']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^---\n# Source: agentplat\//);
    expect(r.stderr).toBe('');
  });

  it('render: a lint error prints the problem on stderr and nothing at all on stdout', () => {
    const r = runBin(['render', '--set', 'controller.replicas=two']);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('--set #1:1:1  error  `controller.replicas` must be an integer');
  });

  it('render: warnings go to stderr while the manifests still go to stdout', async () => {
    const r = await runInProcess(['render', '-f', 'fixtures/lint/stream-timeout.yaml']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^---\n/);
    expect(r.stdout).not.toContain('warning');
    expect(r.stderr).toMatch(/fixtures\/lint\/stream-timeout\.yaml:\d+:\d+ {2}warning/);
  });

  it('lint and validate: the report is the output (stdout), stderr stays empty', async () => {
    const lint = await runInProcess(['lint', 'fixtures/lint/unknown-key.yaml', '--format', 'json']);
    expect(JSON.parse(lint.stdout)).toMatchObject({ version: 1, summary: { errors: 1 } });
    expect(lint.stderr).toBe('');
    const validate = await runInProcess(['validate', '-', '--format', 'json'], { stdin: 'apiVersion: agentplat.dev/v1alpha2\nkind: Agnet\nmetadata: {name: a}\n' });
    expect(validate.code).toBe(1);
    expect(JSON.parse(validate.stdout)).toMatchObject({ version: 1, files: [{ file: '<stdin>', errors: 1 }], summary: { files: 1, errors: 1 } });
    expect(validate.stderr).toBe('');
  });

  it('migrate: the migrated file on stdout, the report on stderr', async () => {
    const r = await runInProcess(['migrate', '-f', '-'], { stdin: 'controller:\n  replicas: 2 # keep me\n' });
    expect(r.stdout).toContain('replicas: 2 # keep me');
    expect(r.stdout).not.toContain('→');
    expectNoCrash(r);
  });

  it('a usage error is one line on stderr (plus a hint), nothing on stdout', async () => {
    const r = await runInProcess(['lint', '-f', 'no-such-file.yaml']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('agentplat: no-such-file.yaml: cannot read values file: no such file\n  hint: check the path; it is resolved from the current directory\n');
  });
});

describe('color', () => {
  const failing = ['lint', 'fixtures/lint/unknown-key.yaml'];
  it('the process: off when its output is a pipe, on when its environment has FORCE_COLOR', () => {
    expect(runBin(failing).stdout).not.toContain(ESC);
    expect(runBin(failing, { env: { FORCE_COLOR: '1' } }).stdout).toContain(ESC);
  });
  it('FORCE_COLOR turns it on, for lint on stdout and for render on stderr', async () => {
    expect((await runInProcess(failing, { env: { FORCE_COLOR: '1' } })).stdout).toContain(ESC);
    expect((await runInProcess(['render', '--set', 'controller.replicas=two'], { env: { FORCE_COLOR: '1' } })).stderr).toContain(ESC);
  });
  it('FORCE_COLOR=0 leaves it off', async () => {
    expect((await runInProcess(failing, { env: { FORCE_COLOR: '0' } })).stdout).not.toContain(ESC);
  });
  it('NO_COLOR wins over FORCE_COLOR', async () => {
    expect((await runInProcess(failing, { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(ESC);
  });
  it('--no-color wins over FORCE_COLOR, before or after the command, for lint, validate and render', async () => {
    const env = { FORCE_COLOR: '1' };
    expect((await runInProcess(['--no-color', ...failing], { env })).stdout).not.toContain(ESC);
    expect((await runInProcess([...failing, '--no-color'], { env })).stdout).not.toContain(ESC);
    expect((await runInProcess(['validate', '-', '--no-color'], { env, stdin: 'apiVersion: agentplat.dev/v1alpha2\nkind: Agnet\n' })).stdout).not.toContain(ESC);
    const render = await runInProcess(['render', '--no-color', '--set', 'controller.replicas=two'], { env });
    expect(render.stderr).toContain('error');
    expect(render.stderr).not.toContain(ESC);
  });
  it('machine formats never carry color, even with FORCE_COLOR', async () => {
    for (const format of ['json', 'sarif', 'github', 'junit']) {
      expect((await runInProcess([...failing, '--format', format], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(ESC);
    }
  });
});

describe('help, version and usage errors', () => {
  it.each(COMMANDS)('%s --help exits 0 and shows its usage and an example on stdout', async (cmd) => {
    const r = await runInProcess([cmd, '--help']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(new RegExp(`^Usage: agentplat ${cmd} `));
    expect(r.stdout).toMatch(/\nExamples?:\n {2}agentplat /);
  });

  it('agentplat --help and `agentplat help render` exit 0', async () => {
    const root = await runInProcess(['--help']);
    expect(root.code).toBe(0);
    for (const cmd of COMMANDS) expect(root.stdout).toContain(`  ${cmd} `);
    expect(root.stdout).toContain('Exit codes: 0 success, 1 problems found');
    expect((await runInProcess(['help', 'render'])).stdout).toMatch(/^Usage: agentplat render /);
  });

  it('--version and -V print the package version and exit 0', () => {
    for (const flag of ['--version', '-V']) {
      const r = runBin([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`${pkgVersion}\n`);
    }
  });

  it.each([
    { name: 'an unknown command', args: ['rendr'], first: /^error: unknown command 'rendr'/ },
    { name: 'an unknown flag', args: ['render', '--bogus'], first: /^error: unknown option '--bogus'/ },
    { name: 'a flag without its value', args: ['lint', '--format'], first: /^error: option '--format <name>' argument missing/ },
    { name: 'a misspelt flag', args: ['lint', '--stirct'], first: /^error: unknown option '--stirct'/ },
  ])('$name exits 2 with a one-line error on stderr and nothing on stdout', async ({ args, first }) => {
    const r = await runInProcess(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(first);
    // the error line, maybe a did-you-mean line, and the pointer to --help; never the whole help
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(r.stderr).toContain('(run with --help for usage)');
    expectNoCrash(r);
  });
});

describe('a closed pipe (agentplat … | head -1) ends the run quietly', () => {
  it.each([
    { name: 'render', args: ['render'], code: 0 },
    { name: 'crds', args: ['crds'], code: 0 },
    { name: 'values', args: ['values'], code: 0 },
    { name: 'lint with errors keeps its exit code', args: ['lint', '-f', 'fixtures/lint/unknown-key.yaml', '--format', 'sarif'], code: 1 },
  ])('$name: no EPIPE trace, exit $code', async ({ args, code }) => {
    const r = await runClosingStdout(args);
    expect(r.first.length).toBeGreaterThan(0);
    expect(r.signal).toBeNull();
    expect(r.stderr).toBe('');
    expect(r.code).toBe(code);
  });
});

describe('output reaches a file, a pipe and a full non-blocking pipe whole (io.ts writes files and pipes straight to the descriptor)', () => {
  const ARGS = ['render', '-o', 'json'];
  let expected = '';
  beforeAll(async () => {
    expected = (await runInProcess(ARGS)).stdout;
    // larger than a pipe's buffer (64 KiB on Linux), so a slow reader fills it
    expect(expected.length).toBeGreaterThan(256 * 1024);
  });

  it('a regular file (`> out.json`)', () => {
    const file = join(tempDir('agentplat-out-'), 'out.json');
    const fd = openSync(file, 'w');
    try {
      const r = spawnSync(BIN, ARGS, { cwd: ROOT, stdio: ['ignore', fd, 'pipe'], encoding: 'utf8', timeout: HANG_GUARD_MS });
      expect([r.status, r.stderr]).toEqual([0, '']);
    } finally {
      closeSync(fd);
    }
    expect(readFileSync(file, 'utf8')).toBe(expected);
  });

  it('a pipe its reader drains (`| kubectl apply -f -`)', () => {
    const r = spawnSync(BIN, ARGS, { cwd: ROOT, encoding: 'utf8', timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
    expect([r.status, r.stderr, r.stdout === expected]).toEqual([0, '', true]);
  });

  // A parent may hand over a pipe in non-blocking mode (node's spawn makes it blocking, so python
  // sets the flag and then becomes agentplat): a write that finds it full gets EAGAIN.
  const python = spawnSync('python3', ['--version']).status === 0;
  it.skipIf(process.platform !== 'linux' || !python)('a non-blocking pipe a slow reader empties: the writes that find it full wait for the reader', async () => {
    const fifo = join(tempDir('agentplat-fifo-'), 'out');
    execFileSync('mkfifo', [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    const nonBlocking = 'import fcntl, os, sys; fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_NONBLOCK); os.execv(sys.argv[1], sys.argv[1:])';
    const child = spawn('python3', ['-c', nonBlocking, BIN, ...ARGS], { cwd: ROOT, stdio: ['ignore', writer, 'pipe'] });
    closeSync(writer);
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const chunks: Buffer[] = [];
    const buf = Buffer.alloc(16 * 1024);
    for (let done = false; !done; ) {
      await new Promise((r) => setTimeout(r, 2));
      for (;;) {
        let n: number;
        try {
          n = readSync(reader, buf);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EAGAIN') break;
          throw err;
        }
        if (n === 0) {
          done = true;
          break;
        }
        chunks.push(Buffer.from(buf.subarray(0, n)));
        if (chunks.length % 4 === 0) break;
      }
    }
    closeSync(reader);
    expect(await exited).toBe(0);
    expect(stderr).toBe('');
    expect(Buffer.concat(chunks).toString('utf8') === expected).toBe(true);
  });
});

describe('a working directory deleted under the shell is an environment problem: exit 2, one line, for every command', () => {
  // `sh -c` enters a fresh folder, removes it and only then starts agentplat in it, as a user
  // whose shell sits in a folder another process deleted.
  const commands = createProgram({ io: createMemoryIo(), exitCode: 0 }).commands.map((c) => c.name());
  const starts = [{ from: 'the bundle', argv: [process.execPath, BIN] }];
  it.each(starts.flatMap((s) => [...commands, '--help'].map((command) => ({ ...s, command }))))('$command from $from', ({ argv, command }) => {
    const dir = tempDir('agentplat-gone-');
    const r = spawnSync('sh', ['-c', 'cd "$0" && rmdir "$0" && exec "$@"', dir, ...argv, command], { cwd: ROOT, encoding: 'utf8', timeout: HANG_GUARD_MS, env: { PATH: process.env.PATH ?? '' } });
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('agentplat: the working directory no longer exists (it was deleted or moved): cd into an existing folder and run agentplat again\n');
    expect(r.status).toBe(2);
  });
});

describe('a write that fails (a full disk) fails the run: exit 2 (output cannot be written) and one worded line, never a silent success', () => {
  // The CLI exits as soon as its output is written; a failed write must still be reported, in
  // words, and nothing that describes the lost output (a summary, a migration report) follows it.
  it.skipIf(!existsSync('/dev/full')).each([
    { name: 'render', file: BIN, args: ['render'] },
    { name: 'render started as node bin/agentplat', file: process.execPath, args: [BIN, 'render'] },
    { name: 'validate', file: BIN, args: ['validate', 'fixtures/resources'] },
    { name: 'lint', file: BIN, args: ['lint', '--format', 'json'] },
    { name: 'lint whose warnings --strict refuses', file: BIN, args: ['lint', 'fixtures/lint/stream-timeout.yaml', '--strict'] },
    { name: 'diff of two values sets (its summary line)', file: BIN, args: ['diff', '--set', 'controller.replicas=1', '--to-set', 'controller.replicas=2'] },
    { name: 'plan of a values change (its summary line)', file: BIN, args: ['plan', '-r', 'B', '--set', 'controller.replicas=1', '--to-set', 'controller.replicas=2'] },
    { name: 'values', file: BIN, args: ['values', '--computed', '--set', 'controller.replicas=2'] },
    { name: 'explain of a key', file: BIN, args: ['explain', 'controller.replicas'] },
    { name: 'migrate (its report)', file: BIN, args: ['migrate', 'fixtures/lint/pdb-eviction-policy.yaml'] },
  ])('$name > /dev/full', ({ file, args }) => {
    const full = openSync('/dev/full', 'w');
    try {
      const r = spawnSync(file, args, { cwd: ROOT, stdio: ['ignore', full, 'pipe'], encoding: 'utf8', timeout: HANG_GUARD_MS });
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('agentplat: cannot write to standard output: the disk is full (ENOSPC)\n');
    } finally {
      closeSync(full);
    }
  });

  it('standard output open only for reading (`1</dev/null`): the line says the output is not open for writing', () => {
    const r = spawnSync('sh', ['-c', 'exec "$0" render 1</dev/null', BIN], { cwd: ROOT, stdio: ['ignore', 'inherit', 'pipe'], encoding: 'utf8', timeout: HANG_GUARD_MS });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('agentplat: cannot write to standard output: the output is closed or not open for writing (EBADF)\n');
  });
});

describe('bad input through the real binary: one clear error with the file and position, no trace, no hang', () => {
  interface Case {
    name: string;
    content: () => string | Buffer;
    /** What lint -f and render -f say (`lint`) and what validate says, as patterns; <FILE> is the path. */
    lint: RegExp;
    validate: RegExp;
  }
  const nested = (levels: number) => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}k${i}:\n`).join('');
  const bomb = (): string => {
    const lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    const names = 'bcdefghi';
    for (let i = 0; i < names.length; i++) lines.push(`${names[i]}: &${names[i]} [${Array(9).fill(`*${i === 0 ? 'a' : names[i - 1]}`).join(',')}]`);
    return `${lines.join('\n')}\n`;
  };
  const cases: Case[] = [
    {
      name: 'malformed YAML',
      content: () => 'controller:\n  replicas: [1, 2\nui: {}\n',
      lint: /<FILE>:2:13 {2}error {2}invalid YAML: the list opened by `\[` here is not closed {2}\[values\/yaml-syntax\]/,
      validate: /<FILE>:2:13 {2}error {2}invalid YAML: the list opened by `\[` here is not closed {2}\[crd\/yaml-syntax\]/,
    },
    {
      name: 'a duplicate key',
      content: () => 'controller:\n  replicas: 1\n  replicas: 2\n',
      lint: /<FILE>:3:3 {2}error {2}duplicate key "replicas".*\[values\/duplicate-key\]/,
      validate: /<FILE>:3:3 {2}error {2}duplicate key "replicas".*\[crd\/yaml-syntax\]/,
    },
    {
      name: 'a top level that is not a map',
      content: () => '- a\n- b\n',
      lint: /<FILE>:1:1 {2}error {2}the top level of a values file must be a map.*\[values\/not-a-map\]/,
      validate: /<FILE>:1:1 {2}error {2}a Kubernetes object must be a map, found a list {2}\[crd\/not-an-object\]/,
    },
    {
      name: 'binary junk',
      content: () => Buffer.from([0x6b, 0x3a, 0x20, 0xff, 0xfe, 0x00, 0x01, 0x80, 0x0a]),
      lint: /^agentplat: <FILE>:1:4: not UTF-8 text \(byte 0xff\), not a values file\n/,
      validate: /^agentplat: <FILE>:1:4: not UTF-8 text \(byte 0xff\), not a resource file\n/,
    },
    {
      name: 'a billion-laughs alias bomb',
      content: bomb,
      lint: /<FILE>:2:8 {2}error {2}the document expands too many aliases.*\[values\/yaml-aliases\]/,
      validate: /<FILE>:1:1 {2}error {2}cannot read the document: .*alias.*\[crd\/yaml-syntax\]/i,
    },
    {
      name: 'deeply nested flow YAML',
      content: () => `a: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
      lint: /<FILE>:1:\d+ {2}error {2}the document nests deeper than 64 levels {2}\[values\/too-deep\]/,
      validate: /<FILE>:1:\d+ {2}error {2}invalid YAML: the document nests too deeply to be read {2}\[crd\/yaml-syntax\]/,
    },
    {
      name: 'deeply nested block YAML',
      content: () => nested(200),
      lint: /<FILE>:\d+:\d+ {2}error {2}the document nests deeper than 64 levels {2}\[values\/too-deep\]/,
      validate: /<FILE>:1:1 {2}error {2}the document has no kind {2}\[crd\/missing-kind\]/,
    },
    {
      name: 'a 50 MB file',
      content: () => Buffer.alloc(50 * 1024 * 1024, 'a: 1\n'),
      lint: /^agentplat: <FILE>: 50\.0 MiB is too large for a values file \(limit \d+ MiB\)\n/,
      validate: /^agentplat: <FILE>: 50\.0 MiB is too large for a resource file \(limit \d+ MiB\)\n/,
    },
  ];

  const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const withFile = (re: RegExp, name: string) => new RegExp(re.source.replace(/<FILE>/g, escape(name)), re.flags);

  describe.each(cases)('$name', (c) => {
    let path = '';
    beforeAll(() => {
      path = file(`${c.name.replace(/\W+/g, '-')}.yaml`, c.content());
    });

    it('lint -f: exits 1 or 2 with the file and position', async () => {
      const r = await runInProcess(['lint', '-f', path]);
      expectNoCrash(r);
      expect([1, 2]).toContain(r.code);
      expect(r.stdout + r.stderr).toMatch(withFile(c.lint, path));
    });

    it('render -f: the same problem on stderr, nothing on stdout', async () => {
      const r = await runInProcess(['render', '-f', path]);
      expectNoCrash(r);
      expect([1, 2]).toContain(r.code);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(withFile(c.lint, path));
    });

    it('validate: exits 1 or 2 with the file and position', async () => {
      const r = await runInProcess(['validate', path]);
      expectNoCrash(r);
      expect([1, 2]).toContain(r.code);
      expect(r.stdout + r.stderr).toMatch(withFile(c.validate, path));
    });
  });

  // The deepest and the largest inputs meet the limits of the process's own stack and memory.
  it.each(cases.filter((c) => c.name === 'deeply nested flow YAML' || c.name === 'a 50 MB file'))('$name through the real executable: lint -f and validate report it alike', (c) => {
    const path = file(`process-${c.name.replace(/\W+/g, '-')}.yaml`, c.content());
    for (const [args, expected] of [[['lint', '-f', path], c.lint], [['validate', path], c.validate]] as const) {
      const r = runBin(args);
      expectNoCrash(r);
      expect([1, 2]).toContain(r.code);
      expect(r.stdout + r.stderr).toMatch(withFile(expected, path));
    }
  });

  it('a missing file: exit 2, one line naming it, for lint, render and validate', async () => {
    for (const args of [['lint', '-f', 'missing.yaml'], ['render', '-f', 'missing.yaml'], ['lint', 'missing.yaml'], ['validate', 'missing.yaml']]) {
      const r = await runInProcess(args, { cwd: tmp });
      expectNoCrash(r);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^agentplat: missing\.yaml: cannot read (values|resource) file: no such file$/);
    }
  });

  it('a directory: a usage error for values, a walk for validate', async () => {
    const dir = join(tmp, 'a-dir');
    mkdirSync(dir, { recursive: true });
    const lint = await runInProcess(['lint', '-f', dir]);
    expect(lint.code).toBe(2);
    expect(lint.stderr.split('\n')[0]).toBe(`agentplat: ${dir}: is a directory, not a values file`);
    const empty = await runInProcess(['validate', dir]);
    expect(empty.code).toBe(2);
    expect(empty.stderr.split('\n')[0]).toBe(`agentplat: ${dir}: no .yaml or .yml file in this directory`);
    const full = await runInProcess(['validate', 'fixtures/resources']);
    expect(full.code).toBe(0);
    expect(full.stdout).toMatch(/^\d+ files, 0 errors, 0 warnings\n$/);
  });

  it('stdin that is not UTF-8 is refused as a file is, on every path that reads it (render -f -, lint -f -, validate -, --set-file -)', () => {
    const latin1 = Buffer.concat([Buffer.from('controller:\n  env:\n    ZAP_LOG_LEVEL: caf'), Buffer.from([0xe9]), Buffer.from('\n')]);
    for (const args of [['render', '-f', '-'], ['lint', '-f', '-'], ['validate', '-'], ['render', '--set-file', 'a=-']]) {
      const r = runBin(args, { stdin: latin1 });
      expect({ args, code: r.code, stdout: r.stdout }).toEqual({ args, code: 2, stdout: '' });
      expect(r.stderr.split('\n')[0]).toMatch(/^agentplat: <stdin>:3:23: not UTF-8 text \(byte 0xe9\), not a /);
    }
  });

  it('stdin (-f -): problems point at <stdin> with line and column', () => {
    const stdin = 'controller:\n  replicas: two\n';
    const lint = runBin(['lint', '-f', '-'], { stdin });
    expect(lint.code).toBe(1);
    expect(lint.stdout).toContain('<stdin>:2:3  error  `controller.replicas` must be an integer, found "two"');
    const render = runBin(['render', '-f', '-'], { stdin });
    expect(render.code).toBe(1);
    expect(render.stdout).toBe('');
    expect(render.stderr).toContain('<stdin>:2:3  error');
    const twice = runBin(['lint', '-f', '-', '-f', '-'], { stdin });
    expect(twice.code).toBe(2);
    expect(twice.stderr.split('\n')[0]).toBe('agentplat: standard input (-) can be read only once');
  });

  it('empty stdin is an empty values file: render of the defaults', () => {
    const r = runBin(['render', '-f', '-'], { stdin: '' });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^---\n/);
  });
});

describe('secret values never appear in any output', () => {
  const SECRET = 'Hunter2-Sup3rSecret-Value';
  const NUMBER_SECRET = '982451653982451653';

  it('--set authproxy.config.clientSecret=… when the render fails on another key', async () => {
    const args = ['--set', 'authproxy.enabled=true', '--set', `authproxy.config.clientSecret=${SECRET}`, '--set', 'controller.replicas=two'];
    for (const cmd of [['render'], ['lint'], ['lint', '--format', 'json'], ['lint', '--format', 'sarif'], ['lint', '--format', 'github'], ['lint', '--format', 'junit']]) {
      const r = await runInProcess([...cmd, ...args]);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
    }
  });

  it('a secret of the wrong type in a file, in every lint format and in render', async () => {
    const path = file('secrets.yaml', `authproxy:\n  enabled: true\n  config:\n    clientID: id\n    clientSecret: [${SECRET}]\n    cookieSecret: ${NUMBER_SECRET}\n`);
    for (const cmd of [['render', '-f', path], ...['text', 'json', 'sarif', 'github', 'junit'].map((f) => ['lint', '-f', path, '--format', f])]) {
      const r = await runInProcess(cmd);
      expect(r.code).toBe(1);
      expect(r.stdout + r.stderr).toMatch(/clientSecret/);
      expect(r.stdout + r.stderr).not.toContain(SECRET);
      expect(r.stdout + r.stderr).not.toContain(NUMBER_SECRET);
    }
  });

  it('--set-json with a secret of the wrong type', async () => {
    const r = await runInProcess(['lint', '--set-json', `authproxy.config.clientSecret={"value":"${SECRET}"}`, '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('authproxy.config.clientSecret');
    expect(r.stdout + r.stderr).not.toContain(SECRET);
  });
});

describe('the installed package (npm pack, then npm install -g of the tarball) runs the bundle it ships, with the output of this checkout', () => {
  // What users install: the pack leaves out whatever package.json `files` leaves out, and npm
  // runs no build script for it. Every command that reads a file the build wrote to
  // dist/generated/ runs here: templates, defaults, CRDs, the values validators, validate's data.
  const fixture = (p: string) => join(ROOT, 'fixtures', p);
  it.each([
    { name: 'render', args: ['render'] },
    { name: 'render --skip-crds -r A', args: ['render', '--skip-crds', '-r', 'A'] },
    { name: 'crds -o json', args: ['crds', '-o', 'json'] },
    { name: 'lint -f (a values file with problems, positions in the defaults)', args: ['lint', '-f', fixture('lint/unknown-key.yaml'), '--format', 'json', '--verbose'] },
    { name: 'render -f', args: ['render', '-f', fixture('render/httproute/values.yaml')] },
    { name: 'validate', args: ['validate', '--format', 'json', fixture('resources')] },
    { name: 'version', args: ['version', '-o', 'json'] },
  ])('$name', async ({ args }) => {
    const prefix = await installedPack();
    const installed = spawnSync(join(prefix, 'bin', 'agentplat'), args, { cwd: tmp, env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, encoding: 'utf8', timeout: HANG_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
    const checkout = runBin(args, { cwd: tmp });
    expect(installed.stderr).toBe(checkout.stderr);
    expect(installed.status).toBe(checkout.code);
    expect(installed.stdout).toBe(checkout.stdout);
    expect(installed.stdout.length).toBeGreaterThan(100);
  });
});
