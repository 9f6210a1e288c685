// Builds dist/ (npm ci runs it as the prepare script; `npm pack` runs it from its prepack step,
// scripts/pack.mjs, so the package ships it built):
// - dist/generated/: what a run would otherwise compute at every start, as data files and
//   generated code read by the modules that use them: the templates compiled to line programs
//   (src/render/template-source.ts), the defaults of each revision with the position of every key
//   (src/values/defaults-data.ts), the CRDs' texts and objects (src/crds/index.ts), validate's data
//   (src/crds/validation-data.ts), and ajv standalone validators of the values schemas and of the
//   CRDs (src/lint/schema-validators.ts, src/crds/crd-validators.ts);
// - dist/agentplat.mjs (the CLI) and dist/api.mjs (the package's in-process API): one esbuild
//   bundle split per command;
// - dist/types/: declarations of the API;
// - with --exe, dist/sea/main.cjs: the entry of the single executable (scripts/build-exe.mjs).
// What each of these saves is written in docs/decisions.md.
// Everything is built into dist.next/ and then renamed to dist/, so a run (or a test reading
// dist/generated/) during a build sees the previous build whole, and a failed build changes nothing.
import { build } from 'esbuild';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
// --into DIR: build into DIR instead of dist/ (scripts/build-exe.mjs builds its own copy there,
// so that it neither changes dist/ under a test nor meets another build's dist.next/).
const into = process.argv.indexOf('--into');
const dist = into >= 0 ? process.argv[into + 1] : join(root, 'dist');
const out = `${dist}.next`;
rmSync(out, { recursive: true, force: true });
const gen = join(out, 'generated');
mkdirSync(gen, { recursive: true });

// The source functions the data files are made from, bundled once to a file next to the output
// (so their imports of ajv and yaml resolve from node_modules like the CLI's) and run here.
const sources = await (async () => {
  const entry = `export { compileTemplates } from './src/render/template-program.ts';
export { templateFiles } from './src/render/template-source.ts';
export { modelChartCrdDocs, modelMcpopCrdDocs } from './src/crds/model-docs.ts';
export { AJV_OPTIONS, ANNOTATION_KEYWORDS } from './src/lint/ajv-setup.ts';
export { objectYaml } from './src/render/manifests.ts';
export { unsetKeysOf } from './src/chart/values-model.ts';
export { CLI_BUNDLES } from './src/cli/bundles.ts';`;
  const r = await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, packages: 'external', logLevel: 'warning' });
  const tmp = join(gen, '.sources.mjs');
  writeFileSync(tmp, r.outputFiles[0].text);
  try {
    return await import(pathToFileURL(tmp).href);
  } finally {
    rmSync(tmp, { force: true });
  }
})();

// 1. The templates compiled to line programs: a template that leaves the template language fails
// the build, naming its file and line.
writeFileSync(join(gen, 'templates.json'), JSON.stringify(sources.compileTemplates(sources.templateFiles(join(root, 'templates')))));

// 2. Standalone validators of the values schemas, with the ajv options of src/lint/ajv-setup.ts.
writeFileSync(join(gen, 'ajv-setup.json'), JSON.stringify({ AJV_OPTIONS: sources.AJV_OPTIONS, ANNOTATION_KEYWORDS: sources.ANNOTATION_KEYWORDS }));
{
  const { generateValidators } = await import('./gen-validators.mjs');
  await generateValidators(root, gen);
}

