// What the fast reader of values and resource files (src/yaml/plain-yaml.ts, chosen by src/yaml/read.ts) saves:
// the CLI bundled twice from the sources, as the build bundles it, once as it is and once with that
// reader always declining (so every file goes to the yaml library, as it does for anything
// outside the reader's dialect), run on the jobs that read user files. A values file with a
// problem is read twice (the library gives the positions), so the lint of files with problems
// costs more; a clean file, the usual case in CI, is read once. This script asserts nothing.
//
//   node bench/readers.mjs [--rounds 9]
import { bundleLikeTheCli, median, writeResources, writeValuesFiles } from './_shared.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 9) || 9;
if (!existsSync(join(root, 'dist', 'generated', 'templates.json'))) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

// The two CLIs, next to the real bundle so that they read dist/generated/.
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const variants = { 'fast reader': join(root, 'dist', `.bench-readers-on-${process.pid}.mjs`), 'yaml library only': join(root, 'dist', `.bench-readers-off-${process.pid}.mjs`) };
process.on('exit', () => Object.values(variants).forEach((f) => rmSync(f, { force: true })));
const declines = {
  name: 'plain-reader-declines',
  setup(b) {
    b.onLoad({ filter: /[\\/]yaml[\\/]read\.ts$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const head = 'export function* fastDocuments(text: string, purpose: YamlPurpose): Generator<unknown, boolean, undefined> {';
      if (!text.includes(head)) throw new Error('bench: fastDocuments changed its signature; update bench/readers.mjs');
      return { contents: text.replace(head, `${head}\n  if (text.length >= 0) return false;`), loader: 'ts' };
    });
  },
};
for (const [name, outfile] of Object.entries(variants)) {
  await bundleLikeTheCli({
    entryPoints: [join(root, 'src', 'cli', 'main.ts')],
    outfile,
    define: { __AGENTPLAT_VERSION__: JSON.stringify(pkg.version), __AGENTPLAT_BUNDLED__: 'true' },
    plugins: name === 'yaml library only' ? [declines] : [],
  });
}

// Inputs: 500 values files (the lint fixtures, varied) and 200 custom resources (the fixtures).
const work = mkdtempSync(join(tmpdir(), 'agentplat-bench-readers-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));
const lintDir = writeValuesFiles(root, join(work, 'values'));
const crDir = writeResources(root, join(work, 'resources'));

const jobs = {
  'lint of 500 values files': ['lint', '-r', 'B', '--quiet', ...readdirSync(lintDir).map((f) => join(lintDir, f))],
  'validate of 200 resources': ['validate', crDir],
  'render -f values.yaml': ['render', '-r', 'B', '--skip-crds', '-f', join(root, 'fixtures', 'render', 'httproute', 'values.yaml')],
};
function wall(cli, args) {
  const t = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [cli, ...args], { cwd: root, stdio: 'ignore' });
  if (r.status !== 0 && r.status !== 1) throw new Error(`bench: ${args.slice(0, 3).join(' ')} exited with ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}
const samples = {};
for (let round = 0; round <= rounds; round++) {
  for (const [job, args] of Object.entries(jobs)) {
    for (const [name, cli] of Object.entries(variants)) {
      const ms = wall(cli, args);
      if (round > 0) (samples[`${job}/${name}`] ??= []).push(ms);
    }
  }
  process.stderr.write(`\rround ${round + 1}/${rounds + 1}`);
}
process.stderr.write('\n');
console.log(`node ${process.version}, whole processes from the bundle, ${rounds} rounds after 1 warm-up round, medians in ms`);
console.log(`${'job'.padEnd(28)} ${'fast reader'.padStart(12)} ${'library only'.padStart(13)}  saved`);
for (const job of Object.keys(jobs)) {
  const on = median(samples[`${job}/fast reader`]);
  const off = median(samples[`${job}/yaml library only`]);
  console.log(`${job.padEnd(28)} ${on.toFixed(1).padStart(12)} ${off.toFixed(1).padStart(13)}  ${((100 * (off - on)) / off).toFixed(0)}%`);
}
