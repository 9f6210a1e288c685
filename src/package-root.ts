// Locates the agentplat package folder (where values/, schemas/ and templates/ live), both from
// the sources (src/…) and from the bundles (dist/cli.cjs, dist/api.mjs): the first ancestor with our
// package.json.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCachedScript } from './code-cache.ts';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = import.meta.dirname;
  for (;;) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'agentplat') return (root = dir);
      } catch {
        // keep walking up
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error('cannot locate the agentplat package folder');
    dir = up;
  }
}

/** A file shipped with the package (values/…, schemas/…). */
export function packageFile(...parts: string[]): string {
  return join(packageRoot(), ...parts);
}

/**
 * The text of a file `npm run build` wrote to dist/generated/ (scripts/build.mjs: the templates'
 * programs, the defaults, the CRDs and validate's data as data files). The package ships them
 * built; a checkout has them after `npm ci` or `npm run build`.
 */
export function readGenerated(name: string): string {
  return readFileSync(generatedFile(name), 'utf8');
}

const scripts = new Map<string, unknown>();

/**
 * The exports of a generated CommonJS script of dist/generated/ (the ajv standalone validators),
 * run once per process, like `require`, with V8's code cache (src/code-cache.ts): a validator is
 * a megabyte of code to compile.
 */
export function requireGenerated(name: string): unknown {
  if (!scripts.has(name)) scripts.set(name, runCachedScript(generatedFile(name), name));
  return scripts.get(name);
}

function generatedFile(name: string): string {
  const file = packageFile('dist', 'generated', name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` in the agentplat folder`);
  return file;
}
