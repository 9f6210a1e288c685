// Excerpts hide the values of the fields the models mark secret, on every line such a value
// spans, however broken the YAML around it is; fields that merely name a token stay visible.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInProcess } from '../cli/in-process.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { maskedLines, SecretFields, VALUES_SECRETS } from '../../src/problems/secrets.ts';

const HARNESS = new SecretFields([['spec', 'channels', '*', 'messengerB', 'botToken', 'value']]);
const masked = (text: string, fields = VALUES_SECRETS) => maskedLines(text, fields).map((l) => l.text).join('\n');

describe('secret fields are decided by the models, not by key names', () => {
  it('the values model marks API keys, client and cookie secrets, service-account tokens and the database URL', () => {
    for (const path of ['providers.providerB.apiKey', 'providers.providerA.apiKey', 'authproxy.config.clientSecret', 'authproxy.config.cookieSecret', 'dashboards-mcp.grafana.serviceAccountToken', 'database.rdb.url', 'providers.providerC.config.azureAdToken']) {
      expect(VALUES_SECRETS.covers(path.split('.')), path).toBe(true);
    }
  });

  it('keys that merely name a token or a key are not secret (maxTokens, apiKeySecretKey, substrateApiTokenFile)', () => {
    for (const path of ['providers.providerB.apiKeySecretKey', 'providers.providerB.config.maxTokens', 'controller.substrate.substrateApiTokenFile', 'database.rdb.urlFile']) {
      expect(VALUES_SECRETS.covers(path.split('.')), path).toBe(false);
    }
    expect(masked('providers:\n  providerB:\n    apiKeySecretKey: OPENAI_KEY\n    config:\n      maxTokens: 0\n')).toBe('providers:\n  providerB:\n    apiKeySecretKey: OPENAI_KEY\n    config:\n      maxTokens: 0\n');
  });

  it('anything written inside a secret field is secret too (a map where a string belongs)', () => {
    expect(VALUES_SECRETS.covers(['database', 'rdb', 'url', 'password'])).toBe(true);
    expect(VALUES_SECRETS.holdsSecretBelow(['database'])).toBe(true);
    expect(VALUES_SECRETS.holdsSecretBelow(['controller'])).toBe(false);
  });
});

describe('maskedLines: every line of a secret value is masked, however broken the YAML', () => {
  const head = 'providers:\n  providerC:\n    config:\n      azureAdToken: |\n';

  it('a block scalar is masked on each of its lines', () => {
    expect(masked(`${head}        line-one\n        line-two\n      azureEndpoint: https://x\n`)).toBe(`${head.replace('|', '********')}        ********\n        ********\n      azureEndpoint: https://x\n`);
  });

  it('a continuation line at the key indent, at column 1, or starting with a tab is still masked', () => {
    for (const bad of ['      LEAK-AT-KEY-INDENT', 'LEAK-AT-COLUMN-1', '\tLEAK-AFTER-TAB', '   LEAK-LESS-INDENTED']) {
      const out = masked(`${head}        line-one\n${bad}\n        line-three\n`);
      expect(out, bad).not.toContain('LEAK');
      expect(out).not.toContain('line-');
    }
  });

  it('the next entry at or left of the key ends the secret', () => {
    const out = masked(`${head}        line-one\n      azureEndpoint: https://x\n  providerD:\n    model: m\n`);
    expect(out).toContain('azureEndpoint: https://x');
    expect(out).toContain('model: m');
  });

  it('a flow map where the secret string belongs is masked whole, also across lines', () => {
    expect(masked('database:\n  rdb:\n    url: {user: app, password: LEAK, host: db}\n')).not.toContain('LEAK');
    expect(masked('database:\n  rdb:\n    url: {user: app,\n      password: LEAK}\n')).not.toContain('LEAK');
    expect(masked('database:\n  rdb:\n    url:\n      password: LEAK\n      x: [\n')).not.toContain('LEAK');
  });

  it('inside a flow map, only the secret field is masked and its siblings stay visible', () => {
    expect(masked('authproxy: {config: {clientID: visible-id, clientSecret: LEAK}, enabled: true}\n')).toBe('authproxy: {config: {clientID: visible-id, clientSecret: ********}, enabled: true}\n');
    expect(masked('authproxy:\n  config: {clientID: visible-id,\n    "clientSecret": "LEAK"}\n')).toBe('authproxy:\n  config: {clientID: visible-id,\n    "clientSecret": ********}\n');
  });

  it('list entries are followed: a credential in a list of channels is masked, its neighbours are not', () => {
    const text = [
      'spec:',
      '  channels:',
      '    - name: chat',
      '      messengerB:',
      '        botToken:',
      '          value: LEAK-1',
      '        appToken: {value: visible-because-not-marked}',
      '    - messengerB: {botToken: {value: LEAK-2}}',
      '    - name: x',
      '      messengerB:',
      '        botToken: {value: [LEAK-3]}',
      '',
    ].join('\n');
    const out = masked(text, HARNESS);
    expect(out).not.toContain('LEAK');
    expect(out).toContain('visible-because-not-marked');
    expect(out).toContain('- name: chat');
  });

  it('a new document (---) starts from the top again', () => {
    expect(masked('database:\n  rdb:\n    url: |\n      LEAK\n---\nurl: visible\n')).toBe('database:\n  rdb:\n    url: ********\n      ********\n---\nurl: visible\n');
  });

  it('the password of any URL with credentials is masked, whatever field holds it', () => {
    expect(masked('ui:\n  edge:\n    upstream: https://user:LEAK@host/x\n')).not.toContain('LEAK');
  });
});

