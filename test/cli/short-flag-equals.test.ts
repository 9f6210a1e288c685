// `-n=x` means the short flag with the value `x`, as helm reads it and as commander reads
// `--namespace=x` (issue 23, item 14); before, the namespace was `=x`.
import { describe, expect, it } from 'vitest';
import { Command } from 'commander';
import { createMemoryIo } from '../../src/cli/io.ts';
import { run } from '../../src/cli/program.ts';
import { splitShortFlagEquals } from '../../src/cli/short-flags.ts';

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