// 3. The defaults of each revision as JSON data, with the position of every key (the commented
// YAML is never parsed at run time). A file per revision for the data, which every render reads,
// and one for the positions, three times its size, read only when a problem names a key of the
// defaults.
{
  const { LineCounter, parseDocument, isMap, isSeq, isScalar } = await import('yaml');
  // Same path spelling as joinPath in src/values/merge.ts (a test checks a few of them).
  const seg = (s) => String(s).replace(/[\\.[]/g, (c) => `\\${c}`);
  const data = {};
  const positions = {};
  for (const rev of ['A', 'B']) {
    const file = join(root, 'values', `revision-${rev.toLowerCase()}.yaml`);
    const text = readFileSync(file, 'utf8');
    const lines = text.split(/\r?\n/);
    const lc = new LineCounter();
    const doc = parseDocument(text, { lineCounter: lc, version: '1.2' });
    data[rev] = doc.toJS();
    const pos = (positions[rev] = {});
    const at = (path, node) => {
      const p = lc.linePos(node.range[0]);
      pos[path] = [p.line, p.col, lines[p.line - 1]];
    };
    const walk = (node, path) => {
      if (isMap(node)) {
        for (const pair of node.items) {
          if (!isScalar(pair.key)) continue;
          const k = String(pair.key.value);
          const child = path === '' ? seg(k) : `${path}.${seg(k)}`;
          at(child, pair.key);
          walk(pair.value, child);
        }
      } else if (isSeq(node)) {
        node.items.forEach((item, i) => {
          const child = `${path}[${i}]`;
          at(child, item);
          walk(item, child);
        });
      }
    };
    walk(doc.contents, '');
  }
  for (const rev of ['A', 'B']) writeFileSync(join(gen, `defaults-${rev.toLowerCase()}.json`), JSON.stringify(data[rev]));
  writeFileSync(join(gen, 'defaults-positions.json'), JSON.stringify(positions));
  // The keys the values model declares and the defaults leave unset, where a user's null removes
  // the key as it does over a default; read only when a user's null meets such a key.
  writeFileSync(join(gen, 'defaults-unset.json'), JSON.stringify({ A: sources.unsetKeysOf('A'), B: sources.unsetKeysOf('B') }));
}

// 4. The CRDs as data files: they do not depend on values, so a run prints them without building
// the model's large schemas or serializing them. The texts (with the object heads) and the whole
// objects (for -o json) are read when a command first prints a CRD; they are no code to parse
// at start-up. The texts are one YAML file, and the index gives
// each text's length: a run reads the file as one string and each CRD's text is a slice of it.
{
  const lists = { chart: sources.modelChartCrdDocs(), mcpop: sources.modelMcpopCrdDocs() };
  const texts = Object.fromEntries(Object.entries(lists).map(([l, docs]) => [l, docs.map((d) => ({ source: d.source, text: sources.objectYaml(d.object), head: { apiVersion: d.object.apiVersion, kind: d.object.kind, metadata: d.object.metadata } }))]));
  writeFileSync(join(gen, 'crds-texts.yaml'), Object.values(texts).flatMap((l) => l.map((t) => t.text)).join(''));
  writeFileSync(join(gen, 'crds-index.json'), JSON.stringify(Object.fromEntries(Object.entries(texts).map(([l, list]) => [l, list.map((t) => ({ source: t.source, head: t.head, length: t.text.length }))]))));
  writeFileSync(join(gen, 'crds-objects.json'), JSON.stringify(Object.fromEntries([...lists.chart, ...lists.mcpop].map((d) => [d.source, d.object]))));
}

// 4b. What `validate` needs from the CRDs: served versions, defaults and CEL rules as data, and
// ajv standalone validators per group of kinds, so it neither builds the model nor compiles a
// schema at run time.
{
  const { generateCrdValidators } = await import('./gen-crd-validators.mjs');
  await generateCrdValidators(root, gen);
}

// 4c. What each lint check reads (explain's ruleReads): found by running the checks, which read
// the defaults and validate's data from the files written above. This step runs after them, with
// the package's files read through usePackageFiles: dist/… from this build's output, the rest from
// the repository (the previous dist/ may be stale or missing).
{
  const entry = `export { usePackageFiles } from './src/package-root.ts';
export { computeRuleReads } from './src/explain/rule-reads-compute.ts';
export { loadModelConfigCheck } from './src/lint/crd-check.ts';
export { computeExplainBases } from './src/explain/explain.ts';`;
  const r = await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, packages: 'external', logLevel: 'warning' });
  const tmp = join(gen, '.rule-reads.mjs');
  writeFileSync(tmp, r.outputFiles[0].text);
  try {
    const m = await import(pathToFileURL(tmp).href);
    const at = (path) => (path.startsWith('dist/') ? join(out, path.slice('dist/'.length)) : join(root, path));
    m.usePackageFiles({ read: (path) => (existsSync(at(path)) ? readFileSync(at(path)) : undefined), name: at, cacheDir: () => undefined });
    writeFileSync(join(gen, 'rule-reads.json'), JSON.stringify(m.computeRuleReads(await m.loadModelConfigCheck())));
    // Whether each render explain compares an example with passes the linter and renders (computeExplainBases).
    writeFileSync(join(gen, 'explain-bases.json'), JSON.stringify(m.computeExplainBases(await m.loadModelConfigCheck())));
  } finally {
    rmSync(tmp, { force: true });
  }
}

