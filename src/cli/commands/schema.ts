// PLACEHOLDER: `agentplat schema` is being written.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { UsageError } from '../../errors.ts';

export function register(program: Command, _app: App): void {
  program
    .command('schema')
    .description('(not implemented yet)')
    .allowUnknownOption()
    .action(() => {
      throw new UsageError('`agentplat schema` is not implemented yet');
    });
}
