// A run registers only the command its command line names (src/cli/program.ts createProgram):
// that command must be the same one, with the same options, help and behaviour, as in the
// program with every command, and a command line naming no command still sees them all.
import { describe, expect, it } from 'vitest';
import { createMemoryIo } from '../../src/cli/io.ts';
import { COMMANDS } from '../../src/cli/commands/index.ts';
import { createProgram } from '../../src/cli/program.ts';
import { runInProcess } from './in-process.ts';

const app = () => ({ io: createMemoryIo(), exitCode: 0 });
const NAMES = COMMANDS.flatMap((c) => c.names);

describe('a run builds only the command it runs', () => {
  it.each(NAMES)('%s: the same command, options and help as in the whole program', (name) => {
    const whole = createProgram(app()).commands.find((c) => c.name() === name)!;
    const alone = createProgram(app(), ['--no-color', name, '--help']).commands.find((c) => c.name() === name)!;
    expect(alone).toBeDefined();
    expect(alone.helpInformation()).toBe(whole.helpInformation());
    expect(alone.options.map((o) => [o.flags, o.description, o.defaultValue, o.hidden])).toEqual(whole.options.map((o) => [o.flags, o.description, o.defaultValue, o.hidden]));
  });

  it('one command is built for a command line that names one, all of them for shell completion', () => {
    expect(createProgram(app(), ['render', '-f', 'values.yaml']).commands.map((c) => c.name())).toEqual(['render']);
    const all = createProgram(app()).commands.map((c) => c.name());
    expect(createProgram(app(), ['complete', '--', 'ren']).commands.map((c) => c.name())).toEqual(all);
    expect(createProgram(app(), ['--', 'render']).commands.map((c) => c.name())).toEqual(all);
    expect(createProgram(app(), ['--no-color']).commands.map((c) => c.name())).toEqual(all);
  });

  it('a command line naming no command lists every command and suggests the nearest name', async () => {
    const help = await runInProcess(['--help']);
    for (const name of NAMES.filter((n) => n !== 'complete')) expect(help.stdout).toContain(`  ${name}`);
    const typo = await runInProcess(['rendr']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('(Did you mean render?)');
  });
});
