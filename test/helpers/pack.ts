// A pack of this repository (`npm pack`, what users install) and shell steps run the way CI
// runners, images and hook managers run them, against a private npm prefix. Installs prefer the
// npm cache: `npm ci` has put the dependencies' tarballs there, but not the registry's metadata
// that resolving the pack's version ranges reads, which npm fetches once when the cache lacks it.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { ensureBuilt, ROOT } from '../cli/binary.ts';
import { tempDir } from './temp-dir.ts';

export const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
export const TARBALL = `agentplat-${VERSION}.tgz`;
/** A guard against a hung npm, not a performance bound. */
export const NPM_GUARD_MS = 600_000;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Writes the pack into `dir` and returns its path. dist/ is built first, never by `prepare` under running tests. */
export function packInto(dir: string): string {
  ensureBuilt();
  mkdirSync(dir, { recursive: true });
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8', timeout: NPM_GUARD_MS });
  expect(r.status, r.stderr).toBe(0);
  const tarball = join(dir, TARBALL);
  expect(existsSync(tarball)).toBe(true);
  return tarball;
}

/**
 * How this machine reaches the npm registry (its CA bundle, proxies, registry mirror): a CI runner
 * has its own, and a step inherits it, so the steps here inherit this machine's.
 */
const NETWORK_ENV = /^(NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(HTTPS?|NO)_PROXY|(https?|no)_proxy|npm_config_(registry|cafile|ca|proxy|https_proxy|strict_ssl)|NPM_CONFIG_(REGISTRY|CAFILE|CA|PROXY|HTTPS_PROXY|STRICT_SSL))$/;

function networkEnv(): Record<string, string> {
  return Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => NETWORK_ENV.test(e[0]) && e[1] !== undefined));
}

/** Only what a CI runner gives a step: a PATH with node and the prefix npm installs into, HOME, the network settings. */
export function stepEnv(prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    ...networkEnv(),
    HOME: process.env.HOME ?? prefix,
    PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    NPM_CONFIG_PREFIX: prefix,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

export function sh(shell: 'bash' | 'sh', script: string, cwd: string, env: Record<string, string>, args: readonly string[] = []): Ran {
  const r = spawnSync(shell, ['-e', '-c', script, shell, ...args], { cwd, env, encoding: 'utf8', timeout: NPM_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs an npm install command in `cwd` with `prefix` as npm's global prefix; agentplat must then be on its PATH. */
export function installWith(command: string, cwd: string, prefix: string): void {
  const r = sh('bash', command, cwd, stepEnv(prefix));
  expect(r.code, `${command}\n${r.stderr}`).toBe(0);
  expect(existsSync(join(prefix, 'bin', 'agentplat')), command).toBe(true);
}

/** A fresh temp folder holding `files` (relative path → text), removed after the test (see tempDir). */
export function folderWith(prefix: string, files: Record<string, string>): string {
  const dir = tempDir(prefix);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Packs this repository into `work` and installs the pack globally into `work/prefix`; returns the prefix. */
export function installPack(work: string): string {
  const prefix = join(work, 'prefix');
  packInto(work);
  installWith(`npm install --global ./${TARBALL}`, work, prefix);
  return prefix;
}
