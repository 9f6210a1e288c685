import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { settingsOf, typeText, type SchemaNode } from '../../src/docs/values-reference.ts';
import { ROOT } from '../cli-formats/helpers.ts';

async function cli(args: string[]) {
  const io = createMemoryIo();
  const code = await run(args, io);
  return { code, out: io.out, err: io.err };
}
const read = (rel: string) => readFileSync(join(ROOT, rel), 'utf8');
const schema = (rev: 'a' | 'b') => JSON.parse(read(`schemas/values-${rev}.schema.json`)) as SchemaNode;

describe('agentplat docs', () => {
  it('lists every setting of the revision schema with its type and revisions', async () => {
    const out = (await cli(['docs', '--revision', 'B'])).out;
    for (const { key } of settingsOf(schema('b'))) expect(out).toContain(`| \`${key}\` |`);
    expect(out).toMatch(/\| `global\.imagePullPolicy` \| string \| `""` \| .* \| B only \|/);
    expect(out).toMatch(/\| `controller\.replicas` \| int \| `1` \| .* \| A, B \|/);
  });

  it('names the keys of the other revision that this one lacks', async () => {
    const out = (await cli(['docs', '--revision', 'B'])).out;
    expect(out).toContain('- `controller.toolRefreshInterval`');
    expect(out).toContain('- `cluster-agent.*`');
    expect(out).toContain('agentplat migrate --from A -r B');
    const a = (await cli(['docs', '--revision', 'A'])).out;
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
  it.each(['A', 'B'] as const)('values --revision %s prints the defaults file, its schema line pointing at the file `agentplat schema` writes', async (rev) => {
    const r = await cli(['values', '--revision', rev]);
    expect(r.code).toBe(0);
    const file = read(`values/revision-${rev.toLowerCase()}.yaml`);
    expect(file.split('\n')[0]).toMatch(/\$schema=\.\.\/schemas\//);
    expect(r.out.split('\n').slice(0, 2)).toEqual([`# Editor schema: agentplat schema --revision ${rev} > agentplat.schema.json`, '# yaml-language-server: $schema=./agentplat.schema.json']);
    expect(r.out.split('\n').slice(2).join('\n')).toBe(file.split('\n').slice(1).join('\n'));
  });

  it.each(['A', 'B'] as const)('schema --revision %s prints the linter schema with descriptions, defaults and enums', async (rev) => {
    const r = await cli(['schema', '--revision', rev]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(read(`schemas/values-${rev.toLowerCase()}.schema.json`));
    const doc = JSON.parse(r.out);
    expect(doc.$schema).toBe('http://json-schema.org/draft-07/schema#');
    const mode = doc.properties.controller.properties.auth.properties.mode;
    expect(mode.enum).toContain('trusted-proxy');
    expect(typeof mode.description).toBe('string');
    expect(typeof mode.markdownDescription).toBe('string');
    expect(mode.default).toBe(rev === 'A' ? 'unsecure' : 'insecure');
  });

  it('defaults to revision B and rejects an unknown revision with exit 2', async () => {
    expect((await cli(['values'])).out).toBe((await cli(['values', '--revision', 'B'])).out);
    expect((await cli(['values'])).out).toContain('# Default values of the agentplat chart, revision B');
    const bad = await cli(['schema', '--revision', 'C']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('unknown revision "C"');
  });
});
