// Build step: turns the values JSON schemas into ajv standalone validator code, so the bundled
// CLI validates without compiling a schema at start-up. Used by scripts/build.mjs.
//
// Each revision's validator is one self-contained, minified CommonJS script (dist/generated/
// values-validator-<rev>.cjs) that src/lint/schema-validators.ts requires only when user values
// fail the schema walker's quick check (values-schema-<rev>.json, the schema without its texts);
// a render or lint of the defaults reads neither.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { build } from 'esbuild';
import { createRequire } from 'node:module';

// ajv's documented entry point for standalone code (https://ajv.js.org/standalone), spelled as
// its docs spell it: the package has no `exports` map, so only require() resolves the folder.
const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;

export async function generateValidators(root, outDir) {
  // Share the exact options and keywords of src/lint/ajv-setup.ts (kept in sync by a test).
  const { AJV_OPTIONS, ANNOTATION_KEYWORDS } = JSON.parse(readFileSync(join(outDir, 'ajv-setup.json'), 'utf8'));
  for (const rev of ['a', 'b']) {
    const file = join(root, 'schemas', `values-${rev}.schema.json`);
    if (!existsSync(file)) continue;
    const ajv = new Ajv.default({ ...AJV_OPTIONS, code: { source: true, esm: false } });
    for (const k of ANNOTATION_KEYWORDS) ajv.addKeyword({ keyword: k, schemaType: ['string', 'boolean', 'object', 'array', 'number'] });
    const schema = stripAnnotations(JSON.parse(readFileSync(file, 'utf8')));
    // The same schema as data, for the walker that says "valid" before this code is loaded
    // (src/lint/schema-validators.ts): a quarter of the published schema's size, with each
    // top-level key's schema and each definition as JSON text the walker parses when the user's
    // values reach it (src/chart/schema-accepts.ts).
    const lazy = (map) => map && Object.fromEntries(Object.entries(map).map(([k, v]) => [k, JSON.stringify(v)]));
    writeFileSync(join(outDir, `values-schema-${rev}.json`), JSON.stringify({ ...schema, properties: lazy(schema.properties), definitions: lazy(schema.definitions) }));
    const validate = ajv.compile(schema);
    await writeScript(root, join(outDir, `values-validator-${rev}.cjs`), standaloneCode(ajv, validate));
  }
}

/** Writes `code` (CommonJS) to `file` as one minified script with what it requires inlined; returns its length. */
export async function writeScript(root, file, code) {
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
  return source.length;
}

// Texts for editors (descriptions, defaults) are not needed to validate and would be embedded in
// the generated code (ajv's verbose errors keep a reference to each schema node).
const ANNOTATIONS = new Set(['description', 'markdownDescription', 'default', 'title', '$schema', 'examples']);
function stripAnnotations(node, parentKey) {
  if (Array.isArray(node)) return node.map((n) => stripAnnotations(n));
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  // Under properties/definitions the keys are names, not keywords.
  const names = parentKey === 'properties' || parentKey === 'definitions' || parentKey === 'patternProperties';
  for (const [k, v] of Object.entries(node)) {
    if (!names && ANNOTATIONS.has(k)) continue;
    out[k] = stripAnnotations(v, names ? undefined : k);
  }
  return out;
}