// 5. The bundles. The CLI is one CommonJS script, dist/cli.cjs, which bin/agentplat runs through
// dist/launch.cjs with V8's code cache (src/code-cache.ts): a run after the first compiles none
// of it, and code a command never calls costs only its reading. The in-process API is an ES
// module, dist/api.mjs, split so that each function reads only its own code.
const define = { __AGENTPLAT_VERSION__: JSON.stringify(pkg.version) };
// The package has no runtime dependencies: every library is bundled. A library that one command
// alone runs is bundled apart, as a chunk (dist/chunks/<name>.cjs) that the bundle loads through
// src/package-root.ts requireChunk() when that command first imports it, so the other commands
// neither read nor compile it: the cluster client, which only a `--cluster` run imports
// (src/cluster/connect.ts, by dynamic import), and the language server, which only `agentplat lsp` runs. To add one: a row here, naming the packages
// (an import of the package or of any path under it goes to the chunk) and who loads it; the
// importing module must itself be reached only by a dynamic import from that command.
const CHUNKS = [
  { name: 'cluster-client', packages: ['@kubernetes/client-node'], loadedBy: 'a --cluster run (src/cluster/connect.ts)' },
  { name: 'lsp', packages: ['vscode-languageserver', 'vscode-languageserver-textdocument'], loadedBy: 'agentplat lsp (src/lsp/server.ts)' },
  // ajv's compiler and the CEL evaluator: validate, and lint when it checks a custom resource
  // (src/kube-check/object.ts, which src/lint/crd-check.ts imports dynamically); a render of the
  // chart never runs them, and without them its bundle (dist/cli-render.cjs) is a fifth smaller.
  { name: 'kube-check', packages: ['ajv', 'ajv-formats', '@marcbachmann/cel-js'], loadedBy: 'validate, and lint of a custom resource (src/kube-check/crd-ajv.ts, formats.ts, cel.ts)' },
];
const packageRootModule = join(root, 'src', 'package-root.ts');
/**
 * What each chunk serves, by import path: the names the bundles import from it, or '*' for the
 * whole module (a namespace, default or dynamic import). Filled by the plugin as it resolves the
 * imports; the chunk is then built of exactly those, so that esbuild leaves out the rest of the
 * package (the cluster client is 14 MB whole, 1.6 MB for the KubeConfig the CLI imports).
 */
