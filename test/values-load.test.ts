import { chmodSync, mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { tmpdir } from 'node:os';
import { execFileSync, spawn } from 'node:child_process';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, test, vi } from 'vitest';
import fc from 'fast-check';
import { EXIT_USAGE } from '../src/problems/errors.ts';
import { firstInvalidUtf8, fsError, loadUserLayers, MAX_RESOURCE_STREAM_BYTES, MAX_VALUES_FILE_BYTES, readUserFile, RESOURCES_INPUT, type InputReader } from '../src/values/load.ts';
import { readStreamBounded } from '../src/cli/io.ts';
import { layerValues } from '../src/values/merge.ts';
import { usageError } from './helpers/usage-error.ts';

// Counts the bytes the loader reads, to prove that size checks come before reading.
const reads = vi.hoisted(() => ({ bytes: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const readSync = ((...args: Parameters<typeof fs.readSync>) => {
    const n = fs.readSync(...args);
    reads.bytes += n;
    return n;
  }) as typeof fs.readSync;
  return { ...fs, readSync, default: { ...fs, readSync } };
});

let dir: string;
let reader: InputReader;
const stdin = (text: string): InputReader => ({ cwd: dir, readStdin: async (max) => (Buffer.byteLength(text) > max ? undefined : text) });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentplat-load-'));
  reader = stdin('');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  reads.bytes = 0;
});

function expectOneLine(message: string): void {
  expect(message).not.toContain('\n');
  expect(message).not.toMatch(/\bat .*:\d+:\d+\)/);
}

