// The package as users install it: `npm pack` of a checkout (test/helpers/pack.ts packs a copy of
// this one the way the README says) ships dist/ built and a package.json that declares no script,
// so that `npm install -g` of it runs nothing and npm has nothing to warn about.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../cli/binary.ts';
import { installedPack, installOutput, NPM_GUARD_MS, sharedPack } from '../helpers/pack.ts';

/** Every script npm runs when it installs a package (npm help scripts, "npm install"). */
const INSTALL_LIFECYCLE = ['preinstall', 'install', 'postinstall', 'prepublish', 'preprepare', 'prepare', 'postprepare', 'dependencies'];

let tarball: string;
beforeAll(async () => {
  tarball = await sharedPack();
});

function inPack(): string[] {
  const r = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8', timeout: NPM_GUARD_MS });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout.split('\n').filter(Boolean);
}

function packedManifest(): { scripts?: Record<string, string>; engines: unknown; version: string } {
  const r = spawnSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8', timeout: NPM_GUARD_MS });
  expect(r.status, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as { scripts?: Record<string, string>; engines: unknown; version: string };
}

describe('the installed package', () => {
  it('declares no script npm runs on install: the packed package.json has no scripts at all', () => {
    const manifest = packedManifest();
    for (const name of INSTALL_LIFECYCLE) expect(manifest.scripts?.[name], name).toBeUndefined();
    // None of the repository's scripts could run there either: scripts/ is not in the package.
    expect(manifest.scripts).toBeUndefined();
    expect(inPack().filter((f) => f.startsWith('package/scripts/'))).toEqual([]);
    // npm runs `node-gyp rebuild` for a package with a binding.gyp and no install script.
    expect(inPack()).not.toContain('package/binding.gyp');
  });

  it("is the repository's package.json otherwise: same version, engines and everything but the scripts", () => {
    const { scripts, ...repository } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(scripts).toHaveProperty('prepare');
    expect(packedManifest()).toEqual(repository);
  });

  it('ships dist/ built, though the checkout it was packed from had none', () => {
    const files = inPack();
    for (const f of ['package/dist/cli.cjs', 'package/dist/cli-render.cjs', 'package/dist/cli-core.cjs', 'package/dist/chunks/kube-check.cjs', 'package/dist/launch.cjs', 'package/dist/api.mjs', 'package/dist/generated/templates.json']) expect(files, f).toContain(f);
  });

  it("ships the README and every page of docs/, so that the README's links to docs/ lead somewhere in the installed package", () => {
    const files = inPack();
    expect(files).toContain('package/README.md');
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const linked = [...new Set([...readme.matchAll(/\]\((docs\/[^)#\s]+)/g)].map((m) => m[1]!))];
    expect(linked.length).toBeGreaterThan(5);
    for (const page of linked) expect(files, page).toContain(`package/${page}`);
  });

  it('npm install -g of it into a scratch prefix prints no install-scripts warning, and agentplat runs', async () => {
    const prefix = await installedPack();
    const { command, stdout, stderr } = installOutput(prefix);
    expect(command).toMatch(/^npm install --global /);
    expect(`${stdout}\n${stderr}`).not.toMatch(/install-scripts|allowScripts|allow-scripts/);
    const r = spawnSync(join(prefix, 'bin', 'agentplat'), ['--version'], { encoding: 'utf8', timeout: NPM_GUARD_MS });
    expect(r.stdout.trim()).toBe(packedManifest().version);
  });
});