const chunkImports = new Map(CHUNKS.map((c) => [c.name, new Map()]));
const escapeRe = (t) => t.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** The names `importer` imports from `path` with `import { a, b as c } from 'path'`, or '*' for any other kind of import. */
function importedNames(importer, path) {
  const text = readFileSync(importer, 'utf8');
  const named = [...text.matchAll(new RegExp(`^import\\s+\\{([^}]*)\\}\\s+from\\s+['"]${escapeRe(path)}['"]`, 'gm'))];
  const every = [...text.matchAll(new RegExp(`['"]${escapeRe(path)}['"]`, 'g'))];
  if (named.length === 0 || named.length !== every.length) return '*';
  return named.flatMap((m) => m[1].split(',').map((n) => n.trim()).filter((n) => n !== '' && !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0]));
}
const lazyChunks = {
  name: 'lazy-chunks',
  setup(b) {
    for (const chunk of CHUNKS) {
      const filter = new RegExp(`^(?:${chunk.packages.map(escapeRe).join('|')})(?:/.*)?$`);
      b.onResolve({ filter }, (args) => {
        const served = chunkImports.get(chunk.name);
        const names = importedNames(args.importer, args.path);
        const had = served.get(args.path);
        served.set(args.path, names === '*' || had === '*' ? '*' : [...new Set([...(had ?? []), ...names])]);
        return { path: args.path, namespace: `chunk-${chunk.name}` };
      });
      b.onLoad({ filter: /.*/, namespace: `chunk-${chunk.name}` }, (args) => ({
        contents: `module.exports = require(${JSON.stringify(packageRootModule)}).requireChunk(${JSON.stringify(chunk.name)})[${JSON.stringify(args.path)}];`,
        resolveDir: root,
        loader: 'js',
      }));
    }
  },
};
// commander requires node:child_process as it loads, for executable subcommands (a feature the
// CLI does not use): that module and the stream modules behind it cost about 1 ms of every
// start-up (bench/bench.mjs). The bundle's copy requires it on the first spawn instead; the build
// fails if commander's line changes, rather than ship a bundle that loads it again unseen.
const commanderSpawnOnDemand = {
  name: 'commander-spawn-on-demand',
  setup(b) {
    b.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, (args) => {
      const text = readFileSync(args.path, 'utf8');
      const line = "const childProcess = require('node:child_process');";
      if (!text.includes(line)) throw new Error(`${args.path}: the line the build rewrites is gone (${line}); update commanderSpawnOnDemand in scripts/build.mjs`);
      return { contents: text.replace(line, "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"), loader: 'js' };
    });
  },
};
const common = { bundle: true, platform: 'node', target: 'node20', minifySyntax: true, legalComments: 'none', define, logLevel: 'warning', plugins: [commanderSpawnOnDemand, lazyChunks] };
await build({
  ...common,
  entryPoints: { api: join(root, 'src', 'api-entry.ts') },
  outdir: out,
  outExtension: { '.js': '.mjs' },
  splitting: true,
  chunkNames: 'chunk-[hash]',
  format: 'esm',
  banner: {
    js: "import { createRequire as __agentplatCreateRequire } from 'node:module'; const require = __agentplatCreateRequire(import.meta.url);",
  },
});
for (const [name, entry] of [['cli', join(root, 'src', 'cli', 'main.ts')], ['launch', join(root, 'src', 'cli', 'launch.ts')]]) {
  await build({
    ...common,
    entryPoints: [entry],
    outfile: join(out, `${name}.cjs`),
    format: 'cjs',
    // The sources are ES modules; a CommonJS script has its folder and file as variables.
    define: { ...define, 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  });
}

// 5''. The CLI again, cut down for the runs that start most often (src/cli/bundles.ts names them
// and which the launcher runs): the same entry, with the run code of every command the bundle is
// not for left out. Each command's module (src/cli/commands/<name>.ts) loads its run code by a
// dynamic import in its action, which only a command line naming that command calls; in a cut
// bundle such an import of another command's is a stub that throws, which the launcher never
// reaches (it runs a cut bundle only for the command lines of its commands). A render reads,
// and V8 takes the code cache of, half the script; `--version` a tenth.
{
  for (const bundle of sources.CLI_BUNDLES) {
    const leaveOut = {
      name: 'leave-out-other-commands',
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          // what the program loads before an action runs (src/cli/program.ts): only a bundle of no command leaves it out
          if (bundle.commands.length === 0 && /[\\/]src[\\/]cli[\\/]program\.ts$/.test(args.importer)) return { path: `the program: ${args.path}`, namespace: 'left-out' };
          const m = /[\\/]src[\\/]cli[\\/]commands[\\/]([a-z-]+)\.ts$/.exec(args.importer);
          if (!m || m[1].endsWith('-run') || bundle.commands.includes(m[1])) return undefined;
          return { path: `${m[1]}: ${args.path}`, namespace: 'left-out' };
        });
        b.onLoad({ filter: /.*/, namespace: 'left-out' }, (args) => ({
          contents: `throw new Error(${JSON.stringify(`dist/${bundle.name}.cjs runs ${bundle.commands.join(', ') || 'no command'}: it leaves out the run code of ${args.path} (src/cli/bundles.ts)`)});`,
          loader: 'js',
        }));
      },
    };
    await build({
      ...common,
      plugins: [...common.plugins, leaveOut],
      entryPoints: [join(root, 'src', 'cli', 'main.ts')],
      outfile: join(out, `${bundle.name}.cjs`),
      format: 'cjs',
      define: { ...define, 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
    });
  }
}

