// When text output is colored: on a terminal by default, never under FORCE_COLOR=0 or
// FORCE_COLOR=false (the common way to turn colors off, which a terminal must not override), never
// under NO_COLOR or --no-color, and in a pipe only when FORCE_COLOR asks for it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { colorsOn, createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[/;

/** `agentplat lint -f typo.yaml` with stdout a terminal and the environment `env`; its stdout. */
async function lintOnTerminal(env: Record<string, string>, extra: string[] = []): Promise<string> {
  const cwd = mkdtempSync(join(tmpdir(), 'agentplat-color-'));
  dirs.push(cwd);
  writeFileSync(join(cwd, 'typo.yaml'), 'controller:\n  replcas: 2\n');
  const io = createMemoryIo({ cwd, env });
  io.tty = { stdout: true, stderr: true };
  await run(['lint', '-f', 'typo.yaml', ...extra], io);
  expect(io.out).toContain('replcas');
  return io.out;
}

describe('colors on a terminal', () => {
  it('are on by default', async () => {
    expect(await lintOnTerminal({})).toMatch(ANSI);
  });

  it.each(['0', 'false', 'FALSE'])('are off under FORCE_COLOR=%s', async (value) => {
    expect(await lintOnTerminal({ FORCE_COLOR: value })).not.toMatch(ANSI);
  });

  it('are off under NO_COLOR and --no-color, whatever FORCE_COLOR says', async () => {
    expect(await lintOnTerminal({ NO_COLOR: '1' })).not.toMatch(ANSI);
    expect(await lintOnTerminal({ FORCE_COLOR: '1' }, ['--no-color'])).not.toMatch(ANSI);
  });
});

describe('the choice, given the environment and whether the stream is a terminal', () => {
  it('a pipe is plain unless FORCE_COLOR is set to something other than 0 or false', () => {
    expect(colorsOn({}, false)).toBe(false);
    expect(colorsOn({ FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colorsOn({ FORCE_COLOR: '' }, false)).toBe(true);
    expect(colorsOn({ FORCE_COLOR: 'true' }, false)).toBe(true);
    expect(colorsOn({ FORCE_COLOR: '0' }, false)).toBe(false);
    expect(colorsOn({ FORCE_COLOR: 'false' }, false)).toBe(false);
  });

  it('a terminal is colored unless FORCE_COLOR is 0 or false, or NO_COLOR is set', () => {
    expect(colorsOn({}, true)).toBe(true);
    expect(colorsOn({ FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colorsOn({ FORCE_COLOR: 'false' }, true)).toBe(false);
    expect(colorsOn({ NO_COLOR: '1', FORCE_COLOR: '1' }, true)).toBe(false);
    expect(colorsOn({ NO_COLOR: '' }, true)).toBe(true);
  });
});
