// The two tiers of the suite (docs/testing.md, "Running the tests").
//
// - The fast tier, `npm test` (vitest.config.ts): every test file, except the slow-only ones below,
//   with the randomized suites at a shallow depth (FAST_RUNS). A new test file is in it by default.
// - The slow tier, `npm run test:slow` (vitest.slow.config.ts): the process-heavy, build and recipe
//   tests (SLOW_ONLY), and every randomized suite again at its full depth (DEEP). `.ci/run` runs both.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = join(import.meta.dirname, '..');

/** Test files only the slow tier runs, each with why. */
export const SLOW_ONLY: Record<string, string> = {
  'test/recipes/*.test.ts': 'recipes: one `npm pack` of the repository and real installs into scratch prefixes',
  'test/docs/ci-recipes.test.ts': "recipes: the CI recipes of docs/ci.md run against an installed pack",
  'test/docs/readme-tour.test.ts': "recipes: the README's tour, line by line, against an installed pack (one process per line)",
  'test/exe/executable.test.ts': 'build and process-heavy: builds the single executable (npm run build:exe) and runs it and the installed pack over every fixture and the tour, one process per case',
  'test/exe/arm64.test.ts': "build and emulation: builds the linux-arm64 executable with Node's arm64 binary under qemu-user and runs it there (each run starts an emulator)",
  'test/image/image.test.ts': 'build and container runtime: builds the executable and the OCI image, loads it into podman and runs it read-only',
  'test/plugins/*.test.ts': 'real tools: the Helm 4 and kubectl plugins run under the helm and kubectl the cluster suite builds',
  'test/release/*.test.ts': 'build: the release (npm pack, the executable, the image, the plugin archives) built twice and compared byte for byte',
  'test/cli/process.test.ts': 'process-heavy: the contract of the real executable (streams, signals, exit status), one process per case',
  'test/hardening/binary-sample.test.ts': 'process-heavy: a sample of the fuzz inputs through the real executable',
  'test/hardening/injection.test.ts': 'render-heavy: every user-controlled string site of both revisions × every payload, each through lint and render (about 26 s)',
  'test/hardening/secrets.test.ts': 'render-heavy: every secret key × every output format and neighbouring problem (about 19 s)',
  'test/lsp/neovim.test.ts': 'process-heavy: Neovim (headless, from the distribution) as the editor of agentplat lsp',
  'test/crds/render-validate-matrix.test.ts': "render-heavy: the cluster suite's configuration matrix rendered and validated for each Kubernetes release (about 24 s)",
};

/**
 * Test files that need a fresh module registry of their own, each with why. The other files of a
 * tier share their worker's modules (vitest's `isolate: false`): a file imports src/ once per worker
 * instead of once per file, which was half the CPU time of the fast tier's smaller files. A file
 * that replaces a module (vi.mock, vi.doMock) or resets the registry (vi.resetModules) would see, or
 * leave behind, modules another file loaded, so it runs isolated (test/tiers.test.ts finds them).
 */
export const ISOLATED: Record<string, string> = {
  'test/values-load.test.ts': 'vi.mock of node:fs: counts the bytes the loader reads',
  'test/render/yaml-read-templates.test.ts': "vi.mock of src/yaml/template-yaml.ts: records every template output the fast reader reads",
  'test/render/template-program.test.ts': 'vi.mock of src/render/engine.ts: checks every template call against handlebars',
  'test/render/tpl.test.ts': 'vi.resetModules: imports a fresh copy of src/model/tpl.ts alone',
};

/** The factor of AGENTPLAT_FUZZ_RUNS the fast tier runs the randomized suites at, unless it is set. */
export const FAST_RUNS = '0.25';
/** The factor the slow tier runs them at, unless it is set: the sizes written in the tests. */
export const DEEP_RUNS = '1';

/** Every test file under test/ (the cluster suite aside), as a path from the repository root. */
export function testFiles(dir = join(ROOT, 'test')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'cluster' ? [] : testFiles(path);
    return e.name.endsWith('.test.ts') ? [relative(ROOT, path).split('\\').join('/')] : [];
  });
}

/** The randomized suites: every test file that takes its size from test/hardening/_seed.ts, itself or through a helper. */
export function deepFiles(): string[] {
  const text = (f: string) => readFileSync(join(ROOT, f), 'utf8');
  const imports = (t: string, name: string) => new RegExp(`/${name.replace(/\./g, '\\.')}['"]`).test(t);
  const helpers = readdirSync(join(ROOT, 'test', 'hardening')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && imports(text(`test/hardening/${f}`), '_seed.ts'));
  return testFiles().filter((f) => ['_seed.ts', ...helpers].some((name) => imports(text(f), name)));
}
