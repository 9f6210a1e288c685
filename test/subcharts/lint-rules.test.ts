// Lint rules of the sub-charts (src/lint/rules/subcharts.ts), through the real linter: secrets are
// never generated, so missing ones are errors that name keys and never echo values.
import { describe, expect, it } from 'vitest';
import { lintValues } from '../../src/lint/lint.ts';
import { dataSource } from '../../src/values/source.ts';
import type { Revision } from '../../src/chart/revisions.ts';
import type { Values } from '../../src/values/merge.ts';
import { cookieSecretUsable } from '../../src/lint/rules/subcharts.ts';

function lint(revision: Revision, data: Values) {
  return lintValues({ revision, layers: [dataSource('values.yaml', data)] }).problems;
}
const only = (ps: ReturnType<typeof lint>, rule: string) => ps.filter((p) => p.rule === rule);

describe('values/authproxy-secret', () => {
  it('5.2 authproxy on with no secret given: one error naming every missing key', () => {
    for (const rev of ['A', 'B'] as const) {
      const ps = only(lint(rev, { authproxy: { enabled: true } }), 'values/authproxy-secret');
      expect(ps).toHaveLength(1);
      expect(ps[0]!.severity).toBe('error');
      expect(ps[0]!.message).toContain('authproxy.config.clientID, authproxy.config.clientSecret, authproxy.config.cookieSecret');
      expect(ps[0]!.hint).toContain('existingSecret');
    }
  });

  it('5.2 only the missing key is named, and no given secret value appears in any problem', () => {
    const ps = lint('A', { authproxy: { enabled: true, config: { clientID: 'ui-client', clientSecret: 'SUPERSECRETVALUE' } } });
    const own = only(ps, 'values/authproxy-secret');
    expect(own).toHaveLength(1);
    expect(own[0]!.path).toBe('authproxy.config.cookieSecret');
    expect(own[0]!.message).not.toContain('clientSecret,');
    expect(JSON.stringify(ps)).not.toContain('SUPERSECRETVALUE');
  });

  it('5.2 config.existingSecret satisfies the rule; so do all three inline values; authproxy off is never checked', () => {
    expect(only(lint('B', { authproxy: { enabled: true, config: { existingSecret: 'oidc' } } }), 'values/authproxy-secret')).toEqual([]);
    const inline = { clientID: 'a', clientSecret: 'b', cookieSecret: '0123456789abcdef' };
    expect(only(lint('B', { authproxy: { enabled: true, config: inline } }), 'values/authproxy-secret')).toEqual([]);
    expect(only(lint('A', {}), 'values/authproxy-secret')).toEqual([]);
  });
});

describe('values/authproxy-cookie-secret', () => {
  it('the cookie secret must be 16, 24 or 32 bytes, raw or base64, and the message never shows it', () => {
    expect(cookieSecretUsable('0123456789abcdef')).toBe(true);
    expect(cookieSecretUsable(Buffer.alloc(32, 7).toString('base64'))).toBe(true);
    expect(cookieSecretUsable('short')).toBe(false);
    const ps = only(lint('A', { authproxy: { enabled: true, config: { clientID: 'a', clientSecret: 'b', cookieSecret: 'tooShortSecret' } } }), 'values/authproxy-cookie-secret');
    expect(ps).toHaveLength(1);
    expect(JSON.stringify(ps)).not.toContain('tooShortSecret');
  });
});

describe('values/substrate-worker-image', () => {
  it('2.3 substrateWorkerPool.create without the worker image is an error on ateomImage (A) / workerImage (B)', () => {
    for (const [rev, key] of [['A', 'ateomImage'], ['B', 'workerImage']] as const) {
      const ps = only(lint(rev, { controller: { substrate: { enabled: true } }, substrateWorkerPool: { create: true } }), 'values/substrate-worker-image');
      expect(ps.map((p) => p.path)).toEqual([`substrateWorkerPool.${key}`]);
      expect(only(lint(rev, { controller: { substrate: { enabled: true } }, substrateWorkerPool: { create: true, [key]: 'r.example/w:1' } }), 'values/substrate-worker-image')).toEqual([]);
      // without controller.substrate.enabled no pool is rendered, so nothing is required
      expect(only(lint(rev, { substrateWorkerPool: { create: true } }), 'values/substrate-worker-image')).toEqual([]);
    }
  });
});

describe('values/substrate-token-file', () => {
  const withFile = (file: string, enabled = true) => lint('A', { controller: { substrate: { enabled, substrateApiEndpoint: 'https://substrate', substrateApiTokenFile: file } } });

  it('[A] a token file path that is not absolute, names no file, or sits directly in / is an error with a hint', () => {
    for (const [file, problem] of [
      ['token', 'is not an absolute path'],
      ['run/token', 'is not an absolute path'],
      ['/', 'names no file'],
      ['/var/run/tokens/', 'names no file'],
      ['/token', 'is a file directly in "/"'],
      ['/var//run/token', 'has an empty, "." or ".." segment'],
      ['/var/run/../token', 'has an empty, "." or ".." segment'],
    ] as const) {
      const ps = only(withFile(file), 'values/substrate-token-file');
      expect(ps.map((p) => [p.severity, p.path]), file).toEqual([['error', 'controller.substrate.substrateApiTokenFile']]);
      expect(ps[0]!.message, file).toContain(problem);
      expect(ps[0]!.hint, file).toBeTruthy();
    }
  });

  it('[A] an absolute path to a file in a folder of its own is clean; so is any path while substrate is off', () => {
    for (const file of ['/var/run/secrets/substrate/token', '/run/a/t', '/etc/ate/api-token']) expect(only(withFile(file), 'values/substrate-token-file'), file).toEqual([]);
    expect(only(withFile('token', false), 'values/substrate-token-file')).toEqual([]);
  });
});

describe('bundled agents exist only in revision A', () => {
  it('2.11 setting an <area>-agent key in revision B is an error whose hint says it belongs to revision A', () => {
    const ps = lint('B', { 'cluster-agent': { enabled: false } });
    const p = ps.find((x) => x.path.startsWith('cluster-agent'));
    expect(p?.severity).toBe('error');
    expect(p?.hint).toMatch(/revision A/);
  });

  it('2.11 the default authproxy extraEnv (sign-in checksum include) evaluates in lint', () => {
    const ps = lint('B', { authproxy: { enabled: true, config: { existingSecret: 'oidc' } } });
    expect(ps.filter((p) => p.severity === 'error')).toEqual([]);
  });
});
