// Builds a Dockerfile's image without Docker, as far as that can be done: each instruction is
// carried out on a folder that stands for the image's file system, RUN steps run with bash, and
// npm's global prefix stands for the image's /usr/local. An instruction this does not know fails
// the build, so a Dockerfile cannot grow steps that its test skips.
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { sourcePattern } from '../../src/render/manifests.ts';
import { dirname, join } from 'node:path';
import { expect } from 'vitest';
import { installWith, sh, stepEnv } from '../helpers/pack.ts';
import { tempDir } from '../helpers/temp-dir.ts';

export interface BuiltImage {
  /** The folder standing for the image's `/`. */
  root: string;
  /** npm's global prefix in the build (the image's /usr/local): `bin/agentplat` is there. */
  prefix: string;
  from: string;
  user: string | undefined;
  args: Record<string, string>;
}

/** Instructions of a Dockerfile, continuation lines joined and comments dropped. */
export function instructions(dockerfile: string): { op: string; rest: string }[] {
  const joined = dockerfile.replace(/\\\n/g, ' ');
  return joined
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const m = /^(\S+)\s+(.*)$/.exec(l);
      if (!m) throw new Error(`not a Dockerfile instruction: ${l}`);
      return { op: m[1]!.toUpperCase(), rest: m[2]! };
    });
}

export async function buildImage(dockerfile: string, context: string): Promise<BuiltImage> {
  const root = tempDir('agentplat-image-');
  const prefix = tempDir('agentplat-image-prefix-');
  const args: Record<string, string> = {};
  let from = '';
  let user: string | undefined;
  let workdir = '/';
  const expand = (text: string) => text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a: string | undefined, b: string | undefined) => args[(a ?? b)!] ?? '');
  const inImage = (path: string) => join(root, path.startsWith('/') ? path : join(workdir, path));
  for (const { op, rest } of instructions(dockerfile)) {
    if (op === 'FROM') from = rest;
    else if (op === 'ARG') {
      const [name, value] = rest.split('=', 2) as [string, string | undefined];
      args[name] = value ?? '';
    } else if (op === 'WORKDIR') {
      workdir = expand(rest).startsWith('/') ? expand(rest) : join(workdir, expand(rest));
      mkdirSync(join(root, workdir), { recursive: true });
    } else if (op === 'COPY') {
      const [src, dest] = expand(rest).split(/\s+/) as [string, string];
      const target = dest.endsWith('/') ? join(inImage(dest), src.split('/').at(-1)!) : inImage(dest);
      mkdirSync(dirname(target), { recursive: true });
      copyFileSync(join(context, src), target);
    } else if (op === 'RUN') {
      const command = expand(rest);
      const cwd = join(root, workdir);
      if (/\bnpm install\b/.test(command)) await installWith(command, cwd, prefix);
      else {
        const r = sh('bash', command, cwd, stepEnv(prefix));
        expect(r.code, `${command}\n${r.stderr}`).toBe(0);
      }
    } else if (op === 'USER') user = rest;
    else throw new Error(`the image test does not carry out ${op}; teach test/recipes/image.ts what it means first`);
  }
  return { root, prefix, from, user, args };
}

export function readInImage(image: BuiltImage, path: string): string {
  return readFileSync(join(image.root, path), 'utf8');
}

/**
 * Whether Docker sends a path (relative to the context, `/`-separated) under this .dockerignore:
 * the last pattern that matches the path or a folder above it decides, `!` lets it through again;
 * patterns are Go filepath.Match patterns, as Docker's. `**` is refused: teach it here first.
 */
export function dockerignore(text: string): { sends(path: string): boolean; mayReachInto(dir: string): boolean } {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const exception = l.startsWith('!');
      const pattern = (exception ? l.slice(1) : l).trim().replace(/^\/+/, '');
      if (pattern.includes('**')) throw new Error(`.dockerignore: ${pattern}: ** is not carried out by this test`);
      const re = sourcePattern(pattern);
      if (!re) throw new Error(`.dockerignore: ${pattern} is not a valid pattern`);
      return { exception, pattern, re };
    });
  const prefixes = (path: string) => path.split('/').map((_, i, parts) => parts.slice(0, i + 1).join('/'));
  const sends = (path: string) => {
    let sent = true;
    for (const r of rules) if (prefixes(path).some((p) => r.re.test(p))) sent = r.exception;
    return sent;
  };
  // A folder that is left out can still hold a file an exception names deeper down.
  const mayReachInto = (dir: string) =>
    sends(dir) ||
    rules.some((r) => {
      if (!r.exception) return false;
      const parts = r.pattern.split('/');
      const dirParts = dir.split('/');
      return parts.length > dirParts.length && dirParts.every((d, i) => sourcePattern(parts[i]!)!.test(d));
    });
  return { sends, mayReachInto };
}

/** The files of `root` Docker sends as the build context under `ignore`, relative and sorted. */
export function contextFiles(root: string, ignore: ReturnType<typeof dockerignore>): string[] {
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const e of readdirSync(rel === '' ? root : join(root, rel), { withFileTypes: true })) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (ignore.mayReachInto(path)) walk(path);
      } else if (ignore.sends(path)) out.push(path);
    }
  };
  walk('');
  return out.sort();
}
