// Builds a Dockerfile's image without Docker, as far as that can be done: each instruction is
// carried out on a folder that stands for the image's file system, RUN steps run with bash, and
// npm's global prefix stands for the image's /usr/local. An instruction this does not know fails
// the build, so a Dockerfile cannot grow steps that its test skips.
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
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
