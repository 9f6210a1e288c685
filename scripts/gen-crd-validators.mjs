// Build step: what `agentplat validate` needs from the CRDs, written so the bundle neither builds
// the CRD model nor compiles a schema at run time: the files src/crds/validation-data.ts and
// src/crds/crd-validators.ts read. Used by scripts/build.mjs; writes into dist/generated/:
// - crd-validation-data.json: per kind its served versions and the defaults-and-CEL-rules schema;
// - crd-validators-<group>.cjs: ajv standalone code of the kinds of a group, and
//   crd-schemas-<group>.json: the JSON schemas behind it, which the schema
//   walker checks documents against and validate reads to explain an unknown field;
// - crd-validators-index.json: for each kind and version, its group and validator name.
// The schemas, the ajv options and the data come from src/crds/validation-model.ts and
// src/kube-check/crd-ajv.ts.
import { build } from 'esbuild';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { writeScript } from './gen-validators.mjs';

// ajv's documented entry point for standalone code (https://ajv.js.org/standalone), spelled as
// its docs spell it: the package has no `exports` map, so only require() resolves the folder.
const standaloneCode = createRequire(import.meta.url)('ajv/dist/standalone').default;

/** Kinds with more core types than this share one file (see groupOf). */
const SHARED_CORE_TYPES = 20;

export async function generateCrdValidators(root, gen) {
  // Bundle the TypeScript once to a file next to the output (not a data: URL), so its imports of
  // ajv and ajv-formats resolve from node_modules like the CLI's.
  const entry = `import { Ajv } from 'ajv';
import { CRD_AJV_OPTIONS, prepareCrdAjv } from './src/kube-check/crd-ajv.ts';
import { coreUri } from './src/crds/ids.ts';

export { ajvSchemasOf, computeValidationData } from './src/crds/validation-model.ts';
export { coreUri };
export { GROUP } from './src/crds/ids.ts';
export const newAjv = () => prepareCrdAjv(new Ajv({ ...CRD_AJV_OPTIONS, code: { source: true, esm: false } }));`;
  const r = await build({ stdin: { contents: entry, resolveDir: root, loader: 'ts' }, bundle: true, platform: 'node', format: 'esm', write: false, packages: 'external', logLevel: 'warning' });
  const tmp = join(gen, '.crd-model.mjs');
  writeFileSync(tmp, r.outputFiles[0].text);
  let mod;
  try {
    mod = await import(pathToFileURL(tmp).href);
  } finally {
    rmSync(tmp, { force: true });
  }

  const data = mod.computeValidationData();
  writeFileSync(join(gen, 'crd-validation-data.json'), JSON.stringify(data));

  // Group the kinds: those embedding many core types (Container, Volume, …: the agent kinds and
  // MCPServer) share one file, so the core types' code is written and loaded once; the small
  // kinds stay alone, so a ModelConfig does not load the agents' code.
  const entries = [];
  for (const [kind, k] of Object.entries(data)) {
    for (const version of k.versions) entries.push({ kind, version, key: `${kind}/${version}`, schemas: mod.ajvSchemasOf(kind, version) });
  }
  const groupOf = (e) => (Object.keys(e.schemas.defs).length > SHARED_CORE_TYPES ? 'workloads' : e.kind.toLowerCase());
  const groups = new Map();
  for (const e of entries) {
    const g = groupOf(e);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g).push(e);
  }

  const where = {};
  const sizes = {};
  for (const [g, list] of groups) {
    const ajv = mod.newAjv();
    const defs = {};
    const exportsMap = {};
    for (const e of list) {
      for (const [id, def] of Object.entries(e.schemas.defs)) {
        if (id in defs) continue;
        defs[id] = def;
        ajv.addSchema({ ...def, $id: mod.coreUri(id) });
      }
      const name = `v${Object.keys(exportsMap).length}`;
      const id = `https://agentplat.dev/schemas/crd/${e.kind}/${e.version}.json`;
      ajv.addSchema({ ...e.schemas.root, $id: id });
      exportsMap[name] = id;
      where[e.key] = [g, name];
    }
    // One minified script: ajv runs only for documents the schema walker does not accept
    // (src/chart/schema-accepts.ts), which are mostly invalid ones.
    const codeLength = await writeScript(root, join(gen, `crd-validators-${g}.cjs`), standaloneCode(ajv, exportsMap));
    const schemas = JSON.stringify({ defs, roots: Object.fromEntries(list.map((e) => [e.key, e.schemas.root])) });
    writeFileSync(join(gen, `crd-schemas-${g}.json`), schemas);
    sizes[g] = { code: codeLength, schemas: schemas.length, kinds: list.map((e) => e.key) };
  }

  writeFileSync(join(gen, 'crd-validators-index.json'), JSON.stringify(where));
  return { sizes };
}
