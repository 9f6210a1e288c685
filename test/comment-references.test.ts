// A comment that sends the reader to another file (the test that pins a rule, the script that
// writes a table) is only useful while that file exists: every repository path a comment of the
// sources, scripts, benchmarks or templates names must be a file of the repository.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return files(path);
    return /\.(ts|mjs|cjs|js|hbs)$/.test(e.name) && !e.name.endsWith('.generated.ts') ? [path] : [];
  });
}

/** Comment lines: `//`, a block comment's lines, and a template's `#` lines. */
const COMMENT = /^\s*(\/\/|\/?\*|#)/;
/**
 * A repository path: a top folder, then a file with a known suffix, not part of a longer path
 * (`agentplat/templates/x.yaml` is an output path, not a file here). A template is named by its
 * `.hbs` file.
 */
const PATH = /(?<![\w./-])((?:test|scripts|bench|docs|fixtures|src)\/[\w./-]+\.(?:ts|mjs|cjs|js|md|json|yaml)|templates\/[\w./-]+\.hbs)\b/g;

/** Paths a text's comments name that do not exist under `root`. */
function missingReferences(text: string, root: string): string[] {
  return text
    .split('\n')
    .filter((line) => COMMENT.test(line))
    .flatMap((line) => [...line.matchAll(PATH)].map((m) => m[1]!))
    .filter((p) => !existsSync(join(root, p)));
}

describe('comments name files that exist', () => {
  it('every repository file a comment of src/, scripts/, bench/ or templates/ names exists', () => {
    const sources = ['src', 'scripts', 'bench', 'templates'].flatMap((d) => files(join(ROOT, d)));
    const found = sources.flatMap((file) => missingReferences(readFileSync(file, 'utf8'), ROOT).map((p) => `${relative(ROOT, file)}: ${p}`));
    expect(found).toEqual([]);
  });

  it('a comment naming a file that is not there is found; output paths and code are not comments', () => {
    const text = [
      '// test/security/surfaces.test.ts compares the two',
      ' * see scripts/no-such-script.mjs',
      '// the render of agentplat/templates/controller-deployment.yaml',
      "import x from '../../docs/values-reference.ts';",
      '// test/security/weakening.test.ts pins it',
    ].join('\n');
    expect(missingReferences(text, ROOT)).toEqual(['test/security/surfaces.test.ts', 'scripts/no-such-script.mjs']);
  });
});
