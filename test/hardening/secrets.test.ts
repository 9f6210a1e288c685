// Issue 8, secrets: secret values (API keys, client and cookie secrets, tokens, database URLs with
// passwords — every key the schemas mark `x-agentplat-secret`) never appear in any output of
// lint, render or validate, in any format, whatever problem is found next to them: a wrong type,
// an unknown sibling key, a rule finding on the key itself, a YAML syntax error on its line, bad
// --set syntax after it.
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { VALUES_SECRETS } from '../../src/problems/secrets.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import { cli, expectContract } from './_cli.ts';
import { valuesSchema, type SchemaNode } from './_values-arb.ts';

const FORMATS = ['text', 'json', 'sarif', 'github', 'junit'] as const;

/** Paths the schema marks secret. */
function secretPaths(revision: Revision): string[] {
  const out: string[] = [];
  const walk = (n: SchemaNode, path: string[]) => {
    if (n['x-agentplat-secret']) out.push(path.join('.'));
    for (const [k, sub] of Object.entries(n.properties ?? {})) walk(sub, [...path, k]);
  };
  walk(valuesSchema(revision), []);
  return out;
}

/** A distinct secret per key, shaped like what it stands for. */
function secretFor(path: string): string {
  const tag = path.replace(/[^A-Za-z]/g, '').slice(-10);
  if (path === 'database.rdb.url') return `postgres://app:Pw-${tag}-9f3e@db.example.com:5432/agentplat`;
  if (path.endsWith('cookieSecret')) return 'Ck7wQ2xR9mV4tY6u'; // 16 bytes: a legal cookie secret
  return `sk-${tag}-Zq81vN4e`;
}

/** Values that set `path` to `value`, plus whatever `extra` adds beside it. */
function withPath(path: string, value: unknown, sibling?: Record<string, unknown>): Record<string, unknown> {
  const segs = path.split('.');
  const root: Record<string, unknown> = {};
  let cur = root;
  segs.forEach((s, i) => {
    if (i === segs.length - 1) {
      cur[s] = value;
      Object.assign(cur, sibling ?? {});
    } else cur = (cur[s] = {}) as Record<string, unknown>;
  });
  return root;
}

interface Scenario {
  name: string;
  /** Values file text, or --set arguments. */
  file?: string;
  args?: string[];
}

function scenarios(path: string, secret: string): Scenario[] {
  const leaf = path.split('.').pop()!;
  const indent = '  '.repeat(path.split('.').length - 1);
  const parents = path.split('.').slice(0, -1).map((s, i) => `${'  '.repeat(i)}${s}:\n`).join('');
  return [
    { name: 'an unknown sibling key (block style)', file: stringify(withPath(path, secret, { bogusSibling: 1 })) },
    { name: 'an unknown sibling key on the same line (flow style)', file: flowStyle(path, secret) },
    { name: 'a wrong type: the secret inside a list', file: stringify(withPath(path, [secret])) },
    { name: 'a wrong type: the secret inside a map', file: stringify(withPath(path, { value: secret })) },
    { name: 'a wrongly typed sibling elsewhere (controller.replicas)', file: stringify({ ...withPath(path, secret), controller: { replicas: 'two' } }) },
    { name: 'a YAML syntax error on the secret line (a second ": ")', file: `${parents}${indent}${leaf}: ${secret}: x\n` },
    { name: 'a YAML syntax error on the secret line (unclosed quote)', file: `${parents}${indent}${leaf}: "${secret}\n` },
    { name: 'a YAML syntax error after the secret (bad indentation)', file: `${parents}${indent}${leaf}: ${JSON.stringify(secret)}\n${indent}  oops: [\n` },
    { name: 'a multi-line secret whose continuation line is at the key\'s indent', file: `${parents}${indent}${leaf}: |\n${indent}  ${secret}-1\n${indent}${secret}-2\n${indent}  ${secret}-3\n` },
    { name: 'a multi-line secret whose continuation line is at column 1', file: `${parents}${indent}${leaf}: |\n${indent}  ${secret}-1\n${secret}-2\n` },
    { name: 'a multi-line secret with a tab in its block', file: `${parents}${indent}${leaf}: |\n${indent}  ${secret}-1\n\t${secret}-2\n` },
    { name: 'a flow map where the secret string belongs', file: `${parents}${indent}${leaf}: {user: app, password: ${secret}, host: db}\n` },
    { name: 'a block map where the secret string belongs, with a syntax error inside', file: `${parents}${indent}${leaf}:\n${indent}  password: ${secret}\n${indent}  x: [\n` },
    { name: '--set with a wrong sibling', args: ['--set', `${path}=${secret},controller.replicas=two`] },
    { name: '--set with bad syntax after the secret', args: ['--set', `${path}=${secret},controller[x]=1`] },
    { name: '--set with bad syntax before the secret', args: ['--set', `controller..replicas=1,${path}=${secret}`] },
    { name: '--set-string with an unknown key beside it', args: ['--set-string', `${path}=${secret}`, '--set-string', 'controller.bogusKey=1'] },
    { name: '--set-json with the secret in a map', args: ['--set-json', `${path}={"v":${JSON.stringify(secret)}}`] },
    { name: '--set-json with a JSON syntax error after the secret', args: ['--set-json', `${path}=${JSON.stringify(secret)},x={`] },
  ];
}

