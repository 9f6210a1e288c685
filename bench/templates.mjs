// Should the templates run through handlebars itself? This measures, on the templates of a real
// render (every call of src/render/engine.ts's renderDocs during `render --revision B`, with its
// data), what it costs to turn them into objects:
// - own: the line programs the build compiles (src/render/template-program.ts) read by the line
//   reader (src/yaml/template-yaml.ts), as the product does;
// - handlebars: the same templates precompiled by handlebars' own precompiler and run by its
//   runtime (strict, no escaping, as the test oracle runs them), the text read by the yaml
//   library's parser;
// - handlebars + own text reader: the same text read by the product's reader of template text.
// Each variant must give the same objects (checked). Reported: the first render in a fresh
// process (runtime and code loaded, what a CLI run pays) and the steady state (what a long-lived
// in-process user pays), against the wall time of `render --revision B --skip-crds` (the bundle)
// and of an in-process render. This script asserts nothing.
//
//   node bench/templates.mjs [--rounds 9]
import { bundleLikeTheCli, median } from './_shared.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const rounds = Number(process.argv[process.argv.indexOf('--rounds') + 1] || 9) || 9;
const bin = join(root, 'bin', 'agentplat');
if (!existsSync(join(root, 'dist', 'agentplat.mjs'))) {
  console.error('bench: dist/ is missing; run `npm run build` first');
  process.exit(2);
}
const out = mkdtempSync(join(root, 'bench', '.templates-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

// 1. The calls of a real render: the API bundled with renderDocs recording its arguments (a
// bench-only change of the source text, made here and nowhere else).
const engine = join(root, 'src', 'render', 'engine.ts');
const recorder = {
  name: 'record-render-docs',
  setup(b) {
    b.onLoad({ filter: /[\\/]render[\\/]engine\.ts$/ }, () => {
      const text = readFileSync(engine, 'utf8');
      const head = 'export function renderDocs(source: string, template: string, data: unknown): RenderedDoc[] {';
      if (!text.includes(head)) throw new Error('bench: renderDocs changed its signature; update bench/templates.mjs');
      return { contents: `export const RECORDED: [string, unknown][] = [];\n${text.replace(head, `${head}\n  RECORDED.push([template, structuredClone(data)]);`)}`, loader: 'ts' };
    });
  },
};
await bundleLikeTheCli({
  stdin: {
    contents: `import './src/pipeline/use-built.ts';
export { render } from './src/api.ts';
export { RECORDED } from './src/render/engine.ts';`,
    resolveDir: root,
    loader: 'ts',
  },
  outfile: join(root, 'dist', `.bench-templates-${process.pid}.mjs`),
  plugins: [recorder],
});
const recordBundle = join(root, 'dist', `.bench-templates-${process.pid}.mjs`);
let calls;
try {
  const m = await import(pathToFileURL(recordBundle).href);
  const r = await m.render({ revision: 'B', skipCrds: true });
  if (!r.ok) throw new Error('bench: render failed');
  calls = m.RECORDED;
} finally {
  rmSync(recordBundle, { force: true });
}
writeFileSync(join(out, 'calls.json'), JSON.stringify(calls));

// 2. The three variants, each a module that runs every call and returns the objects.
const templatesDir = join(root, 'templates');
const Handlebars = (await import('handlebars')).default;
const files = {};
{
  const { readdirSync, statSync } = await import('node:fs');
  const walk = (dir) => {
    for (const e of readdirSync(dir).sort()) {
      const p = join(dir, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (e.endsWith('.hbs')) files[p.slice(templatesDir.length + 1).split('\\').join('/')] = readFileSync(p, 'utf8');
    }
  };
  walk(templatesDir);
}
// Partial names as the templates write them: the path under templates/ without `.hbs`.
const partial = (f) => (f.split('/').pop().startsWith('_') ? f.slice(0, -'.hbs'.length) : undefined);
const options = { strict: true, noEscape: true, preventIndent: true };
// Precompiled as the build would: one module of template specs, run by the handlebars runtime.
writeFileSync(
  join(out, 'precompiled.mjs'),
  `import Handlebars from 'handlebars/runtime.js';\n` +
    `import { truthy } from ${JSON.stringify(join(root, 'src', 'render', 'template-program.ts'))};\n` +
    `const hbs = Handlebars.create();\n` +
    `hbs.registerHelper('json', (v) => { if (v === undefined) throw new Error('template printed an undefined value'); return JSON.stringify(v); });\n` +
    `hbs.registerHelper('present', (v) => truthy(v));\n` +
    Object.entries(files)
      .filter(([f]) => partial(f))
      .map(([f, t]) => `hbs.registerPartial(${JSON.stringify(partial(f))}, hbs.template(${Handlebars.precompile(t, options)}));\n`)
      .join('') +
    `export const TEMPLATES = {\n` +
    Object.entries(files)
      .filter(([f]) => !partial(f))
      .map(([f, t]) => `  ${JSON.stringify(f)}: hbs.template(${Handlebars.precompile(t, options)}),\n`)
      .join('') +
    `};\n`,
);
writeFileSync(
  join(out, 'variants.ts'),
  `import { parseAllDocuments } from 'yaml';
import { runTemplate, templateText } from ${JSON.stringify(join(root, 'src', 'render', 'template-program.ts'))};
import { readTemplateLines } from ${JSON.stringify(join(root, 'src', 'yaml', 'template-yaml.ts'))};
import { readDocuments } from ${JSON.stringify(join(root, 'src', 'render', 'engine.ts'))};
import { readFileSync } from 'node:fs';
export const calls = JSON.parse(readFileSync(${JSON.stringify(join(out, 'calls.json'))}, 'utf8'));
const set = JSON.parse(readFileSync(${JSON.stringify(join(root, 'dist', 'generated', 'templates.json'))}, 'utf8'));
export const variants = {
  own: async () => (data, t) => { const r = runTemplate(set, t, data); return readTemplateLines(r.docs, r.values) ?? readDocuments(templateText(set, t, data), t); },
  handlebars: async () => { const { TEMPLATES } = await import('./precompiled.mjs'); return (data, t) => parseAllDocuments(TEMPLATES[t](data), { uniqueKeys: true, version: '1.2' }).map((d) => d.toJS()); },
};
export const runAll = (f) => calls.map(([t, data]) => f(data, t).filter((o) => o != null));
`,
);
await bundleLikeTheCli({ entryPoints: [join(out, 'variants.ts')], splitting: true, outdir: join(out, 'b') });
const variantsUrl = pathToFileURL(join(out, 'b', 'variants.js')).href;

// Same objects from every variant.
{
  const v = await import(variantsUrl);
  const own = JSON.stringify(v.runAll(await v.variants.own()));
  for (const name of Object.keys(v.variants)) {
    if (JSON.stringify(v.runAll(await v.variants[name]())) !== own) throw new Error(`bench: the ${name} variant gives other objects than the product`);
  }
}

/** First render (code and runtime loaded for it) and steady state, in a fresh process. */
function measure(name) {
  const script = `const v = await import(${JSON.stringify(variantsUrl)});
const t0 = performance.now();
const f = await v.variants[${JSON.stringify(name)}]();
v.runAll(f);
const first = performance.now() - t0;
for (let i = 0; i < 20; i++) v.runAll(f);
const t1 = performance.now();
for (let i = 0; i < 50; i++) v.runAll(f);
process.stdout.write(JSON.stringify({ first, steady: (performance.now() - t1) / 50 }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: ${name} exited with ${r.status}: ${r.stderr.slice(0, 400)}`);
  return JSON.parse(r.stdout);
}
function wall(env) {
  const t = process.hrtime.bigint();
  const r = spawnSync(bin, ['render', '--revision', 'B', '--skip-crds'], { cwd: root, env: { ...process.env, ...env }, stdio: 'ignore' });
  if (r.status !== 0) throw new Error('bench: render failed');
  return Number(process.hrtime.bigint() - t) / 1e6;
}
/** Milliseconds of one in-process render (dist/api.mjs) in steady state. */
function inProcessRender() {
  const script = `const api = await import(${JSON.stringify(pathToFileURL(join(root, 'dist', 'api.mjs')).href)});
for (let i = 0; i < 20; i++) await api.render({ revision: 'B', skipCrds: true });
const t = performance.now();
for (let i = 0; i < 50; i++) await api.render({ revision: 'B', skipCrds: true });
process.stdout.write(String((performance.now() - t) / 50));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bench: in-process render exited with ${r.status}: ${r.stderr.slice(0, 400)}`);
  return Number(r.stdout);
}
const names = ['own', 'handlebars', 'handlebars + own text reader'];
const samples = {};
const add = (k, v) => (samples[k] ??= []).push(v);
for (let round = 0; round <= rounds; round++) {
  for (const n of names) {
    const m = measure(n);
    if (round > 0) {
      add(`${n}/first`, m.first);
      add(`${n}/steady`, m.steady);
    }
  }
  const b = wall({});
  const i = inProcessRender();
  if (round > 0) {
    add('bundle', b);
    add('in-process', i);
  }
  process.stderr.write(`\rround ${round + 1}/${rounds + 1}`);
}
process.stderr.write('\n');
const bund = median(samples.bundle);
const inproc = median(samples['in-process']);
const own = { first: median(samples['own/first']), steady: median(samples['own/steady']) };
console.log(`node ${process.version}, ${calls.length} template runs per render, ${rounds} rounds after 1 warm-up round, medians`);
console.log(`render --revision B --skip-crds: ${bund.toFixed(0)} ms, ${inproc.toFixed(1)} ms in-process (steady)`);
console.log(`${'variant'.padEnd(30)} ${'first ms'.padStart(9)} ${'steady ms'.padStart(10)}  own saves of render (first: a CLI run; steady: in-process)`);
for (const n of names) {
  const first = median(samples[`${n}/first`]);
  const steady = median(samples[`${n}/steady`]);
  const pct = (saved, of) => `${((100 * saved) / of).toFixed(0)}%`;
  console.log(
    `${n.padEnd(30)} ${first.toFixed(1).padStart(9)} ${steady.toFixed(2).padStart(10)}  ${n === 'own' ? '' : `${pct(first - own.first, bund)}; ${pct(steady - own.steady, inproc + steady - own.steady)}`}`,
  );
}
