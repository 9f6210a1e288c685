// What each member of the precomputed seam (src/precomputed.ts) saves: the time its first read
// takes with the plain implementation (computed from the sources, its code loaded for it) and with
// the built one (reading dist/generated/), each in a fresh process, against the wall time of the
// command it serves, from the bundle (how the in-process API and a run under NODE_OPTIONS start)
// and from the start-up snapshot (the launcher's usual way). A member is worth its build step only
// if it saves at least 5% of its command in one of the two ways (the figure is written at the member
// in src/pipeline/precomputed-built.ts). This script asserts nothing.
//
//   node bench/precomputed.mjs [--rounds 9]
import { bundleLikeTheCli, median } from './_shared.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 9) || 9;
const bin = join(root, 'bin', 'agentplat');
if (!existsSync(join(root, 'dist', 'generated', 'templates.json'))) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(2);
}

// One bundle of both implementations, built like the CLI's (dependencies bundled, split, so each
// plain member's code is a chunk loaded only when that member is read, inside the timed part).
// Inside the package, so that the plain members find templates/, values/ and schemas/.
const out = mkdtempSync(join(root, 'bench', '.precomputed-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));
const PLAIN = {
  templateSet: ['render/template-source-plain.ts', 'plainTemplateSet'],
  defaultsData: ['values/defaults-data-plain.ts', 'plainDefaultsData'],
  valuesValidator: ['lint/schema-validators-plain.ts', 'plainValuesValidator'],
  chartCrdDocs: ['crds/index-plain.ts', 'plainChartCrdDocs'],
  crdValidationData: ['crds/validation-plain.ts', 'plainCrdValidationData'],
  crdValidator: ['crds/validation-plain.ts', 'plainCrdValidator'],
};
const entry = [
  `import { builtPrecomputed } from './src/pipeline/precomputed-built.ts';`,
  `export { objectYaml } from './src/output/manifests.ts';`,
  `export const built = builtPrecomputed(() => ${JSON.stringify(join(root, 'dist', 'generated'))});`,
  `export const plain = {`,
  ...Object.entries(PLAIN).map(([m, [file, name]]) => `  ${m}: () => import('./src/${file}').then((x) => x.${name}),`),
  `};`,
].join('\n');
await bundleLikeTheCli({ stdin: { contents: entry, resolveDir: root, loader: 'ts', sourcefile: 'bench-precomputed.ts' }, splitting: true, outdir: out });
const bundle = pathToFileURL(join(out, 'stdin.js')).href;

/** A first read of each member, as the command it serves makes it. */
const READ = {
  templateSet: 'f()',
  defaultsData: "f('B')",
  valuesValidator: "f('B')({ controller: { replicas: 2 } })",
  // With their YAML, as render prints them: written now (plain) or by the build (built).
  chartCrdDocs: "f().map((d) => (impl === 'built' ? m.built.writtenYaml(d.object) : m.objectYaml(d.object)))",
  crdValidationData: 'f()',
  crdValidator: "f('Agent', 'v1alpha2')({ apiVersion: 'agentplat.dev/v1alpha2', kind: 'Agent', metadata: { name: 'x' }, spec: { unknownField: 1 } })",
};

/** Milliseconds of the first read of `member` with `impl` (its code loaded for it), in a fresh process. */
function firstRead(member, impl) {
  const script = `const m = await import(${JSON.stringify(bundle)});
const impl = ${JSON.stringify(impl)};
const t = performance.now();
const f = ${impl === 'plain' ? `await m.plain.${member}()` : `m.built.${member}`};
${READ[member]};
process.stdout.write(String(performance.now() - t));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: ${member} (${impl}) exited with ${r.status}: ${r.stderr.slice(0, 400)}`);
  return Number(r.stdout);
}

/** Milliseconds of a whole run of the CLI. */
function wall(args, env = {}) {
  const t = process.hrtime.bigint();
  const r = spawnSync(bin, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  if (r.status !== 0 && r.status !== 1) throw new Error(`bench: agentplat ${args.join(' ')} exited with ${r.status}`);
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const values = join(root, 'fixtures', 'render', 'httproute', 'values.yaml');
const resources = join(root, 'fixtures', 'resources');
/** The command each member serves (the one that reads it first and most). */
const COMMAND = {
  templateSet: ['render', '-r', 'B', '--skip-crds'],
  defaultsData: ['render', '-r', 'B', '--skip-crds'],
  valuesValidator: ['lint', '-r', 'B', values],
  chartCrdDocs: ['render', '-r', 'B'],
  crdValidationData: ['validate', resources],
  crdValidator: ['validate', resources],
};

const members = Object.keys(PLAIN);
const commands = [...new Set(Object.values(COMMAND).map((c) => c.join(' ')))];
const samples = {};
const add = (k, v) => (samples[k] ??= []).push(v);
// Interleaved rounds, one warm-up round not counted, so machine noise spreads evenly.
for (let round = 0; round <= rounds; round++) {
  const keep = round > 0;
  for (const m of members) {
    for (const impl of ['plain', 'built']) {
      const ms = firstRead(m, impl);
      if (keep) add(`${m}/${impl}`, ms);
    }
  }
  for (const c of commands) {
    const args = c.split(' ');
    const a = wall(args);
    const b = wall(args, { AGENTPLAT_NO_SNAPSHOT: '1' });
    if (keep) {
      add(`${c}/snapshot`, a);
      add(`${c}/bundle`, b);
    }
  }
  process.stderr.write(`\rround ${round + 1}/${rounds + 1}`);
}
process.stderr.write('\n');

const fmt = (x) => x.toFixed(1).padStart(7);
// From the snapshot, the members every start-up warm-up reads (templates, defaults, CRD texts) are
// in the snapshot either way: their saving applies to runs from the bundle only.
const IN_SNAPSHOT = new Set(['templateSet', 'defaultsData', 'chartCrdDocs']);
console.log(`node ${process.version}, ${rounds} rounds after 1 warm-up round, medians in ms`);
console.log(`${'member'.padEnd(18)} ${'plain'.padStart(7)} ${'built'.padStart(7)} ${'saved'.padStart(7)}  command (wall: snapshot / bundle)                 saved % (snapshot / bundle)`);
for (const m of members) {
  const plain = median(samples[`${m}/plain`]);
  const built = median(samples[`${m}/built`]);
  const c = COMMAND[m].join(' ');
  const snap = median(samples[`${c}/snapshot`]);
  const bund = median(samples[`${c}/bundle`]);
  const saved = plain - built;
  const inSnapshot = IN_SNAPSHOT.has(m);
  const pct = (ms) => `${((100 * saved) / ms).toFixed(0)}%`;
  console.log(
    `${m.padEnd(18)} ${fmt(plain)} ${fmt(built)} ${fmt(saved)}  ${`${c.replace(root + '/', '')} (${snap.toFixed(0)} / ${bund.toFixed(0)})`.padEnd(50)} ${inSnapshot ? '-' : pct(snap)} / ${pct(bund)}`,
  );
}
