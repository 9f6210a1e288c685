// The --set family means what it means in helm (issue 27, item 4): each case below is one of the
// differences measured against helm 4.3.1, with helm's answer as the expectation. The cluster
// tier (test/cluster/set-differential.test.ts) runs many more cases through a real helm.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadUserLayers, type LayerOptions } from '../src/values/load.ts';
import { layerValues, type Values } from '../src/values/merge.ts';
import { dataSource } from '../src/values/source.ts';
import { runInProcess } from './cli/in-process.ts';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentplat-helm-flags-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The values helm's templates would see: `files` as -f layers, the flags, over `defaults`. */
async function merged(opts: LayerOptions & { files?: string[]; defaults?: Values }): Promise<Values> {
  const values = (opts.files ?? []).map((text, i) => {
    writeFileSync(join(dir, `f${i}.yaml`), text);
    return `f${i}.yaml`;
  });
  const { sources, problems } = await loadUserLayers({ ...opts, values }, { cwd: dir, readStdin: async () => '' });
  expect(problems).toEqual([]);
  const defaults = opts.defaults ? [{ ...dataSource('defaults', opts.defaults), chartDefaults: true }] : [];
  return layerValues([...defaults, ...sources]).values;
}

describe('a flag edits the tree the -f files built, in place', () => {
  test('--set l[2] extends a list from a file', async () => {
    expect(await merged({ files: ['l: [0, 1]\n'], set: ['l[2]=2'] })).toEqual({ l: [0, 1, 2] });
  });

  test('--set tolerations[0].effect keeps the key and operator the file gave the item', async () => {
    const file = 'tolerations:\n  - key: gpu\n    operator: Exists\n    effect: NoExecute\n';
    expect(await merged({ files: [file], set: ['tolerations[0].effect=NoSchedule'] })).toEqual({ tolerations: [{ key: 'gpu', operator: 'Exists', effect: 'NoSchedule' }] });
  });

  test('--set edits the list --set-json wrote (helm applies --set-json first)', async () => {
    expect(await merged({ setJson: ['l=[1,2,3]'], set: ['l[0]=9'] })).toEqual({ l: [9, 2, 3] });
  });

  test('--set-json a={} over a map from a file replaces it (the chart defaults still coalesce under it)', async () => {
    expect(await merged({ files: ['a:\n  x: 1\n'], setJson: ['a={}'], defaults: { a: { d: 1 } } })).toEqual({ a: { d: 1 } });
  });

  test("--set-json with a whole JSON object merges it into the values, as helm's --set-json '{…}' does", async () => {
    expect(await merged({ files: ['a:\n  x: 1\n'], setJson: ['{"a":{"y":2},"b":[1]}'] })).toEqual({ a: { x: 1, y: 2 }, b: [1] });
  });

  test('a flag over a file value of another shape replaces it (helm fails with a type assertion; see the table of docs/values.md)', async () => {
    expect(await merged({ files: ['a: text\n'], set: ['a.b=1'] })).toEqual({ a: { b: 1 } });
  });

  test('a list item that is not a map becomes one when a key follows its index, as in helm', async () => {
    expect(await merged({ files: ['l: [x]\n'], set: ['l[0].a=1'] })).toEqual({ l: [{ a: 1 }] });
  });
});

describe('files merge among themselves before the chart defaults are coalesced', () => {
  test('null in one file and a map in a later one keeps the default fields', async () => {
    expect(await merged({ files: ['a: null\n', 'a:\n  x: 1\n'], defaults: { a: { x: 0, y: 2 } } })).toEqual({ a: { x: 1, y: 2 } });
  });

  test('a null deletes the default below it', async () => {
    expect(await merged({ files: ['a:\n  y: null\n'], defaults: { a: { x: 0, y: 2 } } })).toEqual({ a: { x: 0 } });
  });
});

describe('values the way helm reads them', () => {
  test('--set a={} is the list [""]', async () => {
    expect(await merged({ set: ['a={}'] })).toEqual({ a: [''] });
  });

  test('list indexes with leading zeros, a sign or -0 are read as Go reads them', async () => {
    expect(await merged({ set: ['a[00001]=x', 'b[-0]=y', 'c[+1]=z'] })).toEqual({ a: [null, 'x'], b: ['y'], c: [null, 'z'] });
  });

  test('a trailing backslash escapes nothing and is dropped', async () => {
    expect(await merged({ set: ['a=x\\'] })).toEqual({ a: 'x' });
  });

  test('--set-literal takes the key literally: a backslash is part of a name, a comma too', async () => {
    expect(await merged({ setLiteral: ['a\\.b=1', 'c,d=2,3'] })).toEqual({ 'a\\': { b: '1' }, 'c,d': '2,3' });
  });

  test('--set-json a=1e400 is refused (Go cannot hold it in a float64)', async () => {
    const { problems } = await loadUserLayers({ setJson: ['a=1e400'] }, { cwd: dir, readStdin: async () => '' });
    expect(problems).toEqual([expect.objectContaining({ rule: 'values/set-syntax', column: 3, message: 'a number in the JSON value is too large for a 64-bit float' })]);
  });

  test('--set-file reads each file an argument names, and "\\," is a comma in a path', async () => {
    writeFileSync(join(dir, 'x,y.txt'), 'comma');
    writeFileSync(join(dir, 'x'), 'plain');
    writeFileSync(join(dir, 'z.txt'), 'zed');
    expect(await merged({ setFile: ['a=x\\,y.txt,b=z.txt', 'c={x,z.txt}'] })).toEqual({ a: 'comma', b: 'zed', c: ['plain', 'zed'] });
  });
});

describe('--set key={} where an empty list or map is meant', () => {
  /** The hint of the one problem `agentplat lint …flags` reports. */
  async function hintOf(flags: string[]): Promise<string | undefined> {
    const r = await runInProcess(['lint', ...flags, '--format', 'json']);
    const problems = (JSON.parse(r.stdout) as { files: { problems: { hint?: string }[] }[] }).files.flatMap((f) => f.problems);
    expect(problems).toHaveLength(1);
    return problems[0]!.hint;
  }

  test.each([
    ['rbac.namespaces', 'a list of namespace names refuses the empty name'],
    ['controller.imagePullSecrets', 'a list of names of at least one character'],
    ['controller.tolerations', 'a list of maps'],
  ])('%s={} points at --set-json with [] (%s)', async (key) => {
    expect(await hintOf(['--set', `${key}={}`])).toBe(`--set reads \`{}\` as a list of one empty string, as helm does: to set an empty list, use --set-json '${key}=[]'`);
  });

  test('--set-string is named as the flag that read it', async () => {
    expect(await hintOf(['--set-string', 'rbac.namespaces={}'])).toBe(
      "--set-string reads `{}` as a list of one empty string, as helm does: to set an empty list, use --set-json 'rbac.namespaces=[]'",
    );
  });

  test('a map key set with {} points at --set-json with {}', async () => {
    expect(await hintOf(['--set', 'controller.podLabels={}'])).toBe("--set reads `{}` as a list of one empty string, as helm does: to set an empty map, use --set-json 'controller.podLabels={}'");
  });

  test('the same list written in a file, where [""] is what the user wrote, gets no such hint', async () => {
    writeFileSync(join(dir, 'empty-name.yaml'), 'rbac:\n  namespaces: [""]\n');
    expect(await hintOf(['-f', join(dir, 'empty-name.yaml')])).toBeUndefined();
  });
});
