// The start-up snapshots (scripts/snapshot.mjs) and the launcher that starts them (bin/agentplat)
// must behave exactly like the bundle: every command, from either snapshot, gives byte-identical
// stdout and stderr and the same exit code as `node bin/agentplat`. The launcher must fall back to
// the bundle whenever node would reject a snapshot, and never hand a stale one to node.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, truncateSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, ROOT, runBin, runBlob, runLauncher, type RunResult } from './binary.ts';

beforeAll(() => ensureBuilt());

const BLOBS = ['agentplat-a.blob', 'agentplat-b.blob', 'agentplat-validate.blob'] as const;
const STARTED_FROM_SNAPSHOT = /started from the start-up snapshot/;
const STARTED_FROM_BUNDLE = /started from the bundle, without the start-up snapshot/;

const LINT_FIXTURES = readdirSync(join(ROOT, 'fixtures', 'lint'))
  .filter((f) => f.endsWith('.yaml'))
  .sort()
  .map((f) => join('fixtures', 'lint', f));

/** Commands that cover every command, both revisions, every format, problems and usage errors. */
const CASES: { name: string; args: string[]; stdin?: string; env?: Record<string, string> }[] = [
  { name: 'render A', args: ['render', '-r', 'A'] },
  { name: 'render B -o json', args: ['render', '-r', 'B', '-o', 'json'] },
  { name: 'render B --skip-crds with values', args: ['render', '-r', 'B', '--skip-crds', '-f', 'fixtures/lint/metrics-bind-address-zero.yaml', '--set', 'controller.replicas=2'] },
  { name: 'render with a values error', args: ['render', '-r', 'B', '-f', 'fixtures/lint/unknown-key.yaml'] },
  { name: 'render --show-only', args: ['render', '-r', 'A', '--show-only', 'templates/controller-deployment.yaml'] },
  { name: 'render from stdin', args: ['render', '-r', 'B', '-f', '-'], stdin: 'controller:\n  replicas: 3\n' },
  { name: 'lint A json over every fixture', args: ['lint', '-r', 'A', '--format', 'json', ...LINT_FIXTURES] },
  { name: 'lint B sarif over every fixture', args: ['lint', '-r', 'B', '--format', 'sarif', ...LINT_FIXTURES] },
  { name: 'lint B text in color', args: ['lint', '-r', 'B', ...LINT_FIXTURES.slice(0, 5)], env: { FORCE_COLOR: '1' } },
  { name: 'lint junit', args: ['lint', '-r', 'B', '--format', 'junit', 'fixtures/lint/unknown-key.yaml'] },
  { name: 'lint github', args: ['lint', '-r', 'A', '--format', 'github', 'fixtures/lint/unknown-key.yaml'] },
  { name: 'validate text', args: ['validate', 'fixtures/resources'] },
  { name: 'validate json over resources and lint fixtures', args: ['validate', '--format', 'json', 'fixtures/resources', 'fixtures/lint'] },
  { name: 'validate from stdin', args: ['validate', '-'], stdin: 'apiVersion: agentplat.dev/v1alpha2\nkind: Agent\nmetadata: {name: a}\nspec: {type: Nope}\n' },
  { name: 'crds', args: ['crds'] },
  { name: 'crds -o json', args: ['crds', '-o', 'json'] },
  { name: 'values A', args: ['values', '-r', 'A'] },
  { name: 'schema B', args: ['schema', '-r', 'B'] },
  { name: 'docs A', args: ['docs', '-r', 'A'] },
  { name: 'migrate', args: ['migrate', '--from', 'A', '--to', 'B', 'fixtures/lint/rbac-cluster-scoped.yaml'] },
  { name: 'version -o json', args: ['version', '-o', 'json'] },
  { name: '--help', args: ['--help'] },
  { name: 'validate --help (options before the command)', args: ['--no-color', 'validate', '--help'] },
  { name: 'unknown command', args: ['rendr'] },
  { name: 'unknown option', args: ['render', '--nope'] },
  { name: 'missing values file', args: ['render', '-f', 'does-not-exist.yaml'] },
];

