// The OCI image (`npm run build:image`, scripts/build-image.mjs), run in a real container runtime
// (podman, from Debian's packages): what it renders is what the package renders; its Argo CD
// plugin's generate command, run as Argo CD's cmp-server runs it (exec form, no shell, in the
// Application's folder, with the Application in the environment), prints the manifests for that
// Application; it runs as user 999 with a read-only root file system and holds nothing but
// agentplat, the libraries it loads, plugin.yaml and the user files.
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { toolMissing } from '../helpers/real-tool.ts';
import { parse } from 'yaml';
import { ensureBuilt, ROOT, runBin } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';

ensureBuilt();
const execFileAsync = promisify(execFile);

/**
 * Where podman's defaults cannot run a container (a kernel whose cgroups crun refuses, a sandbox
 * that forbids raising the file and process limits, as on the machine these tests were written
 * on), runc (Debian's package) with limits at or below the current ones: the ways tried, in order.
 */
const WAYS: { global: string[]; run: string[] }[] = [
  { global: [], run: [] },
  { global: ['--runtime', 'runc'], run: ['--ulimit', 'nofile=1024:1024', '--ulimit', 'nproc=1024:1024'] },
];
const hasPodman = spawnSync('podman', ['--version']).status === 0 || !toolMissing('test/image/image.test.ts', 'podman is not installed (apt-get install -y podman runc)');
let globalOpts: string[] = [];
let runOpts: string[] = [];
/** Why no container runs here, when none does (each test is then skipped, saying so). */
let cannotRun = '';

