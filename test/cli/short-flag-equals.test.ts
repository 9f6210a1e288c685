// Flags read as helm reads them: `-n=x` means the short flag with the value `x`, as commander reads
// `--namespace=x` (issue 23, item 14; before, the namespace was `=x`), and `-f a.yaml,b.yaml` is
// two files (issue 27, item 4; before, "no such file").
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { splitShortFlagEquals } from '../../src/cli/short-flags.ts';
import { splitCsv } from '../../src/cli/options.ts';

async function render(args: string[]) {
  const io = createMemoryIo({});
  const code = await run(['render', '--skip-crds', '--show-only', 'templates/controller-deployment.yaml', ...args], io);
  return { code, out: io.out, err: io.err };
}

describe('short flags written with "="', () => {
  it('-n=x renders into the namespace x, as --namespace=x does', async () => {
    const short = await render(['-n=team-a']);
    const long = await render(['--namespace=team-a']);
    expect(short.code).toBe(0);
    expect(short.out).toContain('namespace: team-a\n');
    expect(short.out).toBe(long.out);
  });

  it('-f=file and -o=json are read the same way', () => {
    const program = new Command();
    program.command('render').option('-f, --values <file>').option('-o, --output <format>').option('-q, --quiet');
    expect(splitShortFlagEquals(['render', '-f=v.yaml', '-o=json', '-q'], program)).toEqual(['render', '-f', 'v.yaml', '-o', 'json', '-q']);
  });

  it('a value that looks like one stays a value: after a flag that takes it, after "--", and for a flag without a value', () => {
    const program = new Command();
    program.command('render').option('-n, --namespace <ns>').option('--set <kv>').option('-q, --quiet');
    expect(splitShortFlagEquals(['render', '--set', '-n=x', '-n', '-n=y', '-q=z', '--', '-n=w'], program)).toEqual(['render', '--set', '-n=x', '-n', '-n=y', '-q=z', '--', '-n=w']);
  });
});

describe('-f takes a comma-separated list, as helm reads it', () => {
  it('-f a.yaml,b.yaml layers both files in order; a quoted name keeps its comma', async () => {
    const { mkdtempSync, writeFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dir = mkdtempSync(join(tmpdir(), 'agentplat-f-list-'));
    writeFileSync(join(dir, 'a.yaml'), 'controller:\n  replicas: 2\n');
    writeFileSync(join(dir, 'b.yaml'), 'controller:\n  replicas: 3\n');
    writeFileSync(join(dir, 'c,d.yaml'), 'controller:\n  replicas: 4\n');
    const show = ['render', '--skip-crds', '--show-only', 'templates/controller-deployment.yaml'];
    for (const [arg, replicas] of [['a.yaml,b.yaml', 3], ['b.yaml,a.yaml', 2], ['a.yaml,"c,d.yaml"', 4]] as const) {
      const io = createMemoryIo({ cwd: dir });
      expect(await run([...show, '-f', arg], io)).toBe(0);
      expect(io.out).toContain(`replicas: ${replicas}\n`);
    }
  });

  it('splitCsv reads one CSV record', () => {
    expect(splitCsv('a,b')).toEqual(['a', 'b']);
    expect(splitCsv('"a,b",c')).toEqual(['a,b', 'c']);
    expect(splitCsv('"say ""hi""",x')).toEqual(['say "hi"', 'x']);
    expect(splitCsv('-')).toEqual(['-']);
    expect(splitCsv('')).toEqual(['']);
  });
});