function same(a: RunResult, b: RunResult): void {
  const hint = 'a start-up snapshot differs from the bundle';
  expect(a.code, `${hint}\n${a.stderr}`).toBe(b.code);
  expect(a.stdout, hint).toBe(b.stdout);
  expect(a.stderr, hint).toBe(b.stderr);
}

/**
 * One case of each kind of work, for the snapshots the launcher does not pick: each snapshot can
 * still run every command (what it leaves out it loads from dist/), and gives the same output.
 */
const ACROSS = ['render A', 'render B --skip-crds with values', 'render from stdin', 'lint B sarif over every fixture', 'validate json over resources and lint fixtures', 'validate from stdin', 'crds -o json', 'migrate', '--help', 'unknown option'];

const optionsOf = ({ stdin, env }: (typeof CASES)[number]) => ({ ...(stdin !== undefined ? { stdin } : {}), ...(env ? { env } : {}) });

describe('start-up snapshot: every command gives the bundle output', () => {
  it.each(CASES)('$name: the launcher (and the snapshot it picks) and the bundle agree', (c) => {
    const bundle = runBin(c.args, optionsOf(c));
    expect(bundle.code).not.toBe(3);
    same(runLauncher(c.args, optionsOf(c)), bundle);
  });

  it.each(BLOBS)('%s runs every kind of command as the bundle does, those the launcher sends to another snapshot too', (blob) => {
    const cases = CASES.filter((c) => ACROSS.includes(c.name));
    expect(cases.map((c) => c.name)).toEqual(ACROSS);
    for (const c of cases) same(runBlob(blob, c.args, optionsOf(c)), runBin(c.args, optionsOf(c)));
  });

  it('a relative values path is read from the directory the command runs in, not the build directory', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agentplat-snapshot-cwd-'));
    try {
      writeFileSync(join(dir, 'v.yaml'), 'controller:\n  replicas: 4\n');
      const bundle = runBin(['render', '-r', 'B', '--skip-crds', '-f', 'v.yaml'], { cwd: dir });
      expect(bundle.code).toBe(0);
      expect(bundle.stdout).toContain('replicas: 4');
      same(runLauncher(['render', '-r', 'B', '--skip-crds', '-f', 'v.yaml'], { cwd: dir }), bundle);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('launcher: uses a snapshot only when node will accept it', () => {
  it('starts from the snapshot when the stamp names this node binary unchanged', () => {
    const r = runLauncher(['version']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(STARTED_FROM_SNAPSHOT);
  });

  it.each([
    [['version'], 'agentplat-b.blob'],
    [['version', '-r', 'A'], 'agentplat-a.blob'],
    [['version', '--revision', 'a'], 'agentplat-a.blob'],
    [['version', '-rA'], 'agentplat-a.blob'],
    [['version', '--revision=A'], 'agentplat-a.blob'],
    [['--no-color', 'version', '-r', 'B'], 'agentplat-b.blob'],
  ])('picks the snapshot of the revision asked for: %j → %s', (args, blob) => {
    const first = runLauncher(args).stdout.split('\n')[0];
    expect(first).toMatch(STARTED_FROM_SNAPSHOT);
    expect(first).toContain(` ${blob})`);
  });

  it('runs the bundle when NODE_OPTIONS is set (node rejects a snapshot under other V8 flags)', () => {
    const r = runLauncher(['version'], { env: { NODE_OPTIONS: '--max-old-space-size=4096' } });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(STARTED_FROM_BUNDLE);
  });

  it('runs the bundle when AGENTPLAT_NO_SNAPSHOT is set', () => {
    expect(runLauncher(['version'], { env: { AGENTPLAT_NO_SNAPSHOT: '1' } }).stdout).toMatch(STARTED_FROM_BUNDLE);
  });

  it('runs the bundle when run as `node bin/agentplat`', () => {
    expect(runBin(['version']).stdout).toMatch(STARTED_FROM_BUNDLE);
  });

  describe('with a copy of the package whose stamp or blob is wrong', () => {
    let dir: string;
    /**
     * A package copy: bin/agentplat copied, dist/ files linked, the stamp as given with the
     * modification time of the node binary it names (or of `timeFrom`).
     */
    const copy = (stamp: string | undefined, blobs: 'linked' | 'missing' = 'linked', timeFrom?: string): string => {
      const pkg = mkdtempSync(join(dir, 'pkg-'));
      mkdirSync(join(pkg, 'bin'));
      mkdirSync(join(pkg, 'dist'));
      copyFileSync(BIN, join(pkg, 'bin', 'agentplat'));
      chmodSync(join(pkg, 'bin', 'agentplat'), 0o755);
      for (const f of readdirSync(join(ROOT, 'dist'))) {
        if (f === 'agentplat.blob.stamp') continue;
        if (f.endsWith('.blob') && blobs === 'missing') continue;
        symlinkSync(join(ROOT, 'dist', f), join(pkg, 'dist', f));
      }
      if (stamp !== undefined) {
        const file = join(pkg, 'dist', 'agentplat.blob.stamp');
        writeFileSync(file, stamp);
        const node = timeFrom ?? stamp.split('\n')[0]!;
        if (existsSync(node)) expect(spawnSync('touch', ['-r', node, file]).status).toBe(0);
      }
      return join(pkg, 'bin', 'agentplat');
    };
    const realStamp = () => readFileSync(join(ROOT, 'dist', 'agentplat.blob.stamp'), 'utf8');
    /**
     * A package copy with the real stamp that lint and validate can run in, whose
     * dist/generated/ is a folder of its own: every file linked, except the code caches, which
     * `cache(path, original)` writes (or not). The bundle's modules are copied: node runs a linked
     * module from where its link points, and the bundle would read the build's dist/generated/.
     */
    const copyWithCaches = (cache: (path: string, original: string) => void): { bin: string; pkg: string; generated: string } => {
      const bin = copy(realStamp());
      const pkg = join(bin, '..', '..');
      for (const f of ['package.json', 'values', 'schemas', 'templates']) symlinkSync(join(ROOT, f), join(pkg, f));
      for (const f of readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.mjs'))) {
        rmSync(join(pkg, 'dist', f));
        copyFileSync(join(ROOT, 'dist', f), join(pkg, 'dist', f));
      }
      const generated = join(pkg, 'dist', 'generated');
      rmSync(generated);
      mkdirSync(generated);
      for (const f of readdirSync(join(ROOT, 'dist', 'generated'))) {
        if (f.endsWith('.cache')) cache(join(generated, f), join(ROOT, 'dist', 'generated', f));
        else symlinkSync(join(ROOT, 'dist', 'generated', f), join(generated, f));
      }
      return { bin, pkg, generated };
    };

    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'agentplat-launcher-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('the copy with the real stamp starts from the snapshot (the check below is not vacuous)', () => {
      expect(runLauncher(['version'], { bin: copy(realStamp()) }).stdout).toMatch(STARTED_FROM_SNAPSHOT);
    });

    it('the stamp of a build carries the modification time of the node binary it names, to the nanosecond', () => {
      const [node] = realStamp().split('\n');
      expect(statSync(join(ROOT, 'dist', 'agentplat.blob.stamp'), { bigint: true }).mtimeNs).toBe(statSync(node!, { bigint: true }).mtimeNs);
    });

    it('a stamp whose time is not the node binary\'s (node was replaced in place): the bundle', () => {
      const [node] = realStamp().split('\n');
      const other = join(dir, 'other-time');
      writeFileSync(other, '');
      utimesSync(other, new Date('2001-02-03T04:05:06Z'), new Date('2001-02-03T04:05:06Z'));
      const r = runLauncher(['version'], { bin: copy(`${node}\n`, 'linked', other) });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(STARTED_FROM_BUNDLE);
    });

    it('a stamp naming a node binary that no longer exists: the bundle', () => {
      const r = runLauncher(['render', '-r', 'B', '--skip-crds'], { bin: copy('/nonexistent/node\n') });
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('kind: Deployment');
    });

    it('no stamp (a build that stopped before the snapshots were complete): the bundle', () => {
      expect(runLauncher(['version'], { bin: copy(undefined) }).stdout).toMatch(STARTED_FROM_BUNDLE);
    });

    it('no blob next to the stamp: the bundle', () => {
      expect(runLauncher(['version'], { bin: copy(realStamp(), 'missing') }).stdout).toMatch(STARTED_FROM_BUNDLE);
    });

    /** A copy of the package whose `blob` is a file of its own, made by `write` from the build's blob. */
    const copyWithOwnBlob = (blob: string, write: (file: string, original: string) => void): string => {
      const bin = copy(realStamp());
      const file = join(bin, '..', '..', 'dist', blob);
      rmSync(file);
      write(file, join(ROOT, 'dist', blob));
      return bin;
    };

    it('a blob copied with its modification time starts from the snapshot (the checks below are not vacuous)', () => {
      const bin = copyWithOwnBlob('agentplat-b.blob', (file, original) => {
        copyFileSync(original, file);
        expect(spawnSync('touch', ['-r', original, file]).status).toBe(0);
      });
      expect(runLauncher(['version'], { bin }).stdout).toMatch(STARTED_FROM_SNAPSHOT);
    });

    it.each(BLOBS)('a truncated %s (a full disk, a copy cut short) is never handed to node: the bundle runs, no crash', (blob) => {
      const bin = copyWithOwnBlob(blob, (file, original) => {
        copyFileSync(original, file);
        truncateSync(file, Math.floor(statSync(original).size / 2));
      });
      const args = blob === 'agentplat-validate.blob' ? ['validate', 'fixtures/resources'] : ['render', '-r', blob === 'agentplat-a.blob' ? 'A' : 'B', '--skip-crds'];
      const r = runLauncher(args, { bin });
      expect({ code: r.code, signal: r.signal }, r.stderr).toEqual({ code: 0, signal: null });
      expect(r.stdout).toEqual(runBin(args).stdout);
      // `version` says where it started from; it runs from the a or b blob.
      if (blob !== 'agentplat-validate.blob') expect(runLauncher(['version', '-r', blob === 'agentplat-a.blob' ? 'A' : 'B'], { bin }).stdout).toMatch(STARTED_FROM_BUNDLE);
    });

    it('every blob of a build carries the stamp\'s modification time, to the nanosecond', () => {
      const stamp = statSync(join(ROOT, 'dist', 'agentplat.blob.stamp'), { bigint: true }).mtimeNs;
      for (const blob of BLOBS) expect(statSync(join(ROOT, 'dist', blob), { bigint: true }).mtimeNs, blob).toBe(stamp);
    });

    it('a values validator whose code cache is damaged or missing still checks values (V8 rejects the cache, the code is compiled)', () => {
      const args = ['lint', '-r', 'B', '--format', 'json', 'fixtures/lint/unknown-key.yaml', 'fixtures/lint/metrics-bind-address-zero.yaml'];
      const expected = runLauncher(args);
      expect(expected.stdout).toContain('values/unknown-key');
      for (const damage of ['garbage', 'missing'] as const) {
        const { bin } = copyWithCaches((cache) => {
          if (damage === 'garbage') writeFileSync(cache, 'not a code cache');
        });
        same(runLauncher(args, { bin }), expected);
        same(runLauncher(args, { bin, env: { AGENTPLAT_NO_SNAPSHOT: '1' } }), expected);
      }
    });

    it('the code caches each snapshot and the bundle read were made for it: V8 accepts them (a rejected cache would be written anew)', () => {
      const { bin, pkg, generated } = copyWithCaches((cache, original) => copyFileSync(original, cache));
      const env = { AGENTPLAT_BUILD_CODE_CACHE: '1' };
      // validate: one document per kind with a field no schema has, so ajv's code of every group runs.
      const kinds = ['Agent', 'SandboxAgent', 'AgentHarness', 'ModelConfig', 'ModelProviderConfig', 'RemoteMCPServer'];
      const documents = join(pkg, 'unknown-fields.yaml');
      writeFileSync(documents, kinds.map((k) => `apiVersion: agentplat.dev/v1alpha2\nkind: ${k}\nmetadata:\n  name: x\nspec:\n  unknownField: true\n`).join('---\n'));
      const crdCaches = readdirSync(generated).filter((f) => /^crd-validators-.*\.agentplat-validate\.cache$/.test(f));
      expect(crdCaches.length).toBeGreaterThanOrEqual(4);
      const before = new Map(crdCaches.map((f) => [f, readFileSync(join(generated, f))]));
      const r = runLauncher(['validate', documents], { bin, env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('crd/unknown-field');
      for (const [f, bytes] of before) expect(readFileSync(join(generated, f)).equals(bytes), `V8 rejected ${f}`).toBe(true);
      // The bundle's caches, made by the build under V8's default flags (shared with the in-process
      // API): a run from the bundle keeps those flags (src/cli/tiering.ts applies to snapshots only).
      const bundleCaches = readdirSync(generated).filter((f) => f.endsWith('.bundle.cache'));
      expect(bundleCaches.length).toBeGreaterThanOrEqual(6);
      const bundleBefore = new Map(bundleCaches.map((f) => [f, readFileSync(join(generated, f))]));
      expect(runLauncher(['validate', documents], { bin, env: { ...env, AGENTPLAT_NO_SNAPSHOT: '1' } }).code).toBe(1);
      for (const rev of ['A', 'B']) expect(runLauncher(['lint', '-r', rev, '-f', 'fixtures/lint/unknown-key.yaml'], { bin, env: { ...env, AGENTPLAT_NO_SNAPSHOT: '1' } }).code).toBe(1);
      for (const [f, bytes] of bundleBefore) expect(readFileSync(join(generated, f)).equals(bytes), `V8 rejected ${f} in a run from the bundle`).toBe(true);
      // Not vacuous either: a bundle cache V8 rejects is replaced by such a run.
      const damaged = join(generated, bundleCaches.find((f) => f.startsWith('crd-validators-'))!);
      writeFileSync(damaged, 'not a code cache');
      runLauncher(['validate', documents], { bin, env: { ...env, AGENTPLAT_NO_SNAPSHOT: '1' } });
      expect(readFileSync(damaged).length).toBeGreaterThan(10_000);
      for (const rev of ['a', 'b']) {
        const cache = join(generated, `values-validator-${rev}.cjs.agentplat-${rev}.cache`);
        const before = readFileSync(cache);
        expect(runLauncher(['lint', '-r', rev, '-f', 'fixtures/lint/unknown-key.yaml'], { bin, env }).code).toBe(1);
        expect(readFileSync(cache).equals(before), `V8 rejected ${cache}`).toBe(true);
        // The check is not vacuous: a cache V8 rejects is replaced by the run.
        writeFileSync(cache, 'not a code cache');
        runLauncher(['lint', '-r', rev, '-f', 'fixtures/lint/unknown-key.yaml'], { bin, env });
        expect(readFileSync(cache, 'utf8')).not.toBe('not a code cache');
        expect(readFileSync(cache).length).toBeGreaterThan(10_000);
      }
    });

    it('started through a relative symlink, as node_modules/.bin links it', () => {
      const target = copy(realStamp());
      const linkDir = mkdtempSync(join(dir, 'dotbin-'));
      symlinkSync(join('..', target.split('/').slice(-3).join('/')), join(linkDir, 'agentplat'));
      const r = runLauncher(['version'], { bin: join(linkDir, 'agentplat') });
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(STARTED_FROM_SNAPSHOT);
    });
  });
});
