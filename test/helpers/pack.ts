// A pack of this repository (`npm pack`, what users install) and shell steps run the way CI
// runners, images and hook managers run them, against a private npm prefix. Installs prefer the
// npm cache: `npm ci` has put the dependencies' tarballs there, but not the registry's metadata
// that resolving the pack's version ranges reads, which npm fetches once when the cache lacks it.
//
// One test run packs the repository once (sharedPack) and runs each distinct install command once
// (installOnce), in the folder test/helpers/pack-setup.ts gives the run: every recipe test file
// uses that pack, and recipes that install alike share the prefix their command installed into.
import { createHash } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, inject } from 'vitest';
import { ROOT } from '../cli/binary.ts';
import { underLockAsync } from './lock.ts';

export const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
export const TARBALL = `agentplat-${VERSION}.tgz`;
/** A guard against a hung npm, not a performance bound. */
export const NPM_GUARD_MS = 600_000;

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command to its end without holding up the event loop (npm pack and npm install take
 * long on a loaded machine, and the test file's worker must keep answering vitest meanwhile).
 */
function runAsync(file: string, args: readonly string[], cwd: string, env: Record<string, string>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    const guard = setTimeout(() => child.kill('SIGKILL'), NPM_GUARD_MS);
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * Writes the pack into `dir` and returns its path. It is packed as a user packs it, `npm pack` with
 * its scripts (prepack builds dist/ and writes the package's manifest, postpack puts package.json
 * back), in a copy of this checkout's files (those git tracks or would add) made in `dir`, without
 * dist/ as in a fresh clone: the build and the manifest rewrite never touch the checkout the other
 * tests read.
 */
export async function packInto(dir: string): Promise<string> {
  mkdirSync(dir, { recursive: true });
  const checkout = mkdtempSync(join(dir, 'checkout-'));
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' });
  expect(listed.status, listed.stderr).toBe(0);
  // node_modules is linked below (in a worktree it is a symbolic link git does not ignore).
  for (const file of listed.stdout.split('\0').filter((f) => f !== '' && f !== 'node_modules' && existsSync(join(ROOT, f)))) {
    mkdirSync(dirname(join(checkout, file)), { recursive: true });
    copyFileSync(join(ROOT, file), join(checkout, file));
  }
  // The dependencies `npm ci` installed here: the build bundles from them.
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(checkout, 'node_modules'), 'dir');
  const r = await runAsync('npm', ['pack', '--pack-destination', dir], checkout, process.env as Record<string, string>);
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(checkout, 'package.json'), 'utf8'), 'postpack puts package.json back').toBe(readFileSync(join(ROOT, 'package.json'), 'utf8'));
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

/** Runs an npm install command (bash -e) in `cwd` with `prefix` as npm's global prefix; agentplat must then be on its PATH. */
export async function installWith(command: string, cwd: string, prefix: string, env: Record<string, string> = {}): Promise<Ran> {
  const r = await runAsync('bash', ['-e', '-c', command, 'bash'], cwd, stepEnv(prefix, env));
  expect(r.code, `${command}\n${r.stderr}`).toBe(0);
  expect(existsSync(join(prefix, 'bin', 'agentplat')), command).toBe(true);
  return r;
}

/** This test run's folder for the pack and the installs (test/helpers/pack-setup.ts). */
function runCache(): string {
  const dir = inject('packCache');
  if (!dir) throw new Error('no packCache: run the tests through vitest.config.ts, whose globalSetup provides it');
  return dir;
}

/** The pack of this repository, made once per test run by the first test that asks; its path. */
export async function sharedPack(): Promise<string> {
  const tarball = join(runCache(), 'pack', TARBALL);
  await underLockAsync(join(runCache(), 'pack.lock'), () => !existsSync(tarball), async () => {
    // Packed aside and renamed into place: another worker sees the whole file or none.
    const staged = await packInto(join(runCache(), `pack-staging-${process.pid}`));
    mkdirSync(dirname(tarball), { recursive: true });
    renameSync(staged, tarball);
  });
  return tarball;
}

/**
 * Runs the install command `command` (with `env` added to the step's environment) in `cwd` once
 * per test run and returns the npm prefix it installed into; a later call with the same command
 * and environment, from any test file, gets that prefix. `cwd` must hold what the command reads
 * (the pack, under the path the command names): every copy of the pack in a run is the same file.
 */
export async function installOnce(command: string, cwd: string, env: Record<string, string> = {}): Promise<string> {
  const key = createHash('sha256').update(JSON.stringify([command, env])).digest('hex').slice(0, 16);
  const prefix = join(runCache(), `prefix-${key}`);
  const done = join(prefix, '.agentplat-installed');
  await underLockAsync(`${prefix}.lock`, () => !existsSync(done), async () => {
    const r = await installWith(command, cwd, prefix, env);
    writeFileSync(done, JSON.stringify({ command, ...r }));
  });
  return prefix;
}

/** What the install command that filled `prefix` (installOnce) printed, as it ran. */
export function installOutput(prefix: string): Ran & { command: string } {
  return JSON.parse(readFileSync(join(prefix, '.agentplat-installed'), 'utf8')) as Ran & { command: string };
}

/** The command the README's recipes install with, from a repository holding the pack under tools/. */
export const TOOLS_INSTALL = `npm install --global ./tools/${TARBALL}`;

/** A folder holding the pack under tools/, as the README's recipes keep it. */
export async function withPackInTools(dir: string): Promise<string> {
  mkdirSync(join(dir, 'tools'), { recursive: true });
  copyFileSync(await sharedPack(), join(dir, 'tools', TARBALL));
  return dir;
}

/** The prefix holding agentplat installed from this run's pack, as the README's recipes install it. */
export async function installedPack(): Promise<string> {
  // A folder per worker: another worker may be installing from its own copy meanwhile.
  return installOnce(TOOLS_INSTALL, await withPackInTools(join(runCache(), `install-from-${process.pid}`)));
}