describe('files that cannot be read are usage errors (exit 2) with one line', () => {
  test('a missing file', async () => {
    const e = await usageError(readUserFile('nope.yaml', reader));
    expect([e.message, e.exitCode]).toEqual(['nope.yaml: cannot read values file: no such file', EXIT_USAGE]);
    expect(e.hint).toMatch(/current directory/);
  });

  test('a directory: the hint names a file that is in it, or says there is none', async () => {
    mkdirSync(join(dir, 'vals'), { recursive: true });
    const e = await usageError(readUserFile('vals/', reader));
    expect(e.message).toBe('vals/: is a directory, not a values file');
    expect(e.hint).toBe('it holds no .yaml or .yml file');
    mkdirSync(join(dir, 'vals', 'prod'), { recursive: true });
    writeFileSync(join(dir, 'vals', 'prod', 'overrides.yml'), 'ui: {}\n');
    expect((await usageError(readUserFile('vals/', reader))).hint).toBe('pass a file inside it, e.g. vals/prod/overrides.yml');
  });

  test('a path through a file', async () => {
    writeFileSync(join(dir, 'plain.yaml'), 'a: 1\n');
    const e = await usageError(readUserFile('plain.yaml/x.yaml', reader));
    expect(e.message).toBe('plain.yaml/x.yaml: cannot read values file: a part of the path is not a directory');
  });

  test.runIf(process.getuid?.() !== 0)('an unreadable file (chmod 000)', async () => {
    writeFileSync(join(dir, 'secret.yaml'), 'a: 1\n');
    chmodSync(join(dir, 'secret.yaml'), 0o000);
    const e = await usageError(readUserFile('secret.yaml', reader));
    expect(e.message).toBe('secret.yaml: cannot read values file: permission denied');
  });

  test.each([
    { code: 'EACCES', message: 'v.yaml: cannot read values file: permission denied' },
    { code: 'EPERM', message: 'v.yaml: cannot read values file: permission denied' },
    { code: 'ELOOP', message: 'v.yaml: cannot read values file: too many symbolic links' },
    { code: 'EWHATEVER', message: 'v.yaml: cannot read values file (EWHATEVER)' },
  ])('file system error $code maps to one line', ({ code, message }) => {
    const e = fsError('v.yaml', Object.assign(new Error(`${code}: long\nstack`), { code }));
    expect([e.message, e.exitCode]).toEqual([message, EXIT_USAGE]);
  });

  test('an error without a code keeps only the first line of its message', () => {
    expect(fsError('v.yaml', new Error('boom\n    at x (y.js:1:2)')).message).toBe('v.yaml: cannot read values file (boom)');
  });

  test('a 50 MB file is refused by its size without reading it', async () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, '');
    truncateSync(big, 50 * 1024 * 1024);
    const e = await usageError(readUserFile('big.yaml', reader));
    expect(e.message).toBe(`big.yaml: 50.0 MiB is too large for a values file (limit ${MAX_VALUES_FILE_BYTES / 1024 / 1024} MiB)`);
    expect(reads.bytes).toBe(0);
  });

  test.runIf(process.platform === 'linux')('an endless device is read only up to the limit', async () => {
    const e = await usageError(readUserFile('/dev/zero', reader));
    expect(e.message).toMatch(/^\/dev\/zero: at least 1\.0 MiB is too large for a values file/);
    expect(reads.bytes).toBe(MAX_VALUES_FILE_BYTES + 1);
  });

  test('standard input stops being read at the limit: an endless stream is cut after limit + one chunk', async () => {
    let pulled = 0;
    const chunk = Buffer.alloc(64 * 1024, 'a');
    const endless = Readable.from((function* () {
      for (;;) {
        pulled++;
        yield chunk;
      }
    })());
    expect(await readStreamBounded(endless, MAX_VALUES_FILE_BYTES)).toBeUndefined();
    expect(pulled).toBeLessThanOrEqual(MAX_VALUES_FILE_BYTES / chunk.length + 2);
    expect(endless.destroyed).toBe(true);
    expect((await readStreamBounded(Readable.from([Buffer.from('a: 1\n'), Buffer.from('b: 2\n')]), 10))?.toString()).toBe('a: 1\nb: 2\n');
  });

  test('standard input that holds more than the limit says so for a values file', async () => {
    const e = await usageError(readUserFile('-', stdin('a'.repeat(MAX_VALUES_FILE_BYTES + 1))));
    expect(e.message).toBe('<stdin>: more than 1.0 MiB is too large for a values file (limit 1 MiB)');
    expect(e.hint).toMatch(/values file of this chart/);
  });

  test('a stream of custom resources has its own limit (16 MiB) and its own words', async () => {
    expect(MAX_RESOURCE_STREAM_BYTES).toBe(16 * 1024 * 1024);
    const twoMiB = 'a'.repeat(2 * 1024 * 1024);
    expect((await readUserFile('-', stdin(twoMiB), RESOURCES_INPUT)).text).toHaveLength(twoMiB.length);
    const e = await usageError(readUserFile('-', stdin('a'.repeat(MAX_RESOURCE_STREAM_BYTES + 1)), RESOURCES_INPUT));
    expect(e.message).toBe('<stdin>: more than 16.0 MiB is too large for a stream of custom resources (limit 16 MiB)');
    expect(e.hint).toMatch(/split the resources/);
    expect(e.hint).not.toMatch(/values file/);
  });

  test.runIf(process.platform !== 'win32')('a FIFO that no process writes to is given up with a usage error, not waited on forever', async () => {
    const fifo = join(dir, 'no-writer.fifo');
    execFileSync('mkfifo', [fifo]);
    const e = await usageError(readUserFile('no-writer.fifo', { ...reader, fifoWaitMs: 50 }));
    expect(e.message).toBe('no-writer.fifo: no process writes to this FIFO (waited 0.05 s), not a values file');
    expect(e.hint).toMatch(/-f -/);
  });

  test.runIf(process.platform !== 'win32')('a FIFO with a writer is read like a file', async () => {
    const fifo = join(dir, 'with-writer.fifo');
    execFileSync('mkfifo', [fifo]);
    // The writer is another process, as in real use: the read itself blocks until the data comes.
    const writer = spawn('sh', ['-c', 'printf "a: 1\\n" > "$0"', fifo]);
    const read = await readUserFile('with-writer.fifo', reader);
    await new Promise((resolve) => writer.on('close', resolve));
    expect(read).toEqual({ name: 'with-writer.fifo', text: 'a: 1\n' });
  });

  test('standard input can be read only once', async () => {
    const e = await usageError(loadUserLayers({ values: ['-', '-'] }, stdin('a: 1\n')));
    expect(e.message).toBe('standard input (-) can be read only once');
  });
});

