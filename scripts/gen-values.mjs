// Runs scripts/gen-values.ts on Node 20 (no TypeScript stripping there): esbuild bundles it to a
// temporary module inside node_modules/.cache, so its package imports still resolve.
import { build } from 'esbuild';
import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'node_modules', '.cache', 'agentplat-gen-values');
const outfile = join(outDir, `gen-values-${process.pid}.mjs`);
mkdirSync(outDir, { recursive: true });
await build({
  entryPoints: [join(root, 'scripts', 'gen-values.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  packages: 'external',
  logLevel: 'warning',
});
try {
  const mod = await import(pathToFileURL(outfile).href);
  mod.main(root);
} finally {
  rmSync(outfile, { force: true });
}
