// A dependency is used through what it publishes: its package name, the subpaths of its
// `exports` map, or an entry point its documentation names. A file reached past that (ajv's
// `dist/runtime/...`, a package's private `_schemas/`) can move or change in any patch release.
// This scans every import, dynamic import and require of the product's sources and build scripts.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

/**
 * Entry points outside an `exports` map that a package's own documentation tells users to import.
 * Each is written as the documentation writes it.
 */
const DOCUMENTED_ENTRY_POINTS: Record<string, string> = {
  // Standalone validation code: https://ajv.js.org/standalone
  'ajv/dist/standalone': 'https://ajv.js.org/standalone',
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.(ts|mts|cts|mjs|cjs|js)$/.test(e.name) && !e.name.endsWith('.generated.ts') ? [path] : [];
  });
}

/** Every module specifier in a source text: static imports and re-exports, import(), require(). */
function specifiers(text: string): string[] {
  const out: string[] = [];
  const patterns = [/\b(?:import|export)\s[^'";]*?\bfrom\s*['"]([^'"]+)['"]/g, /\bimport\s*['"]([^'"]+)['"]/g, /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, /\brequire\)?\(\s*['"]([^'"]+)['"]\s*\)/g, /\bcreateRequire\([^)]*\)\(\s*['"]([^'"]+)['"]\s*\)/g];
  for (const re of patterns) for (const m of text.matchAll(re)) out.push(m[1]!);
  return out;
}

/** A bare specifier split into its package and the subpath after it (`.` for the package itself). */
function splitSpecifier(spec: string): { pkg: string; subpath: string } {
  const parts = spec.split('/');
  const n = spec.startsWith('@') ? 2 : 1;
  const rest = parts.slice(n).join('/');
  return { pkg: parts.slice(0, n).join('/'), subpath: rest === '' ? '.' : `./${rest}` };
}

/** Whether `subpath` is a key of the exports map, or matches one of its `*` patterns. */
function exported(exportsMap: unknown, subpath: string): boolean {
  if (exportsMap === undefined || exportsMap === null) return subpath === '.';
  if (typeof exportsMap === 'string' || Array.isArray(exportsMap)) return subpath === '.';
  const keys = Object.keys(exportsMap as object);
  // A map of conditions (no key starts with "."): it describes the package root only.
  if (!keys.some((k) => k.startsWith('.'))) return subpath === '.';
  return keys.some((k) => {
    const star = k.indexOf('*');
    if (star < 0) return k === subpath;
    return subpath.startsWith(k.slice(0, star)) && subpath.endsWith(k.slice(star + 1)) && subpath.length >= k.length - 1;
  });
}

/** Why a specifier reaches past a package's public surface, or undefined when it does not. */
function privateImport(spec: string, readManifest: (pkg: string) => { exports?: unknown }): string | undefined {
  if (spec.startsWith('.') || spec.startsWith('/') || spec.startsWith('node:') || spec.startsWith('data:')) return undefined;
  const { pkg, subpath } = splitSpecifier(spec);
  if (subpath === '.' || DOCUMENTED_ENTRY_POINTS[spec] !== undefined) return undefined;
  if (exported(readManifest(pkg).exports, subpath)) return undefined;
  return `${spec}: ${pkg} does not export ${subpath}`;
}

const manifests = new Map<string, { exports?: unknown }>();
function installedManifest(pkg: string): { exports?: unknown } {
  let m = manifests.get(pkg);
  if (!m) {
    m = JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { exports?: unknown };
    manifests.set(pkg, m);
  }
  return m;
}

/** Paths into a package's folder under node_modules, which bypass its exports altogether. */
function packageFolderPaths(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/node_modules(?:['"]\s*,\s*['"]|\/)([^.'"\s/][^'"\s]*)/g)) out.push(m[1]!);
  return out;
}

describe('dependencies are used through their public entry points', () => {
  it('no file of src/ or scripts/ imports a file a dependency does not export', () => {
    const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'scripts'))];
    const found = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .map((spec) => privateImport(spec, installedManifest))
        .filter((why): why is string => why !== undefined)
        .map((why) => `${relative(ROOT, file)}: ${why}`),
    );
    expect(found).toEqual([]);
  });

  it('no file of src/ or scripts/ reads a package file by its path under node_modules', () => {
    const files = [...sourceFiles(join(ROOT, 'src')), ...sourceFiles(join(ROOT, 'scripts'))];
    const found = files.flatMap((file) => packageFolderPaths(readFileSync(file, 'utf8')).map((p) => `${relative(ROOT, file)}: node_modules/${p}`));
    expect(found).toEqual([]);
    expect(packageFolderPaths("join(root, 'node_modules', 'kubernetes-models/_schemas') + 'node_modules/ajv/dist/x.js'")).toEqual(['kubernetes-models/_schemas', 'ajv/dist/x.js']);
    expect(packageFolderPaths("join(root, 'node_modules', '.cache', 'agentplat')")).toEqual([]);
  });

  it('the scan sees every way a file is imported, and refuses a private file of a package with or without exports', () => {
    const text = [
      "import equal from 'ajv/dist/runtime/equal.js';",
      "import { fullFormats } from 'ajv-formats/dist/formats.js';",
      "export { x } from 'kubernetes-models/_schemas/IoK8sApiCoreV1EnvVar';",
      "const m = await import('@marcbachmann/cel-js/lib/parser.js');",
      "const r = require('yaml/dist/compose/composer.js');",
      "const s = createRequire(import.meta.url)('ajv/dist/compile/index');",
    ].join('\n');
    const found = specifiers(text).map((spec) => privateImport(spec, installedManifest));
    expect(found.every((why) => why !== undefined)).toBe(true);
    expect(found).toHaveLength(6);
  });

  it('package names, exported subpaths and documented entry points pass', () => {
    const allowed = ['ajv', '@marcbachmann/cel-js', '@marcbachmann/cel-js/evaluator', 'kubernetes-models/v1/EnvVar', 'vitest/config', 'ajv/dist/standalone', 'node:fs', './local.ts'];
    expect(allowed.map((spec) => privateImport(spec, installedManifest))).toEqual(allowed.map(() => undefined));
  });
});
