// `agentplat migrate`: values of one revision → the next, on stdout; the report on stderr. The
// flags map to the migrate operation's request (src/pipeline/migrate.ts); this file writes what it returns.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../../problems/errors.ts';
import { chalkFor, writeReport } from '../io.ts';
import { collect, revisionChoice, revisionFlag, revisionOption } from '../options.ts';
import type { Revision } from '../../chart/revisions.ts';

export function register(program: Command, app: App): void {
  program
    .command('migrate')
    .description('rewrite a values file (or a Flux HelmRelease or Argo CD Application: its values and chart version) for a newer chart revision, keeping comments and key order')
    .argument('[file]', 'the values file, HelmRelease or Application to migrate (the same as -f; - reads stdin)')
    .option('-f, --values <file>', 'the values file to migrate (- reads stdin); one file per run', collect, [])
    .option('-i, --in-place', 'write the migrated file back over the file, all at once (on any error it is left as it was); nothing on stdout')
    .addOption(revisionChoice('--from <A|B>', 'revision the file was written for', 'A'))
    .addOption(revisionFlag('chart revision to migrate to', 'B'))
    .addOption(revisionChoice('--to <A|B>', 'the same as --revision'))
    .addHelpText(
      'after',
      '\nExamples:\n  agentplat migrate -f values-a.yaml --from A -r B > values-b.yaml\n' +
        '  agentplat migrate --in-place values.yaml    # rewrite the file itself\n' +
        'The migrated file goes to stdout (with --in-place: back into the file), one report line per\n' +
        'change to stderr (`path: what — why`). A file that is not valid values YAML is reported as lint\n' +
        'reports it, and nothing is printed or written. Never `migrate -f f > f`: the shell empties f first.\n' +
        'A file already written for revision B is left as it is ("already revision B", exit 0), so\n' +
        'migrate -i twice changes nothing the second time; a file that mixes keys of both revisions is\n' +
        'refused (exit 1), each key named at file:line:col.\n' +
        'A file holding a Flux HelmRelease or Argo CD Application of the chart is written back with its\n' +
        'inline values migrated and its chart version moved to the new line (0.10.x → 0.11.x), every\n' +
        'other byte kept; values it reads from elsewhere (valuesFrom, valueFiles, parameters) are named\n' +
        'as decisions with the change to make there (docs/gitops.md).\n' +
        'Exit codes: 0 migrated and lints clean; 1 a decision is left to you (see the report); 2 usage error.',
    )
    .action(async (file: string | undefined, opts: { values: string[]; inPlace?: boolean; from?: string; revision?: string; to?: string; valuesFrom?: string[] }, cmd: Command) => {
      const files = [...(file !== undefined ? [file] : []), ...opts.values];
      if (files.length !== 1) {
        throw new UsageError(`migrate takes exactly one values file (an argument or -f), got ${files.length}`, files.length === 0 ? 'agentplat migrate values-a.yaml > values-b.yaml, or --in-place to rewrite it' : 'run it once per file: comments and key order are kept per file');
      }
      const path = files[0]!;
      if (opts.inPlace && path === '-') throw new UsageError('--in-place needs a file: standard input (-) cannot be written back', 'name the file: agentplat migrate --in-place values.yaml');
      const { migrateOperation, migrationReport, supportedMigrations } = await import('../../pipeline/migrate.ts');
      const from = revisionOption(opts.from ?? 'A', '--from');
      const to = targetRevision(opts);
      if (!supportedMigrations().includes(`${from}→${to}`)) {
        throw new UsageError(`cannot migrate from revision ${from} to ${to}`, `supported: ${supportedMigrations().map((m) => `--from ${m[0]} --revision ${m[2]}`).join(', ')}`);
      }
      const { lintSettings } = await import('../lint-settings.ts');
      const { rules } = lintSettings(app.io.cwd, {});
      const { clusterSourcesOf } = await import('../gitops-input.ts');
      const gitops = { valuesFrom: opts.valuesFrom ?? [], clusterSources: clusterSourcesOf(cmd, app) };
      const { name, text, result } = await migrateOperation({ input: path, reader: app.io, from, to, rules, gitops });
      if (result.text === undefined) {
        // The input itself is broken: the same report lint gives for it, and nothing on stdout.
        const { formatProblems } = await import('../../output/formatters/index.ts');
        app.io.stderr(formatProblems(result.problems, { format: 'text', chalk: await chalkFor(app.io, 'stderr'), revision: from, inputs: [name] }));
        app.exitCode = EXIT_PROBLEMS;
        return;
      }
      // The report describes what was written: none when the rewritten values could not be.
      if (!opts.inPlace) writeReport(app.io, { report: result.text, after: migrationReport(result, to) });
      else {
        if (result.text !== text) {
          const [{ replaceFile }, { resolveFrom }] = await Promise.all([import('../../output/replace-file.ts'), import('../../fs-path.ts')]);
          replaceFile(resolveFrom(app.io.cwd, path), result.text, name);
        }
        app.io.stderr(migrationReport(result, to));
      }
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
