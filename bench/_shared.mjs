// What the bench scripts share: the median, the inputs they write, and esbuild's options for a bundle built from the
// sources the way scripts/build.mjs bundles the CLI (ESM for Node 20, dependencies bundled).
import { build } from 'esbuild';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Bundles `options` (entry points or stdin, outdir or outfile, plugins…) like the CLI. */
export function bundleLikeTheCli(options) {
  return build({
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    minifySyntax: true,
    banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
    logLevel: 'warning',
    ...options,
  });
}

/** 200 custom resources in `dir`, one file each: the fixtures' documents under new names. */
export function writeResources(root, dir, count = 200) {
  mkdirSync(dir);
  const docs = readdirSync(join(root, 'fixtures', 'resources'))
    .sort()
    .flatMap((f) => readFileSync(join(root, 'fixtures', 'resources', f), 'utf8').split(/^---$/m))
    .filter((d) => /^kind:/m.test(d));
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `r${String(i).padStart(3, '0')}.yaml`), docs[i % docs.length].replace(/^( {2}name: )(\S+)/m, `$1$2-${i}`));
  return dir;
}

/** 500 values files in `dir`: the lint fixtures, varied. */
export function writeValuesFiles(root, dir, count = 500) {
  mkdirSync(dir);
  const fixtures = readdirSync(join(root, 'fixtures', 'lint'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => readFileSync(join(root, 'fixtures', 'lint', f), 'utf8'));
  for (let i = 0; i < count; i++) writeFileSync(join(dir, `v${String(i).padStart(3, '0')}.yaml`), `${fixtures[i % fixtures.length]}\n# copy ${i}\n`);
  return dir;
}
