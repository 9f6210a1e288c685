// `agentplat migrate`: values of one revision → the next, on stdout; the report on stderr.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../../problems/errors.ts';
import { chalkFor } from '../io.ts';
import { collect, optionWithDefault, revisionFlag, revisionOption } from '../options.ts';
import type { Revision } from '../../spec/revisions.ts';

export function register(program: Command, app: App): void {
  program
    .command('migrate')
    .description('rewrite a values file for a newer chart revision, keeping comments and key order')
    .requiredOption('-f, --values <file>', 'the values file to migrate (- reads stdin); one file per run', collect, [])
    .addOption(optionWithDefault('--from <A|B>', 'revision the file was written for', 'A'))
    .addOption(revisionFlag('chart revision to migrate to'))
    .option('--to <A|B>', 'the same as --revision')
    .addHelpText(
      'after',
      '\nExample:\n  agentplat migrate -f values-a.yaml --from A -r B > values-b.yaml\n' +
        'The migrated file goes to stdout, one report line per change to stderr (`path: what — why`).\n' +
        'A file that is not valid values YAML is reported as lint reports it, and nothing is printed.\n' +
        'Exit codes: 0 migrated and lints clean; 1 a decision is left to you (see the report); 2 usage error.',
    )
    .action(async (opts: { values: string[]; from?: string; revision?: string; to?: string }) => {
      if (opts.values.length !== 1) throw new UsageError(`migrate takes exactly one -f file, got ${opts.values.length}`, 'run it once per file: comments and key order are kept per file');
      const { migrateValues, migrationReport, supportedMigrations } = await import('../../pipeline/migrate.ts');
      const { readUserFile } = await import('../../values/load.ts');
      const from = revisionOption(opts.from ?? 'A', '--from');
      const to = targetRevision(opts);
      if (!supportedMigrations().includes(`${from}→${to}`)) {
        throw new UsageError(`cannot migrate from revision ${from} to ${to}`, `supported: ${supportedMigrations().map((m) => `--from ${m[0]} --revision ${m[2]}`).join(', ')}`);
      }
      const { lintSettings } = await import('../lint-settings.ts');
      const { rules } = lintSettings(app.io.cwd, {});
      const { name, text } = await readUserFile(opts.values[0]!, app.io);
      // The migrated file is linted, provider config included: load the ModelConfig check.
      await (await import('../../lint/crd-check.ts')).loadCrdCheck();
      const result = migrateValues(text, name, from, to, rules);
      if (result.text === undefined) {
        // The input itself is broken: the same report lint gives for it, and nothing on stdout.
        const { formatProblems } = await import('../../lint/formatters/index.ts');
        app.io.stderr(formatProblems(result.problems, { format: 'text', chalk: chalkFor(app.io, 'stderr'), revision: from, inputs: [name] }));
        app.exitCode = EXIT_PROBLEMS;
        return;
      }
      app.io.stdout(result.text);
      app.io.stderr(migrationReport(result, to));
      app.exitCode = result.decisionsLeft ? EXIT_PROBLEMS : EXIT_OK;
    });
}

/** --revision, or its synonym --to; naming two different revisions is a usage error. */
function targetRevision(opts: { revision?: string; to?: string }): Revision {
  const revision = opts.revision !== undefined ? revisionOption(opts.revision, '--revision') : undefined;
  const to = opts.to !== undefined ? revisionOption(opts.to, '--to') : undefined;
  if (revision && to && revision !== to) throw new UsageError(`--revision ${revision} and --to ${to} name different revisions`, '--to is the same as --revision: give one of them');
  return revision ?? to ?? 'B';
}
