// The files the package reads at run time (values/, schemas/, templates/ and dist/generated/),
// by their path in the package folder. The npm package reads them from that folder, the first
// ancestor of the bundle (dist/cli.cjs, dist/api.mjs) or of the sources (src/…) with our
// package.json. The single executable (scripts/build-exe.mjs) has no folder: its entry hands
// usePackageFiles() a reader of the executable's own assets before anything is read.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { runCachedScript, runCachedText } from './code-cache.ts';

let root: string | undefined;

/** Where the files come from when they are not in a package folder (the single executable). */
export interface PackageFiles {
  /** The bytes of the file at `path` (slash-separated, relative to the package folder), or undefined when it holds none. */
  read(path: string): Buffer | undefined;
  /** The name of `path` in messages and stack traces. */
  name(path: string): string;
  /** Where the code cache of the package's scripts goes (undefined: none). */
  cacheDir(): string | undefined;
}

let files: PackageFiles | undefined;

/** Reads every package file through `reader` from now on (the single executable's entry calls it). */
export function usePackageFiles(reader: PackageFiles | undefined): void {
  files = reader;
}

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

/** A file shipped with the package (values/…, schemas/…), as a path on disk: only for messages and in a package folder. */
export function packageFile(...parts: string[]): string {
  return files ? files.name(parts.join('/')) : join(packageRoot(), ...parts);
}

/** The text of a file shipped with the package (values/…, schemas/…). */
export function readPackageFile(...parts: string[]): string {
  if (!files) return readFileSync(join(packageRoot(), ...parts), 'utf8');
  const bytes = files.read(parts.join('/'));
  if (bytes === undefined) throw new Error(`${files.name(parts.join('/'))} is missing from this executable: rebuild it with \`npm run build:exe\``);
  return bytes.toString('utf8');
}

/**
 * The text of a file `npm run build` wrote to dist/generated/ (scripts/build.mjs: the templates'
 * programs, the defaults, the CRDs and validate's data as data files). The package ships them
 * built; a checkout has them after `npm ci` or `npm run build`.
 */
export function readGenerated(name: string): string {
  if (files) return readPackageFile('dist', 'generated', name);
  return readFileSync(generatedFile(name), 'utf8');
}

const scripts = new Map<string, unknown>();

/**
 * The exports of a generated CommonJS script of dist/generated/ (the ajv standalone validators,
 * bundled with the parts of ajv they call: they require nothing), run once per process, like
 * `require`, with V8's code cache (src/code-cache.ts): a validator is a megabyte of code to compile.
 */
export function requireGenerated(name: string): unknown {
  if (!scripts.has(name)) scripts.set(name, runPackageScript(['dist', 'generated', name], name));
  return scripts.get(name);
}

/**
 * The exports of a chunk of the bundle that one command alone loads (dist/chunks/<name>.cjs,
 * scripts/build.mjs: the cluster client for `--cluster`), run once per process with the code cache.
 */
export function requireChunk(name: string): unknown {
  const key = `chunk:${name}`;
  if (!scripts.has(key)) scripts.set(key, runPackageScript(['dist', 'chunks', `${name}.cjs`], `chunk-${name}`));
  return scripts.get(key);
}

function runPackageScript(parts: string[], cacheName: string): unknown {
  if (!files) {
    const file = join(packageRoot(), ...parts);
    if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` in the agentplat folder`);
    return runCachedScript(file, cacheName);
  }
  const path = parts.join('/');
  const bytes = files.read(path);
  if (bytes === undefined) throw new Error(`${files.name(path)} is missing from this executable: rebuild it with \`npm run build:exe\``);
  return runCachedText(files.name(path), bytes, 0, cacheName, files.cacheDir());
}

function generatedFile(name: string): string {
  const file = packageFile('dist', 'generated', name);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` in the agentplat folder`);
  return file;
}
