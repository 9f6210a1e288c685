// What the bench scripts share: the median, and esbuild's options for a bundle built from the
// sources the way scripts/build.mjs bundles the CLI (ESM for Node 20, dependencies bundled).
import { build } from 'esbuild';

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
