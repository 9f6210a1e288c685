// The proxy's configuration files are values too: `authproxy.config.configFile` (the legacy file,
// `client_secret = "…"`) and `authproxy.alphaConfig.configFile` (YAML, `clientSecret: …`). The
// commands that report values mask the values of their secret settings as they mask every other
// secret (values --computed, --show-origin, diff, plan); render prints what is applied, unmasked.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemaAt } from '../../src/lint/schema.ts';
import { configTextSecretSpans, MASK, maskSpans, VALUES_CONFIG_TEXT_FIELDS } from '../../src/problems/secrets.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { runInProcess } from './in-process.ts';

const LEGACY = [
  'email_domains = ["*"]',
  'client_secret = "file-secret-xyz"',
  "cookie_secret = 'cookie-in-file-1'",
  'redis_password = bare-redis-pw   # the session store',
  'client_secret_file = "/etc/proxy/client-secret"',
  'pass_access_token = true',
];
const SECRETS = ['file-secret-xyz', 'cookie-in-file-1', 'bare-redis-pw', 'alpha-secret-99'];

function values(clientSecret = 'file-secret-xyz'): string {
  return [
    'authproxy:',
    '  enabled: true',
    '  config:',
    '    clientID: my-client',
    '    clientSecret: top-secret-1',
    '    cookieSecret: cookie-secret-16',
    '    configFile: |',
    ...LEGACY.map((l) => `      ${l.replace('file-secret-xyz', clientSecret)}`),
    '  alphaConfig:',
    '    configFile: |',
    '      providers:',
    '        - id: oidc',
    '          clientSecret: alpha-secret-99',
    '',
  ].join('\n');
}

function folder(): string {
  const cwd = tempDir('agentplat-config-secrets-');
  writeFileSync(join(cwd, 'old.yaml'), values());
  writeFileSync(join(cwd, 'new.yaml'), values('file-secret-new'));
  return cwd;
}

function expectMasked(out: string): void {
  for (const s of [...SECRETS, 'file-secret-new']) expect(out).not.toContain(s);
}

describe('secrets inside the proxy config file are masked by the commands that report values', () => {
  it('values --computed shows the settings with their secret values masked, the rest as written', async () => {
    const r = await runInProcess(['values', '--computed', '-f', 'old.yaml'], { cwd: folder() });
    expect(r.code).toBe(0);
    expectMasked(r.stdout);
    expect(r.stdout).toContain(`client_secret = "${MASK}"`);
    expect(r.stdout).toContain(`cookie_secret = '${MASK}'`);
    expect(r.stdout).toContain(`redis_password = ${MASK}   # the session store`);
    expect(r.stdout).toContain(`clientSecret: ${MASK}`);
    expect(r.stdout).toContain('client_secret_file = "/etc/proxy/client-secret"');
    expect(r.stdout).toContain('pass_access_token = true');
  });

  it('values --computed --show-origin masks them too', async () => {
    const r = await runInProcess(['values', '--computed', '--show-origin', '-f', 'old.yaml'], { cwd: folder() });
    expect(r.code).toBe(0);
    expectMasked(r.stdout);
    expect(r.stdout).toMatch(/authproxy\.config\.configFile .*client_secret = \\"\*{8}\\"/);
  });

  it('diff masks them in the rendered ConfigMap, and a changed one shows as changed', async () => {
    const cwd = folder();
    const added = await runInProcess(['diff', '--to-values', 'old.yaml'], { cwd });
    expectMasked(added.stdout + added.stderr);
    expect(added.stdout).toContain(`client_secret = "${MASK}"`);
    const changed = await runInProcess(['diff', '-f', 'old.yaml', '--to-values', 'new.yaml'], { cwd });
    expectMasked(changed.stdout + changed.stderr);
    expect(changed.stdout).toContain('changed ConfigMap default/agentplat-authproxy: data["oauth2_proxy.cfg"]');
  });

  it('plan masks them in the fields it reports', async () => {
    const r = await runInProcess(['plan', '-r', 'B', '-f', 'old.yaml', '--to-values', 'new.yaml', '-o', 'json'], { cwd: folder() });
    expect(r.stdout).toContain('oauth2_proxy.cfg');
    expectMasked(r.stdout + r.stderr);
  });

  it('render prints the config file as written: it is what the cluster gets', async () => {
    const r = await runInProcess(['render', '-f', 'old.yaml', '--skip-crds'], { cwd: folder() });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('client_secret = "file-secret-xyz"');
  });
});

describe('which settings of a config text hold secrets', () => {
  const masked = (text: string) => maskSpans(text, configTextSecretSpans(text)).text;

  it('the proxy legacy settings: quoted, single-quoted, bare with a comment; paths and booleans stay', () => {
    expect(masked(LEGACY.join('\n'))).toBe(
      [
        'email_domains = ["*"]',
        `client_secret = "${MASK}"`,
        `cookie_secret = '${MASK}'`,
        `redis_password = ${MASK}   # the session store`,
        'client_secret_file = "/etc/proxy/client-secret"',
        'pass_access_token = true',
      ].join('\n'),
    );
  });

  it.each(['redis_sentinel_password', 'basic_auth_password', 'github_token', 'jwt_key', 'redis-password', 'clientSecret', 'CookieSecret'])('%s is a secret setting', (name) => {
    expect(masked(`${name} = "hidden1"`)).toBe(`${name} = "${MASK}"`);
  });

  it('a triple-quoted value across lines is masked to its closing quotes, and the lines after are read again', () => {
    expect(masked('jwt_key = """\n-----BEGIN KEY-----\nabc\n-----END KEY-----"""\ncookie_secret = "x1234"\nupstreams = ["a"]')).toBe(
      `jwt_key = """${MASK}"""\ncookie_secret = "${MASK}"\nupstreams = ["a"]`,
    );
  });

  it('YAML: a list item, a quoted key, an escaped quote and a block scalar', () => {
    expect(masked('providers:\n  - clientSecret: s3cr3t\n    "password": "a\\"b"\n    clientID: id\n')).toBe(`providers:\n  - clientSecret: ${MASK}\n    "password": "${MASK}"\n    clientID: id\n`);
    expect(masked('privateKey: |\n  line one\n  line two\nnext: 1')).toBe(`privateKey: |\n${MASK}\nnext: 1`);
  });
});

describe('the config-text fields', () => {
  it.each(['A', 'B'] as const)('are string keys of revision %s (a renamed key would leave its secrets in clear)', (revision) => {
    for (const path of VALUES_CONFIG_TEXT_FIELDS) expect(schemaAt(revision, path)?.type, path.join('.')).toBe('string');
  });
});
