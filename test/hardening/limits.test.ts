// Issue 8, limits: input size, nesting depth and alias expansion are bounded for every way input
// comes in (values files and stdin, each --set flag, --set-file, validate's resources), and each
// refusal is a clear error: the input and position, the rule, and a hint — at the CLI, in-process.
// The unit tests of each bound are in test/values-source.test.ts, test/values-load.test.ts,
// test/set-parser.test.ts and test/crds/limits.test.ts; this pins what a user sees.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { MAX_SET_DEPTH, MAX_SET_INDEX } from '../../src/values/set-parser.ts';
import { YAML_LIMITS } from '../../src/values/source.ts';
import { MAX_RESOURCE_STREAM_BYTES } from '../../src/values/load.ts';
import { cli, expectContract } from './_cli.ts';

const dir = tempDir('agentplat-limits-');
const bigFile = join(dir, 'big.txt');
writeFileSync(bigFile, 'x'.repeat(YAML_LIMITS.maxTextLength + 1));

const blockNesting = (levels: number) => Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' 1\n';
const aliasBomb = () => {
  const lines = ['a: &a [x, x, x, x, x, x, x, x, x, x]'];
  const names = 'bcdefg';
  for (let i = 0; i < names.length; i++) lines.push(`${names[i]}: &${names[i]} [${Array(10).fill(`*${i === 0 ? 'a' : names[i - 1]}`).join(', ')}]`);
  return `${lines.join('\n')}\n`;
};
const resource = (spec: string) => `apiVersion: agentplat.dev/v1alpha2\nkind: ModelConfig\nmetadata: {name: m}\n${spec}`;

interface Case {
  name: string;
  argv: string[];
  stdin?: string;
  code: 1 | 2;
  /** What the output must say: input and position, rule, hint. */
  says: RegExp[];
}

