// A run whose first word names a command registers only that command (src/cli/program.ts): the
// other commands' set-up is start-up time the run never uses. What each command does and says
// must not depend on whether the others are there.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/commands/index.ts';
import { createMemoryIo } from '../../src/cli/io.ts';
import { createProgram } from '../../src/cli/program.ts';

const app = () => ({ io: createMemoryIo(), exitCode: 0 });
const helpOf = (program: Command, name: string) => program.commands.find((c) => c.name() === name)!.helpInformation();

describe('registering only the command a run names', () => {
  it('each key of COMMANDS is the name of the command its function registers', () => {
    for (const [name, register] of Object.entries(COMMANDS)) {
      const program = new Command('agentplat');
      register(program, app());
      expect(program.commands[0]!.name()).toBe(name);
    }
  });

  it('a first word that names a command registers that command alone, with the help and options it has among all of them', () => {
    const all = createProgram(app());
    expect(all.commands.map((c) => c.name())).toEqual(expect.arrayContaining(Object.keys(COMMANDS)));
    for (const name of Object.keys(COMMANDS)) {
      const one = createProgram(app(), name);
      expect(one.commands.map((c) => c.name()).filter((n) => n !== 'complete')).toEqual([name]);
      expect(helpOf(one, name), name).toBe(helpOf(all, name));
    }
  });

  it('any other first word (an option, help, a typo, the hidden complete, nothing) registers every command', () => {
    const names = createProgram(app()).commands.map((c) => c.name());
    for (const word of ['--help', '-V', 'help', 'rendr', 'complete', '', 'toString', '__proto__']) {
      expect(createProgram(app(), word).commands.map((c) => c.name()), word).toEqual(names);
    }
  });
});
