// Locates the agentplat package folder (where values/, schemas/ and templates/ live), both from
// the sources (src/…) and from the bundle (dist/agentplat.mjs): the first ancestor with our
// package.json.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
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
