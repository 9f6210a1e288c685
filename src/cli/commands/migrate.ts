// `agentplat migrate`: values of one revision → the next, on stdout; the report on stderr.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../../errors.ts';
import { collect, revisionOption } from '../options.ts';

export function register(program: Command, app: App): void {
  program
    .command('migrate')
    .description('rewrite a values file for a newer chart revision, keeping comments and key order')
    .requiredOption('-f, --values <file>', 'the values file to migrate (- reads stdin); one file per run', collect, [])
    .option('--from <A|B>', 'revision the file was written for', 'A')
    .option('--to <A|B>', 'revision to migrate to', 'B')
    .addHelpText(
      'after',
      '\nExample:\n  agentplat migrate -f values-a.yaml --from A --to B > values-b.yaml\n' +
        'The migrated file goes to stdout, one report line per change to stderr (`path: what — why`).\n' +
        'Exit codes: 0 migrated and lints clean; 1 a decision is left to you (see the report); 2 usage error.',
    )
    .action(async (opts: { values: string[]; from: string; to: string }) => {
      if (opts.values.length !== 1) throw new UsageError(`migrate takes exactly one -f file, got ${opts.values.length}`, 'run it once per file: comments and key order are kept per file');
      const { migrateValues, migrationReport, supportedMigrations } = await import('../../migrate/migrate.ts');
      const { readUserFile } = await import('../../values/load.ts');
      const from = revisionOption(opts.from);
      const to = revisionOption(opts.to);
      if (!supportedMigrations().includes(`${from}→${to}`)) {
        throw new UsageError(`cannot migrate from revision ${from} to ${to}`, `supported: ${supportedMigrations().map((m) => `--from ${m[0]} --to ${m[2]}`).join(', ')}`);
      }
      const { lintSettings } = await import('../lint-settings.ts');
      const { rules } = lintSettings(app.io.cwd, {});
      const { name, text } = await readUserFile(opts.values[0]!, app.io);
      const result = migrateValues(text, name, from, to, rules);
      if (result.text !== undefined) app.io.stdout(result.text);
      app.io.stderr(migrationReport(result, to));
      app.exitCode = result.decisionsLeft ? EXIT_PROBLEMS : EXIT_OK;
    });
}
