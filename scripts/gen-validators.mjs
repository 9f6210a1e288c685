// Build step: turns the values JSON schemas into ajv standalone validator code, so the bundled
// CLI validates without compiling a schema at start-up. Used by scripts/build.mjs.
//
// Each revision's validator is one self-contained, minified script (dist/generated/
// values-validator-<rev>.cjs) with V8 code caches next to it (src/code-cache.ts): `.bundle.cache`,
// made here by running the validator on the revision's defaults, and one per start-up snapshot,
// made by scripts/snapshot.mjs. The CLI loads a validator only when there are user values to
// check (a render or lint of the defaults never does), and V8 reads the compiled code from the
// cache instead of compiling half a megabyte of generated code. The validators are kept out of
// the start-up snapshots: every start would pay to deserialise them (about 1 MB of source and
// code for both revisions), while only runs with values use them.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { createRequire } from 'node:module';
import { writeScriptWithCodeCache } from './code-cache.mjs';
import { parse } from 'yaml';

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
    const validate = ajv.compile(schema);
    const defaults = parse(readFileSync(join(root, 'values', `revision-${rev}.yaml`), 'utf8'));
    // Run once on the defaults and on a bad file, so the cache holds the code most runs use.
    await writeScriptWithCodeCache(root, join(outDir, `values-validator-${rev}.cjs`), standaloneCode(ajv, validate), (exports) => {
      const v = exports.default ?? exports;
      v(defaults);
      v({ unknownKey: true, controller: { replicas: 'two' } });
    });
  }
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