describe('a caret under a masked excerpt points where the column of the file points', () => {
  const LINE = 'providers: {providerA: {apiKey: sk-aaaaaaaaaaaaaaaaaaaaaaa}, providerB: {apiKey: sk-bbbbbbbbbbbbbbbbbbbbbbbbbbbb, bogus: 1}}';

  it('each column after each of two masks on one line maps to the same character of the masked line', () => {
    const [line] = maskedLines(LINE, VALUES_SECRETS);
    expect(line!.text).toBe('providers: {providerA: {apiKey: ********}, providerB: {apiKey: ********, bogus: 1}}');
    for (const word of ['providerA', 'providerB', 'bogus', '1}}']) {
      expect(line!.text.slice(line!.column(LINE.indexOf(word) + 1) - 1).startsWith(word), word).toBe(true);
    }
  });

  it('a URL password and a secret field on one line are both in the one column map', () => {
    const text = 'ui: {edge: {upstream: "https://u:pw-long-long-long@h/x"}, x: 1}\nproviders: {providerA: {apiKey: sk-secret-secret-secret}, y: 2}';
    const [url, key] = maskedLines(text, VALUES_SECRETS);
    const first = text.split('\n')[0]!;
    expect(url!.text).not.toContain('pw-long');
    expect(url!.text.slice(url!.column(first.indexOf('x: 1') + 1) - 1)).toBe('x: 1}');
    const second = text.split('\n')[1]!;
    expect(key!.text.slice(key!.column(second.indexOf('y: 2') + 1) - 1)).toBe('y: 2}');
  });

  it('lint: the caret of a problem after two secrets on its line sits under the key the problem names', async () => {
    const dir = tempDir('agentplat-caret-');
    writeFileSync(join(dir, 'two.yaml'), `${LINE}\n`);
    const r = await runInProcess(['lint', 'two.yaml', '--no-color'], { cwd: dir });
    expect(r.stdout).toMatch(/two\.yaml:1:115 +error +unknown key `providers\.providerB\.bogus`/);
    const lines = r.stdout.split('\n');
    // The excerpt under the unknown key's finding (the line's other findings have excerpts of their own).
    const start = lines.findIndex((l) => l.includes('unknown key `providers.providerB.bogus`'));
    const i = lines.findIndex((l, k) => k > start && l.includes('1 | providers:'));
    const excerpt = lines[i]!;
    const caret = lines[i + 1]!.indexOf('^');
    expect(excerpt.slice(caret).startsWith('bogus')).toBe(true);
  });
});