describe('binary junk', () => {
  test('bytes that are not UTF-8 are a usage error with line and column', async () => {
    writeFileSync(join(dir, 'latin1.yaml'), Buffer.concat([Buffer.from('a: 1\nname: caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
    const e = await usageError(readUserFile('latin1.yaml', reader));
    expect(e.message).toBe('latin1.yaml:2:10: not UTF-8 text (byte 0xe9), not a values file');
    expectOneLine(e.message);
  });

  test('a file that really holds U+FFFD (valid UTF-8) is read as written, not refused', async () => {
    writeFileSync(join(dir, 'replacement.yaml'), 'name: "a\ufffdb"\n');
    expect(await readUserFile('replacement.yaml', reader)).toEqual({ name: 'replacement.yaml', text: 'name: "a\ufffdb"\n' });
  });

  test('every way a file is read gives its text exactly (regular files in one call, the rest bounded)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'binary', maxLength: 200 }), async (text) => {
        writeFileSync(join(dir, 'any.yaml'), text);
        if (text.includes('\u0000')) await expect(readUserFile('any.yaml', reader)).rejects.toThrow(/binary data \(a NUL byte\)/);
        else expect((await readUserFile('any.yaml', reader)).text).toBe(text);
      }),
      { numRuns: 300 },
    );
  });

  test('random bytes are refused with one line, never a crash', async () => {
    // A fixed pseudo-random sequence, so the test is the same on every run.
    let seed = 42;
    const bytes = Buffer.alloc(4096, 0).map(() => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 16) & 0xff);
    writeFileSync(join(dir, 'junk.bin'), bytes);
    const e = await usageError(loadUserLayers({ values: ['junk.bin'] }, reader));
    expect(e.message).toMatch(/^junk\.bin:\d+:\d+: not UTF-8 text \(byte 0x[0-9a-f]{2}\), not a values file$/);
  });

  test('a binary file (a NUL byte in UTF-8 text) is a usage error with line and column, like bytes that are not UTF-8', async () => {
    writeFileSync(join(dir, 'nul.yaml'), 'a: 1\n\u0000\u0001\u0002');
    const e = await usageError(loadUserLayers({ values: ['nul.yaml'] }, reader));
    expect(e.message).toBe('nul.yaml:2:1: binary data (a NUL byte), not a values file');
    expect(e.hint).toMatch(/UTF-8 text/);
    const stdin = await usageError(readUserFile('-', { cwd: dir, readStdin: async () => 'a: \u0000' }));
    expect(stdin.message).toBe('<stdin>:1:4: binary data (a NUL byte), not a values file');
  });

  test('firstInvalidUtf8 agrees with Node on any bytes', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 24 }), (bytes) => {
        const at = firstInvalidUtf8(bytes);
        expect(at === bytes.length).toBe(isUtf8(bytes));
        expect(isUtf8(bytes.subarray(0, at))).toBe(true);
      }),
      { numRuns: 5000 },
    );
  });

  test.each([
    { name: 'an overlong encoding', bytes: [0x41, 0xc0, 0xaf], at: 1 },
    { name: 'a surrogate', bytes: [0xed, 0xa0, 0x80], at: 0 },
    { name: 'a truncated sequence', bytes: [0x41, 0xe2, 0x82], at: 1 },
    { name: 'a code point above U+10FFFF', bytes: [0xf4, 0x90, 0x80, 0x80], at: 0 },
    { name: 'valid text', bytes: [0xe2, 0x82, 0xac, 0x41], at: 4 },
  ])('firstInvalidUtf8 finds $name', ({ bytes, at }) => {
    expect(firstInvalidUtf8(Uint8Array.from(bytes))).toBe(at);
  });
});