// 5'. With --exe (scripts/build-exe.mjs): the entry of the single executable, dist/sea/main.cjs,
// the same bundle with src/cli/exe-main.ts as its entry (the package does not ship it).
if (process.argv.includes('--exe')) {
  await build({
    ...common,
    entryPoints: [join(root, 'src', 'cli', 'exe-main.ts')],
    outfile: join(out, 'sea', 'main.cjs'),
    format: 'cjs',
    define: { ...define, 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  });
}

// 5a. The chunks: each a CommonJS script whose exports are, by import path, the modules the
// bundles import from its packages (all of them bundled in).
for (const chunk of CHUNKS) {
  const served = [...chunkImports.get(chunk.name)].sort(([a], [b]) => (a < b ? -1 : 1));
  if (served.length === 0) throw new Error(`scripts/build.mjs: no module imports the packages of chunk ${chunk.name} (${chunk.packages.join(', ')}); remove its row from CHUNKS`);
  const lines = served.map(([path, names], i) => (names === '*' ? `import * as m${i} from ${JSON.stringify(path)};` : `import { ${names.map((n, j) => `${n} as m${i}_${j}`).join(', ')} } from ${JSON.stringify(path)};`));
  const entries = served.map(([path, names], i) => `${JSON.stringify(path)}: ${names === '*' ? `m${i}` : `{ ${names.map((n, j) => `${n}: m${i}_${j}`).join(', ')} }`}`);
  await build({
    ...common,
    plugins: [commanderSpawnOnDemand],
    // Node's own punycode module is deprecated (Node 22 and later print DEP0040 when it is
    // required); the packages that require it (tr46, whatwg-url) get the registry's punycode
    // package, the same code, which npm installed beside them.
    alias: { punycode: 'punycode/' },
    stdin: { contents: `${lines.join('\n')}\nmodule.exports = { ${entries.join(', ')} };\n`, resolveDir: root, loader: 'js', sourcefile: `chunk-${chunk.name}.js` },
    outfile: join(out, 'chunks', `${chunk.name}.cjs`),
    format: 'cjs',
    define: { ...define, 'import.meta.dirname': '__dirname', 'import.meta.filename': '__filename' },
  });
}

// 5b. Type declarations of the in-process API (dist/types/api.d.ts, the package's "types"):
// each module the API's types reach, declarations only, with .js import paths.
{
  const { default: ts } = await import('typescript');
  const queue = [join(root, 'src', 'api.ts')];
  const done = new Set();
  while (queue.length > 0) {
    const file = queue.shift();
    if (done.has(file)) continue;
    done.add(file);
    const r = ts.transpileDeclaration(readFileSync(file, 'utf8'), {
      fileName: file,
      reportDiagnostics: true,
      compilerOptions: { module: ts.ModuleKind.NodeNext, target: ts.ScriptTarget.ES2022, allowImportingTsExtensions: true, verbatimModuleSyntax: true, strict: true },
    });
    if (r.diagnostics?.length) throw new Error(`declarations of ${relative(root, file)}: ${ts.flattenDiagnosticMessageText(r.diagnostics[0].messageText, ' ')}`);
    for (const m of r.outputText.matchAll(/from '(\.[^']+)\.ts'/g)) queue.push(join(dirname(file), `${m[1]}.ts`));
    const target = join(out, 'types', relative(join(root, 'src'), file).replace(/\.ts$/, '.d.ts'));
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, r.outputText.replace(/from '(\.[^']+)\.ts'/g, "from '$1.js'"));
  }
}

// 6. The few non-ASCII characters esbuild leaves in the output (inside regular expression
// literals, such as the µ of `µs`) as \u escapes, which mean the same in strings, regular
// expressions and identifiers: V8 keeps a script's source in memory, and one such character
// turns a megabyte of one-byte source into a two-byte string (src/code-cache.ts reads an ASCII
// script as latin1, the fastest). Then each CommonJS script that src/code-cache.ts runs gets its
// content hash on its first line, which names its code cache.
{
  const { createHash } = await import('node:crypto');
  const scripts = [out, gen, join(out, 'chunks')].filter((d) => existsSync(d)).flatMap((d) => readdirSync(d).map((f) => join(d, f)));
  for (const file of scripts) {
    if (!/\.(mjs|cjs)$/.test(file)) continue;
    let text = readFileSync(file, 'utf8');
    if (/[^\x00-\x7f]/.test(text)) text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    if (file.endsWith('.cjs')) text = `// agentplat-content-hash ${createHash('sha256').update(text).digest('hex').slice(0, 32)}\n${text}`;
    writeFileSync(file, text);
  }
}

// 7. The new build replaces the old one: two renames.
const old = `${dist}.old-${process.pid}`;
if (existsSync(dist)) renameSync(dist, old);
renameSync(out, dist);
// The single executable (scripts/build-exe.mjs writes dist/exe/) is no part of this build: it stays.
if (existsSync(join(old, 'exe'))) renameSync(join(old, 'exe'), join(dist, 'exe'));
rmSync(old, { recursive: true, force: true });