/** The secret's parent written as one flow map with an unknown key beside the secret. */
function flowStyle(path: string, secret: string): string {
  const segs = path.split('.');
  const leaf = segs.pop()!;
  const parents = segs.slice(0, -1).map((s, i) => `${'  '.repeat(i)}${s}:\n`).join('');
  const last = segs[segs.length - 1]!;
  return `${parents}${'  '.repeat(segs.length - 1)}${last}: {${leaf}: ${JSON.stringify(secret)}, bogusSibling: 1}\n`;
}

describe('secret values never appear in any output', () => {
  it('every key the schemas mark secret is recognised as secret by the linter', () => {
    const all = [...new Set([...secretPaths('A'), ...secretPaths('B')])];
    expect(all.length).toBeGreaterThanOrEqual(10);
    expect(all.filter((p) => !VALUES_SECRETS.covers(p.split('.')))).toEqual([]);
  });

  for (const revision of ['A', 'B'] as const) {
    for (const path of secretPaths(revision)) {
      it(`revision ${revision}: ${path} stays hidden in lint (every format) and render, next to every kind of problem`, async () => {
        const secret = secretFor(path);
        for (const s of scenarios(path, secret)) {
          const inputs = s.file !== undefined ? { argv: ['-f', '-'], stdin: s.file } : { argv: s.args!, stdin: undefined };
          const runs = [...FORMATS.map((f) => ['lint', '-r', revision, '--format', f]), ['render', '-r', revision]];
          let problems = 0;
          for (const cmd of runs) {
            const argv = [...cmd, ...inputs.argv];
            const r = await cli(argv, inputs.stdin);
            const what = `${s.name}: agentplat ${argv.join(' ')}${inputs.stdin ? ` <<< ${JSON.stringify(inputs.stdin)}` : ''}`;
            expectContract(r, what);
            if (r.code !== 0) problems++;
            expect(r.out.includes(secret) || r.err.includes(secret), `the secret is printed\n${what}\n${r.out}${r.err}`).toBe(false);
          }
          // Not vacuous: each scenario does produce a problem report to search.
          expect(problems, s.name).toBe(runs.length);
        }
      });
    }
  }

  it('validate (text and json): credentials in a resource stay hidden next to problems on their line', async () => {
    const password = 'PwInResource-7c1d';
    const adToken = 'adTokenInResource-41aa';
    const botToken = 'xoxb-BotTokenInline-93f1';
    const appToken = 'xapp-AppTokenInline-0c2e';
    const text = [
      'apiVersion: agentplat.dev/v1alpha2',
      'kind: RemoteMCPServer',
      'metadata: {name: tools}',
      `spec: {url: "https://svc:${password}@tools.example.com/mcp", protocol: BOGUS, unknownField: 1}`,
      '---',
      'apiVersion: agentplat.dev/v1alpha2',
      'kind: ModelConfig',
      'metadata: {name: m}',
      `spec: {model: x, provider: ProviderC, providerC: {azureAdToken: "${adToken}", bogus: 1}}`,
      '---',
      'apiVersion: agentplat.dev/v1alpha2',
      'kind: AgentHarness',
      'metadata: {name: h}',
      'spec:',
      '  backend: backendA',
      '  channels:',
      '    - name: chat',
      '      type: messengerB',
      '      messengerB:',
      `        botToken: {value: ${botToken}, bogus: 1}`,
      '        appToken:',
      `          value: ${appToken}`,
      '          bogus: 1',
      '---',
      'apiVersion: agentplat.dev/v1alpha2',
      'kind: AgentHarness',
      'metadata: {name: h2}',
      'spec:',
      '  backend: backendA',
      '  channels:',
      '    - name: chat',
      '      type: messengerA',
      '      messengerA:',
      `        botToken: {value: [${botToken}]}`,
      '',
    ].join('\n');
    for (const format of ['text', 'json']) {
      const r = await cli(['validate', '--format', format, '-'], text);
      expectContract(r, text);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/unknown field/);
      // Not vacuous: the problems point at the lines that hold the credentials.
      expect(r.out).toMatch(/messengerB\.botToken\.bogus/);
      expect(r.out).toMatch(/messengerB\.appToken\.bogus/);
      expect(r.out).toMatch(/providerC\.bogus/);
      expect(r.out).toMatch(/botToken\.value must be a string/);
      for (const secret of [password, adToken, botToken, appToken]) expect(r.out + r.err, secret).not.toContain(secret);
    }
  });

  it('validate: a field that merely names a token (maxTokens) is shown, not masked', async () => {
    const text = ['apiVersion: agentplat.dev/v1alpha2', 'kind: ModelConfig', 'metadata: {name: m}', 'spec:', '  model: x', '  provider: ProviderB', '  providerB:', '    maxTokens: 0', ''].join('\n');
    for (const format of ['text', 'json']) {
      const r = await cli(['validate', '--format', format, '-'], text);
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/maxTokens/);
      expect(r.out).toContain('maxTokens: 0');
      expect(r.out).not.toContain('*****');
    }
  });

  it('lint: a --set syntax error of the user is shown as typed, not masked', async () => {
    for (const format of ['text', 'json']) {
      const r = await cli(['lint', '--format', format, '--set', 'controller..replicas=2']);
      expect(r.code).toBe(1);
      expect(r.out).toContain('controller..replicas=2');
      expect(r.out).not.toContain('*');
    }
  });

  it('lint: a field that merely names a token is shown, not masked (values)', async () => {
    const r = await cli(['lint', '-r', 'A', '--format', 'json', '-f', '-'], 'controller:\n  substrate:\n    substrateApiTokenExpirationSeconds: soon\n');
    expect(r.code).toBe(1);
    expect(r.out).toContain('substrateApiTokenExpirationSeconds: soon');
    expect(r.out).toContain('found \\"soon\\"');
  });
});