const CASES: Case[] = [
  {
    name: 'a values file over the size limit (stdin)',
    argv: ['lint', '-f', '-'],
    stdin: `a: ${'x'.repeat(YAML_LIMITS.maxTextLength)}\n`,
    code: 2,
    says: [/^agentplat: <stdin>: more than 1\.0 MiB is too large for a values file \(limit 1 MiB\)$/m, /hint: a values file of this chart is a few kilobytes/],
  },
  {
    name: 'a values file nested deeper than the limit',
    argv: ['lint', '-f', '-'],
    stdin: blockNesting(YAML_LIMITS.maxDepth + 2),
    code: 1,
    says: [/<stdin>:\d+:\d+ {2}error {2}the document nests deeper than 64 levels {2}\[values\/too-deep\]/, /hint: values of this chart are never that deep/],
  },
  {
    name: 'a values file expanding too many aliases',
    argv: ['render', '-f', '-'],
    stdin: aliasBomb(),
    code: 1,
    says: [/<stdin>:2:8 {2}error {2}the document expands too many aliases .*\[values\/yaml-aliases\]/, /hint: an alias-heavy document is refused to bound memory/],
  },
  {
    name: 'a values file whose alias contains itself (endless)',
    argv: ['lint', '-f', '-'],
    stdin: 'controller: &c\n  extra: *c\n',
    code: 1,
    says: [/<stdin>:2:10 {2}error {2}an alias refers to a node that contains it.*\[values\/yaml-aliases\]/, /hint: an alias may only repeat a node that is complete before it/],
  },
  {
    name: `a --set key deeper than ${MAX_SET_DEPTH} levels`,
    argv: ['lint', '--set', `${Array.from({ length: MAX_SET_DEPTH + 1 }, () => 'k').join('.')}=1`],
    code: 1,
    says: [new RegExp(`--set #1:1:${2 * MAX_SET_DEPTH + 1} {2}error {2}the key nests deeper than ${MAX_SET_DEPTH} levels {2}\\[values/set-syntax\\]`), /hint: values of this chart are never that deep/],
  },
  {
    name: `a --set list index above ${MAX_SET_INDEX}`,
    argv: ['render', '--set', `controller.env[${MAX_SET_INDEX + 1}].name=X`],
    code: 1,
    says: [new RegExp(`--set #1:1:16 {2}error {2}list index ${MAX_SET_INDEX + 1} is larger than the limit of ${MAX_SET_INDEX} {2}\\[values/set-syntax\\]`), /hint: lists in values are short/],
  },
  {
    name: 'a --set-json value nested deeper than the limit',
    argv: ['lint', '--set-json', `controller.extra=${'['.repeat(YAML_LIMITS.maxDepth + 1)}${']'.repeat(YAML_LIMITS.maxDepth + 1)}`],
    code: 1,
    says: [/--set-json #1:1:18 {2}error {2}the JSON value nests deeper than 64 levels {2}\[values\/set-syntax\]/, /hint: values of this chart are never that deep/],
  },
  {
    name: 'a --set-file file over the size limit',
    argv: ['lint', '--set-file', `controller.extra=${bigFile}`],
    code: 2,
    says: [/^agentplat: .*big\.txt: 1\.0 MiB is too large for a --set-file file \(limit 1 MiB\)$/m, /hint: /],
  },
  {
    name: 'validate: a resource stream over its own size limit (stdin, 16 MiB)',
    argv: ['validate', '-'],
    stdin: resource(`spec: {model: "${'x'.repeat(MAX_RESOURCE_STREAM_BYTES)}"}\n`),
    code: 2,
    says: [/^agentplat: <stdin>: more than 16\.0 MiB is too large for a stream of custom resources \(limit 16 MiB\)$/m, /hint: validate reads at most 16 MiB per file or stream; split the resources/],
  },
  {
    name: 'validate: a resource stream above the values limit (1 MiB) but within its own is validated',
    argv: ['validate', '-'],
    stdin: resource(`spec: {model: "${'x'.repeat(YAML_LIMITS.maxTextLength)}", provider: BOGUS}\n`),
    code: 1,
    says: [/<stdin>:\d+:\d+ {2}error {2}ModelConfig \S+: spec\.provider must be one of/],
  },
  {
    name: 'validate: a resource expanding too many aliases',
    argv: ['validate', '-'],
    stdin: aliasBomb(),
    code: 1,
    says: [/<stdin>:1:1 {2}error {2}cannot read the document: .*alias.*\[crd\/yaml-syntax\]/i, /hint: an alias-heavy document is refused/],
  },
  {
    name: 'validate: a resource nested too deeply to read',
    argv: ['validate', '-'],
    stdin: resource(`spec: ${'['.repeat(50_000)}${']'.repeat(50_000)}\n`),
    code: 1,
    says: [/<stdin>:4:\d+ {2}error {2}invalid YAML: the document nests too deeply to be read {2}\[crd\/yaml-syntax\]/, /hint: resources are never that deep/],
  },
  {
    name: 'validate: a resource whose alias contains itself',
    argv: ['validate', '-'],
    stdin: resource('spec: &s\n  model: x\n  loop: *s\n'),
    code: 1,
    says: [/<stdin>:6:9 {2}error {2}an alias refers to a node that contains it.*\[crd\/yaml-syntax\]/, /hint: an alias may only repeat/],
  },
];

describe('limits: every input is bounded, and a refusal names the input, the position, the rule and a fix', () => {
  it.each(CASES)('$name', async ({ argv, stdin, code, says }) => {
    const r = await cli(argv, stdin, dir);
    expectContract(r, argv.join(' '));
    expect(r.code, r.err + r.out).toBe(code);
    const text = r.out + r.err;
    for (const re of says) expect(text).toMatch(re);
    // Bounded: a refusal never echoes the oversized input back.
    expect(text.length).toBeLessThan(20_000);
    if (argv[0] === 'render') expect(r.out).toBe('');
  });
});
