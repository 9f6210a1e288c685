// Flags that a user reaches for the same way in every command, and answers that do not mislead.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/temp-dir.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';

async function cli(args: string[], cwd?: string) {
  const io = createMemoryIo(cwd ? { cwd } : {});
  const code = await run(args, io);
  return { code, out: io.out, err: io.err };
}

describe('flags and answers', () => {
  it('migrate takes exactly one -f file; a second one is a usage error, not silently dropped', async () => {
    const dir = tempDir('agentplat-mig-');
    writeFileSync(join(dir, 'a.yaml'), 'controller:\n  replicas: 2\n');
    writeFileSync(join(dir, 'b.yaml'), 'ui:\n  replicas: 2\n');
    const r = await cli(['migrate', '--from', 'A', '--to', 'B', '-f', 'a.yaml', '-f', 'b.yaml'], dir);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/exactly one -f file, got 2/);
  });

  it('lint --quiet lists errors only but its summary still counts the warnings (they decide --strict)', async () => {
    const dir = tempDir('agentplat-quiet-');
    writeFileSync(join(dir, 'w.yaml'), 'controller:\n  streaming: "true"\n');
    const r = await cli(['lint', 'w.yaml', '--quiet', '--no-color'], dir);
    expect(r.code).toBe(0);
    expect(r.out).not.toContain('streaming-deprecated');
    expect(r.out).toMatch(/1 file, 0 errors, 1 warning/);
  });

  it('crds accepts -r/--revision like every command (both revisions ship the same CRDs)', async () => {
    const a = await cli(['crds', '-r', 'A']);
    const b = await cli(['crds', '-r', 'B']);
    expect(a.code).toBe(0);
    expect(a.out).toBe(b.out);
    expect((await cli(['crds', '-r', 'C'])).code).toBe(2);
  });

  it('--show-only with a near miss suggests the source it probably means', async () => {
    const r = await cli(['render', '--show-only', 'templates/controller-deploy.yaml']);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/did you mean agentplat\/templates\/controller-deployment\.yaml\?/);
  });

  it('a number given through --set-string gets a hint that names --set', async () => {
    const r = await cli(['lint', '--set-string', 'controller.replicas=2', '--no-color']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/--set, not --set-string/);
  });
});

describe('--version belongs to the program, not to a command', () => {
  it('--version or -V after a command is a usage error that runs nothing and points at --revision', async () => {
    const dir = tempDir('agentplat-version-');
    writeFileSync(join(dir, 'bad.yaml'), 'controller:\n  imagee: x\n');
    for (const args of [
      ['lint', '-f', 'bad.yaml', '--version'],
      ['lint', '-V', '-f', 'bad.yaml'],
      ['validate', 'bad.yaml', '--version'],
      ['migrate', '--version'],
      ['values', '-V'],
    ]) {
      const r = await cli(args, dir);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.out, args.join(' ')).toBe('');
      expect(r.err, args.join(' ')).toMatch(/--version is an option of agentplat itself/);
      expect(r.err, args.join(' ')).toMatch(/hint: --revision picks the chart revision \(A is chart 0\.10\.0, B is chart 0\.11\.0\)/);
    }
  });

  it('render --version 0.11.0 (how helm pins a chart) prints no manifest and names --revision B', async () => {
    const r = await cli(['render', '--version', '0.11.0']);
    expect(r.code).toBe(2);
    expect(r.out).toBe('');
    expect(r.err).toMatch(/hint: chart 0\.11\.0 is --revision B/);
  });

  it('--version before any command still prints the tool version', async () => {
    for (const args of [['--version'], ['-V'], ['-V', 'lint']]) {
      const r = await cli(args);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^\d+\.\d+\.\d+/);
    }
  });

  it('--no-color is accepted before and after the command', async () => {
    expect((await cli(['--no-color', 'version', '-r', 'B'])).code).toBe(0);
    expect((await cli(['version', '-r', 'B', '--no-color'])).code).toBe(0);
  });
});