const work = tempDir('agentplat-image-');
const ARCHIVE = join(work, 'agentplat.oci.tar');
const PLUGIN = 'recipes/argocd/image/plugin.yaml';
let image = '';

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}
function podman(args: string[], input?: string): Ran {
  const r = spawnSync('podman', [...globalOpts, ...args], { encoding: 'utf8', input: input ?? '', maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
/** `podman run` of the image as the sidecar runs: read-only root, no network, no capabilities. */
function inImage(args: string[], extra: string[] = []): Ran {
  return podman(['run', '--rm', '-i', ...runOpts, '--read-only', '--network', 'none', '--cap-drop', 'ALL', '--security-opt', 'no-new-privileges', ...extra, image, ...args]);
}

describe.skipIf(!hasPodman)('the agentplat image in podman', () => {
  beforeAll(async () => {
    const exe = join(work, 'agentplat');
    // Asynchronously: the builds take a minute, and vitest's worker must answer meanwhile.
    await execFileAsync(process.execPath, [join(ROOT, 'scripts', 'build-exe.mjs'), '--out', exe], { cwd: ROOT });
    await execFileAsync(process.execPath, [join(ROOT, 'scripts', 'build-image.mjs'), '--exe', exe, '--out', ARCHIVE], { cwd: ROOT });
    const loaded = podman(['load', '-q', '-i', ARCHIVE]);
    expect(loaded.code, loaded.stderr).toBe(0);
    image = /Loaded image(?:\(s\))?: (\S+)/.exec(loaded.stdout)![1]!;
    const errors: string[] = [];
    const way = WAYS.find((w) => {
      const r = spawnSync('podman', [...w.global, 'run', '--rm', ...w.run, '--network', 'none', image, '--version'], { encoding: 'utf8' });
      if (r.status !== 0) errors.push(`podman ${[...w.global, 'run', ...w.run].join(' ')}: ${r.stderr.trim().split('\n').pop()}`);
      return r.status === 0;
    });
    if (way) [globalOpts, runOpts] = [way.global, way.run];
    else {
      toolMissing('test/image/image.test.ts', `podman cannot run a container here, so nothing of the image was run:\n  ${errors.join('\n  ')}`);
      cannotRun = 'podman cannot run a container here';
    }
    return () => void podman(['rmi', '-f', image]);
  });

  it("renders what the package renders (stdout, stderr, exit code), a values file mounted read-only", (ctx) => {
    if (cannotRun) ctx.skip();
    const dir = tempDir('agentplat-image-values-');
    // The container's user (999) reads the folder: mkdtemp makes it the owner's alone.
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'values.yaml'), 'controller:\n  replicas: 2\n');
    writeFileSync(join(dir, 'bad.yaml'), 'controller:\n  replicas: many\n');
    const mount = ['-v', `${dir}:/work:ro,Z`, '-w', '/work'];
    for (const args of [['render'], ['render', '-r', 'A', '--skip-crds', '-f', 'values.yaml'], ['lint', '-f', 'bad.yaml'], ['crds', '-r', 'B', '-o', 'json'], ['render', '-f', 'missing.yaml'], ['--version']]) {
      const want = runBin(args, { cwd: dir, env: { NO_COLOR: '1' } });
      const got = inImage(args, [...mount, '-e', 'NO_COLOR=1']);
      expect({ ...got, args }).toEqual({ code: want.code, stdout: want.stdout, stderr: want.stderr, args });
    }
  });

  it("the CMP generate command of the image's plugin.yaml prints the manifests of an Application from its environment", (ctx) => {
    if (cannotRun) ctx.skip();
    const plugin = parse(readFileSync(join(ROOT, PLUGIN), 'utf8')) as { spec: { generate: { command: string[]; args?: string[] } } };
    const [command, ...args] = [...plugin.spec.generate.command, ...(plugin.spec.generate.args ?? [])];
    const app = join(tempDir('agentplat-image-app-'), 'envs', 'prod');
    mkdirSync(app, { recursive: true });
    writeFileSync(join(app, 'values.yaml'), 'controller:\n  metrics:\n    enabled: true\n    serviceMonitor:\n      enabled: true\n');
    writeFileSync(join(app, 'overrides.yaml'), 'ui:\n  replicas: 3\n');
    const env = {
      ARGOCD_APP_NAME: 'agentplat-prod',
      ARGOCD_APP_NAMESPACE: 'agentplat',
      ARGOCD_APP_REVISION: '0123456789abcdef0123456789abcdef01234567',
      ARGOCD_APP_SOURCE_PATH: 'envs/prod',
      ARGOCD_APP_PARAMETERS: JSON.stringify([{ name: 'revision', string: 'B' }, { name: 'values-files', array: ['values.yaml', 'overrides.yaml'] }]),
      PARAM_REVISION: 'B',
      PARAM_VALUES_FILES_0: 'values.yaml',
      PARAM_VALUES_FILES_1: 'overrides.yaml',
      KUBE_VERSION: 'v1.29.3',
      KUBE_API_VERSIONS: 'v1,apps/v1,monitoring.coreos.com/v1',
    };
    // cmp-server unpacks the repository under /tmp (a volume: the root is read-only) and runs the command there.
    const r = inImage(args, ['--entrypoint', command!, '-v', `${app}:/tmp/_cmp_server/repo/envs/prod:ro,Z`, '-w', '/tmp/_cmp_server/repo/envs/prod', ...Object.entries(env).flatMap(([k, v]) => ['-e', `${k}=${v}`])]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const want = runBin(['render', '--protect-crds', '--revision', 'B', '--namespace', 'agentplat', '--release-name', 'agentplat-prod', '-f', 'values.yaml', '-f', 'overrides.yaml', '--api-versions', 'v1', '--api-versions', 'apps/v1', '--api-versions', 'monitoring.coreos.com/v1', '--kube-version', 'v1.29.3'], { cwd: app });
    expect(want.code, want.stderr).toBe(0);
    expect(r.stdout).toBe(want.stdout);
    expect(r.stdout).toMatch(/^kind: ServiceMonitor$/m);
    expect(r.stdout).toMatch(/^ {2}replicas: 3$/m);
  });

  it('runs as user 999 (Argo CD\'s) by default, with plugin.yaml where argocd-cmp-server reads it, and holds nothing else (no shell)', (ctx) => {
    if (cannotRun) ctx.skip();
    const inspect = podman(['image', 'inspect', image, '--format', '{{.Config.User}} {{json .Config.Entrypoint}}']);
    expect(inspect.stdout.trim()).toBe('999:999 ["/usr/local/bin/agentplat"]');
    const ctr = podman(['create', image]).stdout.trim();
    try {
      const files = spawnSync('sh', ['-c', `podman ${globalOpts.join(' ')} export ${ctr} | tar -tv`], { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }).stdout;
      const entries = files.split('\n').filter((l) => l && !l.startsWith('d')).map((l) => l.split(/\s+/).pop()!.replace(/^\.?\/?/, '')).sort();
      // podman adds the mount points of a container (/etc/hosts and the like are empty files it owns).
      const added = new Set(['etc/hosts', 'etc/resolv.conf', 'etc/hostname', 'run/.containerenv']);
      expect(entries.filter((e) => !added.has(e))).toEqual(
        ['etc/group', 'etc/passwd', 'home/argocd/cmp-server/config/plugin.yaml', ...entries.filter((e) => /^lib(64)?\//.test(e)), 'usr/local/bin/agentplat'].sort(),
      );
      expect(entries.filter((e) => /^lib(64)?\//.test(e)).every((e) => /\.so(\.\d+)*$/.test(e))).toBe(true);
      const copied = join(work, 'plugin-from-image.yaml');
      expect(podman(['cp', `${ctr}:/home/argocd/cmp-server/config/plugin.yaml`, copied]).code).toBe(0);
      expect(readFileSync(copied, 'utf8')).toBe(readFileSync(join(ROOT, PLUGIN), 'utf8'));
    } finally {
      podman(['rm', '-f', ctr]);
    }
    expect(inImage([], ['--entrypoint', '/bin/sh']).code).not.toBe(0);
  });

  it('a read-only root file system and a user that is not root are all it needs: the user cannot write anywhere but /tmp', (ctx) => {
    if (cannotRun) ctx.skip();
    // --read-only is in every run above; here the same render as an arbitrary non-root user, whose home does not exist.
    const r = inImage(['render', '--skip-crds'], ['--user', '12345:12345']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(runBin(['render', '--skip-crds']).stdout);
    // The root file system is read-only: a write outside a volume fails, one to a volume succeeds.
    const refused = inImage(['render', '--skip-crds', '--output-dir', '/home/argocd/out']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/read-only|EROFS/i);
    expect(inImage(['render', '--skip-crds', '--output-dir', '/tmp/out'], ['--tmpfs', '/tmp']).code).toBe(0);
  });
});
