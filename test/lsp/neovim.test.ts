// `agentplat lsp` in a real editor: Neovim from the distribution's packages, headless, with the
// script test/lsp/neovim.lua as the user (issue 38's done-when): diagnostics at their positions,
// hover, completion under `controller.`, and the did-you-mean applied by Neovim taking its
// diagnostic away. Slow tier (a Neovim process and a server); skipped where no `nvim` is installed.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, HANG_GUARD_MS } from '../cli/binary.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { toolMissing } from '../helpers/real-tool.ts';

const nvim = spawnSync('nvim', ['--version'], { encoding: 'utf8' });
const hasNvim = nvim.status === 0 || !toolMissing('test/lsp/neovim.test.ts', 'no nvim on PATH (apt-get install -y neovim)');

beforeAll(() => ensureBuilt());

describe.skipIf(!hasNvim)('agentplat lsp in Neovim (headless)', () => {
  it('a values file with a typo, a cross-field finding and a key with no effect; hover; completion under controller.; the did-you-mean applied', () => {
    const dir = tempDir('agentplat-nvim-');
    // The typo a warning, so that the release renders and lint judges what has no effect.
    writeFileSync(join(dir, '.agentplat.yaml'), 'rules:\n  values/unknown-key: warn\n');
    const values = join(dir, 'values.yaml');
    writeFileSync(values, 'controller:\n  replicass: 2\n  pdb:\n    enabled: true\n    maxUnavailable: null\n    minAvailable: 1\n');
    const out = join(dir, 'out.json');
    const r = spawnSync('nvim', ['--headless', '--clean', '-c', `luafile ${join(import.meta.dirname, 'neovim.lua')}`], {
      cwd: dir,
      encoding: 'utf8',
      timeout: HANG_GUARD_MS,
      env: { ...process.env, LSP_VALUES: values, LSP_NODE: process.execPath, LSP_BIN: BIN, LSP_OUT: out, XDG_CACHE_HOME: tempDir('agentplat-cache-') },
    });
    expect(r.status, r.stderr).toBe(0);
    interface D {
      code: string;
      range: { start: { line: number; character: number } };
    }
    const got = JSON.parse(readFileSync(out, 'utf8')) as { first: D[]; after: D[]; hover: { contents: { value: string } }; completion: { label: string }[]; applied: string; text: string };
    const where = (ds: D[]) => ds.map((d) => [d.code, d.range.start.line + 1, d.range.start.character + 1]).sort();
    expect(where(got.first)).toEqual([
      ['values/no-effect', 5, 5],
      ['values/pdb-blocks-eviction', 6, 5],
      ['values/unknown-key', 2, 3],
    ]);
    expect(got.hover.contents.value).toContain('**controller.pdb.enabled** `bool`');
    expect(got.completion.map((c) => c.label)).toContain('image');
    expect(got.applied).toBe('Change to `replicas`');
    expect(got.text).toBe('controller:\n  replicas: 2\n  pdb:\n    enabled: true\n    maxUnavailable: null\n    minAvailable: 1');
    expect(got.after.map((d) => d.code)).not.toContain('values/unknown-key');
  });
});
