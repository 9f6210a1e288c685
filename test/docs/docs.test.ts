import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { settingsOf, typeText, type SchemaNode } from '../../src/docs/values-reference.ts';
import { ROOT } from '../cli-formats/helpers.ts';
import { runInProcess } from '../cli/in-process.ts';

const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const schema = (rev: 'a' | 'b') => JSON.parse(read(`schemas/values-${rev}.schema.json`)) as SchemaNode;

describe('agentplat docs', () => {
  it('lists every setting of the revision schema with its type and revisions', async () => {
    const out = (await runInProcess(['docs', '--revision', 'B'])).stdout;
    for (const { key } of settingsOf(schema('b'))) expect(out).toContain(`| \`${key}\` |`);
    expect(out).toMatch(/\| `global\.imagePullPolicy` \| string \| `""` \| .* \| B only \|/);
    expect(out).toMatch(/\| `controller\.replicas` \| int \| `1` \| .* \| A, B \|/);
  });

  it('names the keys of the other revision that this one lacks', async () => {
    const out = (await runInProcess(['docs', '--revision', 'B'])).stdout;
    expect(out).toContain('- `controller.toolRefreshInterval`');
    expect(out).toContain('- `cluster-agent.*`');
    expect(out).toContain('agentplat migrate --from A -r B');
    const a = (await runInProcess(['docs', '--revision', 'A'])).stdout;
    expect(a).toContain('- `global.*`');
    expect(a).not.toContain('agentplat migrate');
  });

  it('describes types for people', () => {
    expect(typeText({ type: 'array', items: { $ref: '#/definitions/IoK8sApiCoreV1EnvVar' } })).toBe('list of EnvVar');
    expect(typeText({ type: 'object', additionalProperties: { type: 'string' } })).toBe('map of string');
    expect(typeText({ oneOf: [{ type: 'integer' }, { type: 'string' }] })).toBe('int or string');
  });
});

describe('agentplat values and schema', () => {
  it.each(['A', 'B'] as const)('values --revision %s prints the defaults file verbatim, its schema line pointing at the file `agentplat schema` writes', async (rev) => {
    const r = await runInProcess(['values', '--revision', rev]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(read(`values/revision-${rev.toLowerCase()}.yaml`));
    expect(r.stdout.split('\n')[0]).toBe('# yaml-language-server: $schema=./agentplat.schema.json');
    expect(r.stdout).toContain(`agentplat schema --revision ${rev} > agentplat.schema.json`);
  });

  it.each(['A', 'B'] as const)('values --revision %s has no line meant for this repository\'s developers (users copy it into their files)', async (rev) => {
    const r = await runInProcess(['values', '--revision', rev]);
    expect(r.stdout).not.toMatch(/edit the model|not this file|src\/spec|scripts\//);
  });

  it.each(['A', 'B'] as const)('schema --revision %s prints the linter schema with descriptions, defaults and enums', async (rev) => {
    const r = await runInProcess(['schema', '--revision', rev]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(read(`schemas/values-${rev.toLowerCase()}.schema.json`));
    const doc = JSON.parse(r.stdout);
    expect(doc.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const mode = doc.properties.controller.properties.auth.properties.mode;
    expect(mode.enum).toContain('trusted-proxy');
    expect(typeof mode.description).toBe('string');
    expect(typeof mode.markdownDescription).toBe('string');
    expect(mode.default).toBe(rev === 'A' ? 'unsecure' : 'insecure');
  });

  it('defaults to revision B and rejects an unknown revision with exit 2', async () => {
    expect((await runInProcess(['values'])).stdout).toBe((await runInProcess(['values', '--revision', 'B'])).stdout);
    expect((await runInProcess(['values'])).stdout).toContain('# Default values of the agentplat chart, revision B');
    const bad = await runInProcess(['schema', '--revision', 'C']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('unknown revision "C"');
  });
});

describe('findings in the defaults point at lines of `agentplat values`', () => {
  it.each(['A', 'B'] as const)('revision %s: the line and column lint reports in <agentplat values> hold the key in `agentplat values -r` output', async (rev) => {
    const printed = (await runInProcess(['values', '-r', rev])).stdout.split('\n');
    // A user file that writes nothing about the database: the bundled-database note points at the defaults.
    const io = await runInProcess(['lint', '--verbose', '--no-color', '-r', rev, '-f', '-'], { stdin: 'controller:\n  replicas: 2\n' });
    const label = `<agentplat values --revision ${rev}>`;
    const found = [...io.stdout.matchAll(/^(<[^>]+>):(\d+):(\d+) .*\n(?: {2}hint: .*\n)?(?: {2}\d+ \| (.*)\n)?/gm)];
    expect(found.length).toBeGreaterThan(0);
    for (const [all, file, line, column, excerpt] of found) {
      expect(file).toBe(label);
      const printedLine = printed[Number(line) - 1]!;
      expect(printedLine.slice(Number(column) - 1), all).toMatch(/^enabled:/);
      expect(excerpt).toBe(printedLine);
    }
  });
});
