// `.agentplat.yaml` `ignoreKeys` (issue 23, item 19): keys that hold YAML anchors (`x-common:
// &defaults …`) are not the chart's; helm ignores them, and agentplat does not report them as
// unknown keys when a pattern names them, while every other unknown key is still reported.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { keyIgnored, parseConfig } from '../../src/lint/config.ts';
import { UsageError } from '../../src/problems/errors.ts';

const VALUES = [
  'x-labels: &labels',
  '  team: ml',
  'controller:',
  '  x-local: &replicas 2',
  '  replicas: *replicas',
  '  podLabels: *labels',
  '  replcas: 3',
  '',
].join('\n');

async function inDir(config: string | undefined, args: string[]) {
  const dir = tempDir('agentplat-ignore-keys-');
  if (config !== undefined) writeFileSync(join(dir, '.agentplat.yaml'), config);
  writeFileSync(join(dir, 'values.yaml'), VALUES);
  const io = createMemoryIo({ cwd: dir });
  const code = await run(args, io);
  return { code, out: io.out, err: io.err };
}

describe('ignoreKeys', () => {
  it('without it, anchor holders are unknown keys', async () => {
    const r = await inDir(undefined, ['lint', '-f', 'values.yaml']);
    expect(r.out).toContain('unknown key `x-labels`');
    expect(r.out).toContain('unknown key `controller.x-local`');
  });

  it('an unknown key whose anchor an alias repeats gets the ignoreKeys line to add, with its path', async () => {
    const r = await inDir(undefined, ['lint', '-f', 'values.yaml']);
    expect(r.out).toContain(
      "hint: `x-labels` holds the anchor &labels that an alias repeats; the chart does not read it: to keep it, add the line `ignoreKeys: ['x-labels']` to .agentplat.yaml (or 'x-labels' to its ignoreKeys list)",
    );
    expect(r.out).toContain("hint: `x-local` holds the anchor &replicas that an alias repeats; the chart does not read it: to keep it, add the line `ignoreKeys: ['controller.x-local']`");
    // The typo beside them keeps its did-you-mean alone.
    expect(r.out).toMatch(/unknown key `controller\.replcas` in revision B {2}\[values\/unknown-key\]\n {2}hint: did you mean `replicas`\?\n/);
  });

  it('the line it gives, added to .agentplat.yaml, silences that key', async () => {
    const r = await inDir("ignoreKeys: ['x-labels']\n", ['lint', '-f', 'values.yaml']);
    expect(r.out).not.toContain('`x-labels`');
    expect(r.out).toContain('unknown key `controller.x-local`');
  });

  it('a merge key (<<: *defaults) counts as an alias, and any key name holds an anchor', async () => {
    const dir = tempDir('agentplat-ignore-keys-');
    writeFileSync(join(dir, 'values.yaml'), 'defaults: &d\n  team: ml\nui:\n  podLabels:\n    <<: *d\n    tier: web\n');
    const io = createMemoryIo({ cwd: dir });
    await run(['lint', '-f', 'values.yaml'], io);
    expect(io.out).toContain("hint: `defaults` holds the anchor &d that an alias repeats; the chart does not read it: to keep it, add the line `ignoreKeys: ['defaults']`");
  });

  it('an x- key without an anchor, and an anchored key nothing repeats yet, get the line too', async () => {
    const dir = tempDir('agentplat-ignore-keys-');
    writeFileSync(join(dir, 'values.yaml'), 'x-note: remember\ncontroller:\n  replcas: &r 3\n');
    const io = createMemoryIo({ cwd: dir });
    await run(['lint', '-f', 'values.yaml'], io);
    expect(io.out).toContain("hint: a key named `x-…` is by custom an anchor holder or a note, which the chart does not read: to keep it, add the line `ignoreKeys: ['x-note']`");
    expect(io.out).toContain(
      "hint: did you mean `replicas`? If `replcas` only holds the anchor &r (no alias repeats it yet), add the line `ignoreKeys: ['controller.replcas']` to .agentplat.yaml",
    );
  });

  it('a key set with --set gets no anchor hint', async () => {
    const r = await inDir(undefined, ['lint', '--set', 'x-flag=1']);
    expect(r.out).toContain('unknown key `x-flag`');
    expect(r.out).not.toContain('ignoreKeys');
  });

  it("ignoreKeys: ['x-*', 'controller.x-*'] drops those, keeps the typo, and lint and render agree", async () => {
    const config = "ignoreKeys: ['x-*', 'controller.x-*']\n";
    const lint = await inDir(config, ['lint', '-f', 'values.yaml']);
    expect(lint.code).toBe(1);
    expect(lint.out).not.toContain('x-labels');
    expect(lint.out).not.toContain('x-local');
    expect(lint.out).toContain('unknown key `controller.replcas`');
    const render = await inDir(config, ['render', '-f', 'values.yaml', '--set', 'controller.replcas=null']);
    expect(render.err).not.toContain('x-labels');
    expect(render.err).toContain('controller.replcas');
  });

  it('a file without the typo renders with the anchored values', async () => {
    const dir = tempDir('agentplat-ignore-keys-');
    writeFileSync(join(dir, '.agentplat.yaml'), "ignoreKeys: ['x-*']\n");
    writeFileSync(join(dir, 'values.yaml'), 'x-labels: &labels\n  team: ml\ncontroller:\n  podLabels: *labels\n');
    const io = createMemoryIo({ cwd: dir });
    expect(await run(['render', '-f', 'values.yaml', '--skip-crds', '--show-only', 'templates/controller-deployment.yaml'], io)).toBe(0);
    expect(io.out).toContain('team: ml');
  });

  it('patterns match key by key: * for any characters, a dotted path for a nested key', () => {
    expect(keyIgnored(['x-*'], 'x-common')).toBe(true);
    expect(keyIgnored(['x-*'], 'controller.x-common')).toBe(false);
    expect(keyIgnored(['controller.x-*'], 'controller.x-common')).toBe(true);
    expect(keyIgnored(['*.x-?'], 'ui.x-a')).toBe(true);
    expect(keyIgnored(['x-*'], 'xcommon')).toBe(false);
  });

  it.each([
    ["ignoreKeys: 'x-*'\n", '`ignoreKeys` must be a list of key patterns'],
    ["ignoreKeys: ['a..b']\n", 'ignoreKeys: "a..b" is empty or has an empty segment'],
    ["ignoreKeys: ['a[0]']\n", 'ignoreKeys: "a[0]" has a list index; patterns name map keys'],
    ['ignoreKeys: [1]\n', 'ignoreKeys: 1 must be a string'],
  ])('%j is refused with a position', (text, message) => {
    expect(() => parseConfig(text, '.agentplat.yaml')).toThrow(UsageError);
    expect(() => parseConfig(text, '.agentplat.yaml')).toThrow(message);
  });
});