describe('loading layers', () => {
  test('files layer in the order given, a UTF-8 BOM and CRLF included', async () => {
    writeFileSync(join(dir, 'one.yaml'), '\uFEFFa: 1\r\nb: 1\r\n');
    writeFileSync(join(dir, 'two.yaml'), 'b: 2\n');
    const { sources, problems } = await loadUserLayers({ values: ['one.yaml', 'two.yaml'] }, reader);
    expect(problems).toEqual([]);
    expect(layerValues(sources).values).toEqual({ a: 1, b: 2 });
  });

  test('standard input is a layer named <stdin>', async () => {
    const { sources } = await loadUserLayers({ values: ['-'] }, stdin('a: 1\n'));
    expect(sources.map((s) => s.name)).toEqual(['<stdin>']);
  });

  test('flag kinds apply in Helm order: --set-json, --set, --set-string, --set-file', async () => {
    writeFileSync(join(dir, 'script.sh'), 'echo hi\n');
    const { sources, problems } = await loadUserLayers(
      { setString: ['a=string'], set: ['a=set,b=set'], setJson: ['a="json",b="json",c="json"'], setFile: ['d=script.sh'] },
      reader,
    );
    expect(problems).toEqual([]);
    expect(sources.map((s) => s.name)).toEqual(['--set-json', '--set', '--set-string', '--set-file']);
    expect(layerValues(sources).values).toEqual({ a: 'string', b: 'set', c: 'json', d: 'echo hi\n' });
  });

  test('--set-literal comes last in Helm order and takes everything after "=" as one string', async () => {
    const { sources, problems } = await loadUserLayers({ set: ['a=set,b=2'], setLiteral: ['a=x,y={z},w\\v', 'b=true', 'c.d='] }, reader);
    expect(problems).toEqual([]);
    expect(sources.map((s) => s.name)).toEqual(['--set', '--set-literal']);
    expect(layerValues(sources).values).toEqual({ a: 'x,y={z},w\\v', b: 'true', c: { d: '' } });
  });

  test('a --set-literal secret is masked in the excerpt of a problem', async () => {
    const { problems } = await loadUserLayers({ setLiteral: ['authproxy.config.cookieSecret=s3,cr3t', '=x'] }, reader);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ rule: 'values/set-syntax', file: '--set-literal #2', column: 1 });
    const masked = (await import('../src/values/set-parser.ts')).maskSetLiteralArgument('authproxy.config.cookieSecret=s3,cr3t');
    expect(masked.text).toBe('authproxy.config.cookieSecret=********');
  });

  test('a --set syntax error is a problem at the flag and column, without echoing the value', async () => {
    const { problems } = await loadUserLayers({ set: ['ok=1', 'authproxy.config.cookieSecret=s3cr3t,b[x]=2'] }, reader);
    expect(problems).toEqual([
      {
        severity: 'error',
        rule: 'values/set-syntax',
        path: '',
        message: 'list index "x" is not a number',
        hint: 'write a list index as key[0]',
        file: '--set #2',
        line: 1,
        // The column of "x" in the excerpt shown, past a fixed mask: it tells nothing of the secret's length.
        column: 42,
        excerpt: 'authproxy.config.cookieSecret=********,b[x]=2',
      },
    ]);
    expect(JSON.stringify(problems)).not.toContain('s3cr3t');
  });

  test('a bad flag does not stop the other flags of its kind', async () => {
    const { sources, problems } = await loadUserLayers({ set: ['a=1', 'b', 'c=3'] }, reader);
    expect(problems).toHaveLength(1);
    expect(layerValues(sources).values).toEqual({ a: 1, c: 3 });
  });

  test('a --set-file key that conflicts with an earlier one is a problem at its column', async () => {
    writeFileSync(join(dir, 'f.txt'), 'x');
    const { problems } = await loadUserLayers({ setFile: ['a=f.txt', 'a.b=f.txt'] }, reader);
    expect(problems).toEqual([expect.objectContaining({ file: '--set-file #2', column: 3, message: 'cannot set a.b: a already holds a string, not a map' })]);
  });

  test('a --set-file whose file is missing is a usage error naming the file', async () => {
    const e = await usageError(loadUserLayers({ setFile: ['a=missing.txt'] }, reader));
    expect(e.message).toBe('missing.txt: cannot read --set-file file: no such file');
  });

  test('a --set-file argument without "=" is a problem, not a crash', async () => {
    const { problems } = await loadUserLayers({ setFile: ['nofile'] }, reader);
    expect(problems).toEqual([expect.objectContaining({ rule: 'values/set-syntax', file: '--set-file #1', column: 7 })]);
  });

  test('problems of a bad file keep the file name and position', async () => {
    writeFileSync(join(dir, 'dup.yaml'), 'a: 1\na: 2\n');
    const { problems } = await loadUserLayers({ values: ['dup.yaml'] }, reader);
    expect(problems).toEqual([expect.objectContaining({ rule: 'values/duplicate-key', file: 'dup.yaml', line: 2, column: 1 })]);
  });
});
