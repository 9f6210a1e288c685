// Build step shared by gen-validators.mjs and gen-crd-validators.mjs: generated validator code as
// self-contained scripts, and their V8 code caches for the bundle (src/code-cache.ts loads them;
// the caches for runs from a start-up snapshot are made by scripts/snapshot.mjs).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { build } from 'esbuild';

let wrapper;

/** The wrapper src/code-cache.ts runs a script in: a cache is valid only for the same text. */
async function scriptWrapper(root) {
  if (!wrapper) {
    const r = await build({ entryPoints: [join(root, 'src', 'code-cache.ts')], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'warning' });
    wrapper = (await import('data:text/javascript;base64,' + Buffer.from(r.outputFiles[0].text).toString('base64'))).SCRIPT_WRAPPER;
  }
  return wrapper;
}

/**
 * Writes `code` (CommonJS) to `file` as one minified script with what it requires inlined, runs
 * it, lets `exercise(exports)` call its functions, and writes the V8 code cache of what ran to
 * `<file>.bundle.cache`.
 */
export async function writeScriptWithCodeCache(root, file, code, exercise) {
  const bundled = await build({
    stdin: { contents: code, resolveDir: root, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'warning',
  });
  const source = bundled.outputFiles[0].text;
  writeFileSync(file, source);
  const [open, close] = await scriptWrapper(root);
  const script = new Script(open + source + close, { filename: file });
  const module = { exports: {} };
  script.runInThisContext()(module, module.exports);
  exercise(module.exports);
  writeFileSync(`${file}.bundle.cache`, script.createCachedData());
  return source.length;
}
