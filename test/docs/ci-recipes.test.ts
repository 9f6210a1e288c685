// The README's CI and GitOps recipes work as written from what this repository provides: each
// recipe's commands, taken from the README's own code blocks, run against a pack of this
// repository (`npm pack`, installed the way the recipe installs it, into a private npm prefix).
// Dependencies come from the npm cache when it has them, else from the npm registry.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ensureBuilt, ROOT } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const TARBALL = `agentplat-${VERSION}.tgz`;
/** A guard against a hung npm, not a performance bound. */
const NPM_GUARD_MS = 600_000;

const work = tempDir('agentplat-ci-recipes-');
const packDir = join(work, 'pack');

/** The text under a README heading, up to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`README has no heading ${heading}`);
  const level = heading.split(' ')[0]!;
  const rest = README.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level.length}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** Fenced code blocks of one language in `text`, in order. */
function blocks(text: string, lang: string): string[] {
  return [...text.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);
}

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Only what a CI runner gives a step: a PATH with node and the prefix npm installs into, HOME. */
function stepEnv(prefix: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    HOME: process.env.HOME ?? work,
    PATH: [join(prefix, 'bin'), dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'),
    NPM_CONFIG_PREFIX: prefix,
    npm_config_prefer_offline: 'true',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

function sh(shell: 'bash' | 'sh', script: string, cwd: string, env: Record<string, string>): Ran {
  const r = spawnSync(shell, ['-e', '-c', script], { cwd, env, encoding: 'utf8', timeout: NPM_GUARD_MS, maxBuffer: 64 * 1024 * 1024 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** One npm prefix per distinct install command: the recipes that install alike share it. */
const installs = new Map<string, string>();

function isInstall(command: string): boolean {
  return /\bnpm install\b/.test(command);
}

/** Runs an install command of a recipe in `cwd` (once per command text) and returns its prefix. */
function install(command: string, cwd: string): string {
  const done = installs.get(command);
  if (done) return done;
  const prefix = join(work, `prefix-${installs.size}`);
  const r = sh('bash', command, cwd, stepEnv(prefix));
  expect(r.code, `${command}\n${r.stderr}`).toBe(0);
  expect(existsSync(join(prefix, 'bin', 'agentplat')), command).toBe(true);
  installs.set(command, prefix);
  return prefix;
}

/** A values repository as the recipes expect it: the pack under tools/, and the given files. */
function valuesRepo(files: Record<string, string>): string {
  const dir = tempDir('agentplat-ci-repo-');
  mkdirSync(join(dir, 'tools'));
  copyFileSync(join(packDir, TARBALL), join(dir, 'tools', TARBALL));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

const CLEAN = {
  'base.yaml': 'controller:\n  replicas: 2\n',
  'envs/dev/values.yaml': 'ui:\n  replicas: 1\n',
  'envs/prod/values.yaml': 'ui:\n  replicas: 3\n',
};
const TYPO = { ...CLEAN, 'envs/prod/values.yaml': 'ui:\n  replcas: 3\n' };

beforeAll(() => {
  ensureBuilt();
  mkdirSync(packDir, { recursive: true });
  // dist/ is built already; --ignore-scripts keeps `prepare` from rebuilding it under running tests.
  const r = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', packDir], { cwd: ROOT, encoding: 'utf8', timeout: NPM_GUARD_MS });
  expect(r.status, r.stderr).toBe(0);
  expect(existsSync(join(packDir, TARBALL))).toBe(true);
}, NPM_GUARD_MS);

describe('README CI recipes run as written against a pack of this repository', () => {
  it('every recipe installs the file `npm pack` writes, not a package name no registry has', () => {
    const installLines = section('## CI and GitOps').split('\n').filter((l) => /npm install --global/.test(l) && !/git\+https/.test(l));
    expect(installLines.length).toBeGreaterThanOrEqual(3);
    for (const line of installLines) expect(line).toContain(TARBALL);
    expect(section('## CI and GitOps')).not.toMatch(/npm install (--global|-g) agentplat\b/);
  });

  describe('GitHub Actions', () => {
    const workflow = parse(blocks(section('### GitHub Actions'), 'yaml')[0]!) as { jobs: Record<string, { steps: { name?: string; run?: string }[] }> };
    const steps = Object.values(workflow.jobs).flatMap((j) => j.steps).filter((s) => s.run !== undefined);

    /** Runs every `run:` step in order (GitHub's shell is `bash -e`); the exit code of each. */
    function runWorkflow(dir: string): Ran[] {
      const installStep = steps.find((s) => isInstall(s.run!));
      expect(installStep, 'the workflow installs agentplat').toBeDefined();
      const prefix = install(installStep!.run!, dir);
      return steps.filter((s) => s !== installStep).map((s) => sh('bash', s.run!, dir, stepEnv(prefix)));
    }

    it('on clean values every step passes, with annotations and a SARIF file', () => {
      const dir = valuesRepo(CLEAN);
      const ran = runWorkflow(dir);
      expect(ran.map((r) => r.code)).toEqual(ran.map(() => 0));
      const sarif = JSON.parse(readFileSync(join(dir, 'agentplat.sarif'), 'utf8')) as { version: string; runs: { results: unknown[] }[] };
      expect(sarif.version).toBe('2.1.0');
      expect(sarif.runs[0]!.results).toEqual([]);
    });

    it('on a typo the annotation step fails the job and the SARIF step still passes, as the README says', () => {
      const dir = valuesRepo(TYPO);
      const [annotate, sarifStep] = runWorkflow(dir);
      expect(annotate!.code).toBe(1);
      expect(annotate!.stdout).toMatch(/^::error file=envs\/prod\/values\.yaml,line=2,col=3,title=values\/unknown-key::/m);
      expect(sarifStep!.code).toBe(0);
      const sarif = JSON.parse(readFileSync(join(dir, 'agentplat.sarif'), 'utf8')) as { runs: { results: { ruleId: string }[] }[] };
      expect(sarif.runs[0]!.results.map((r) => r.ruleId)).toEqual(['values/unknown-key']);
    });
  });

  describe('GitLab CI', () => {
    const job = Object.values(parse(blocks(section('### GitLab CI'), 'yaml')[0]!) as Record<string, { script: string[]; artifacts: { reports: { junit: string } } }>)[0]!;

    function runJob(dir: string): Ran[] {
      const [first, ...rest] = job.script;
      expect(isInstall(first!), 'the job installs agentplat first').toBe(true);
      const prefix = install(first!, dir);
      return rest.map((line) => sh('sh', line, dir, stepEnv(prefix)));
    }

    it('on clean values the job passes and writes the JUnit report it declares', () => {
      const dir = valuesRepo(CLEAN);
      expect(runJob(dir).map((r) => r.code)).toEqual([0]);
      const report = readFileSync(join(dir, job.artifacts.reports.junit), 'utf8');
      expect(report).toMatch(/^<\?xml/);
      expect(report).toContain('<testsuite name="envs/prod/values.yaml"');
      expect(report).not.toContain('<failure');
    });

    it('on a typo the job fails and the report holds the failed case', () => {
      const dir = valuesRepo(TYPO);
      expect(runJob(dir).map((r) => r.code)).toEqual([1]);
      expect(readFileSync(join(dir, job.artifacts.reports.junit), 'utf8')).toMatch(/<testcase classname="envs\/prod\/values\.yaml" name="values\/unknown-key">\s*<failure/);
    });
  });

  describe('Argo CD config management plugin', () => {
    const argo = section('### Argo CD (config management plugin)');
    const yamlBlocks = blocks(argo, 'yaml').map((b) => parse(b) as unknown);
    const plugin = yamlBlocks.find((b) => (b as { kind?: string }).kind === 'ConfigManagementPlugin') as {
      metadata: { name: string };
      spec: { version: string; discover: { fileName: string }; generate: { command: string[]; args: string[] } };
    };
    const app = yamlBlocks.find((b) => (b as { spec?: { source?: unknown } }).spec?.source) as {
      spec: { source: { path: string; plugin: { name: string; env: { name: string; value: string }[] } }; destination: { namespace: string } };
    };
    const dockerfile = blocks(argo, 'dockerfile')[0]!;

    /** Builds the sidecar image as the Dockerfile says: COPY into the image's working folder, then RUN. */
    function buildImage(repo: string): string {
      const image = tempDir('agentplat-ci-image-');
      let prefix: string | undefined;
      for (const line of dockerfile.split('\n')) {
        const copy = /^COPY (\S+) (\S+)$/.exec(line);
        if (copy) copyFileSync(join(repo, copy[1]!), join(image, copy[2]!.endsWith('/') ? join(copy[2]!, copy[1]!.split('/').at(-1)!) : copy[2]!));
        const run = /^RUN (.+)$/.exec(line);
        if (run) prefix = install(run[1]!, image);
      }
      expect(prefix, 'the Dockerfile installs agentplat').toBeDefined();
      return prefix!;
    }

    /** The plugin's generate command in the Application's folder, with the environment Argo CD gives it. */
    function generate(values: string): Ran {
      const repo = valuesRepo({ [join(app.spec.source.path, plugin.spec.discover.fileName)]: values });
      const prefix = buildImage(repo);
      const [shell, flag] = plugin.spec.generate.command;
      expect([shell, flag]).toEqual(['sh', '-c']);
      const env = stepEnv(prefix, {
        ARGOCD_APP_NAME: 'agentplat',
        ARGOCD_APP_NAMESPACE: app.spec.destination.namespace,
        KUBE_VERSION: 'v1.29.3',
        KUBE_API_VERSIONS: 'v1,apps/v1,policy/v1,monitoring.coreos.com/v1',
        ...Object.fromEntries(app.spec.source.plugin.env.map((e) => [`ARGOCD_ENV_${e.name}`, e.value])),
      });
      return sh('sh', plugin.spec.generate.args[0]!, join(repo, app.spec.source.path), env);
    }

    it('the Application names the plugin as <name>-<version>', () => {
      expect(app.spec.source.plugin.name).toBe(`${plugin.metadata.name}-${plugin.spec.version}`);
    });

    it('the sidecar image built from the Dockerfile runs the generate command: manifests of the values, in the app namespace', () => {
      const r = generate('controller:\n  replicas: 2\n');
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^kind: Deployment$/m);
      expect(r.stdout).toMatch(/^ {2}namespace: agentplat$/m);
      expect(r.stdout).toMatch(/^ {2}replicas: 2$/m);
    });

    it('values with an error: generate fails and prints nothing, so the sync applies nothing', () => {
      const r = generate('controller:\n  replcas: 2\n');
      expect(r.code).not.toBe(0);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('[values/unknown-key]');
    });
  });
});
