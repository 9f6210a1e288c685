// validate reads, checks and prints one file at a time (docs/performance.md, "Performance"): the problems of a
// file are written before the next file is read, nothing of a checked file is kept but counts,
// and the output is the one a whole-run report gives, byte for byte, in every format.
import { execFileSync, spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { ResourceValidation, validateCustomResources } from '../../src/kube-check/validate.ts';
import { FORMAT_NAMES } from '../../src/problems/format-names.ts';
import { fastDocuments } from '../../src/yaml/read.ts';
import { runInProcess } from '../cli/in-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const modelConfig = (name: string, spec: string) => `apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata:\n  name: ${name}\nspec:\n${spec}`;
const BAD = modelConfig('bad', '  model: m\n  provider: NotAProvider\n  bogus: 1\n');
const GOOD = modelConfig('good', '  model: m\n  provider: ProviderA\n');
// 25 wrong entries of one list: more than a report lists per rule and path (the rest summed up in one).
const MANY = Array.from({ length: 25 }, (_, i) => modelConfig(`m${i}`, `  model: m\n  provider: ProviderA\n  extra${i}: 1\n`)).join('---\n');

describe('validate streams: one file at a time', () => {
  it.runIf(process.platform !== 'win32')('the problems of a file are written before the next file is read', async () => {
    const cwd = tempDir('agentplat-validate-stream-');
    writeFileSync(join(cwd, 'a.yaml'), BAD);
    writeFileSync(join(cwd, 'good.txt'), GOOD);
    // The second file is a FIFO: reading it waits until this test writes to it, which it does
    // only once the first file's problems are on stdout.
    execFileSync('mkfifo', [join(cwd, 'b.yaml')]);
    const io = Object.assign(createMemoryIo({ cwd }), { fifoWaitMs: 30_000 });
    let done = false;
    const running = run(['validate', 'a.yaml', 'b.yaml'], io).finally(() => (done = true));
    while (!done && !io.out.includes('a.yaml:7:')) await new Promise((resolve) => setTimeout(resolve, 10));
    const beforeSecondFile = io.out;
    // The writer is another process, as in real use: the read itself blocks this one until the data comes.
    const writer = done ? undefined : spawn('sh', ['-c', 'cat "$1" > "$0"', join(cwd, 'b.yaml'), join(cwd, 'good.txt')]);
    const code = await running;
    if (writer) await new Promise((resolve) => writer.on('close', resolve));
    expect(beforeSecondFile).toContain('a.yaml:7:3  error  ModelConfig bad: spec.provider must be one of');
    expect(beforeSecondFile).not.toMatch(/\d+ files?, \d+ errors?/);
    expect(code).toBe(1);
    expect(io.out).toMatch(/\n\n2 files, 2 errors, 0 warnings\n$/);
  });

  it.each(FORMAT_NAMES)('--format %s: the output is the whole-run report, whichever order the files are named in', async (format) => {
    const cwd = tempDir('agentplat-validate-stream-');
    const files = { 'a.yaml': BAD, 'b.yaml': GOOD, 'c.yaml': MANY, 'd.yaml': `${BAD}---\n${MANY}` };
    for (const [name, text] of Object.entries(files)) writeFileSync(join(cwd, name), text);
    const inOrder = await runInProcess(['validate', 'a.yaml', 'b.yaml', 'c.yaml', 'd.yaml', '--format', format], { cwd });
    const reversed = await runInProcess(['validate', 'd.yaml', 'c.yaml', 'b.yaml', 'a.yaml', '--format', format], { cwd });
    const dir = await runInProcess(['validate', '.', '--format', format], { cwd });
    expect(inOrder.code).toBe(1);
    expect(inOrder.stdout).toContain('unknown field');
    expect(reversed).toEqual(inOrder);
    expect(dir).toEqual(inOrder);
  });
});

describe('ResourceValidation: fed one input at a time', () => {
  it("check gives each input's problems and keeps none; finish adds only the run's own", () => {
    const inputs = [
      { file: 'a.yaml', text: BAD },
      { file: 'b.yaml', text: GOOD },
      { file: 'c.yaml', text: MANY },
    ];
    const run = new ResourceValidation();
    const each = inputs.map((input) => run.check(input));
    expect(each.map((ps) => ps.length)).toEqual([2, 0, 25]);
    expect(each.flat().every((p, i, all) => p.file === (i < 2 ? 'a.yaml' : 'c.yaml') && all.indexOf(p) === i)).toBe(true);
    const end = run.finish();
    expect(end.problems).toEqual([]);
    expect(end.checkedKinds).toEqual({ ModelConfig: 27 });
    expect({ ...end, problems: each.flat() }).toEqual(validateCustomResources(inputs));
  });

  it('a run of inputs that hold no object agentplat has a schema for end with nothing-checked, once, from finish', () => {
    const run = new ResourceValidation();
    expect(run.check({ file: 'a.yaml', text: '# nothing\n' })).toEqual([]);
    expect(run.check({ file: 'b.yaml', text: 'apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: x\n' })).toEqual([]);
    expect(run.finish().problems.map((p) => [p.rule, p.file])).toEqual([['crd/nothing-checked', undefined]]);
  });
});

describe('a file the plain reader reads: only its documents with problems are read again, with positions', () => {
  // Comment-only documents, a leading marker, literal blocks, secrets in excerpts, problems in
  // documents 2 and 4 (of 5): the positions must be the file's, as a read of the whole file gives.
  const text = [
    '# a stream as kubectl kustomize writes it',
    '---',
    GOOD,
    '---',
    '# only a comment',
    '---',
    BAD,
    '---',
    'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  script: |\n    echo ---\n    # not a comment\n',
    '---',
    modelConfig('secret', '  model: m\n  provider: ProviderA\n  apiKeySecret: k\n  defaultHeaders:\n    Authorization: Bearer hunter2\n  bogus: |\n    line one\n    line two\n'),
    '---',
    GOOD.replace('name: good', 'name: good-2'),
  ].join('\n');

  it('gives the problems, lines and excerpts of a read of the whole file', () => {
    const fast = validateCustomResources([{ file: 's.yaml', text }]);
    const whole = validateCustomResources([{ file: 's.yaml', text }], { noFastPath: true });
    expect(fast).toEqual(whole);
    expect(fast.problems.map((p) => [p.line, p.rule])).toEqual([
      [21, 'crd/unknown-field'],
      [20, 'crd/schema'],
      [44, 'crd/unknown-field'],
    ]);
    expect(JSON.stringify(fast.problems)).not.toContain('hunter2');
  });
});

describe('a stream is read one document at a time', () => {
  it('the plain reader gives a document before it reads the next one', () => {
    // The second document has a `...` line, which the plain reader leaves to the yaml library:
    // it says so only when that document is asked for, after giving the first.
    const docs = fastDocuments(`${GOOD}---\n${BAD}...\n`, 'resources');
    expect(docs.next()).toMatchObject({ done: false, value: { kind: 'ModelConfig', metadata: { name: 'good' } } });
    expect(docs.next()).toEqual({ done: true, value: false });
  });

  it('a stream the plain reader leaves part-way is checked whole by the yaml library, with the same problems', () => {
    const text = `${GOOD}---\n${BAD}---\n${GOOD.replace('good', 'good-2')}...\n`;
    const fast = validateCustomResources([{ file: '<stdin>', text }]);
    expect(fast).toEqual(validateCustomResources([{ file: '<stdin>', text }], { noFastPath: true }));
    expect(fast.problems.map((p) => p.line)).toEqual([16, 15]);
    expect(fast.checked).toBe(3);
  });
});


describe('validate opens every path before it prints', () => {
  it('a missing file after files with problems: exit 2, nothing on stdout', async () => {
    const dir = tempDir('agentplat-validate-open-');
    writeFileSync(join(dir, 'a.yaml'), modelConfig('Bad_Name', '  provider: OpenAI\n'));
    const r = await runInProcess(['validate', 'a.yaml', 'zz-missing.yaml'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/zz-missing\.yaml: cannot read resource file: no such file/);
  });
});
