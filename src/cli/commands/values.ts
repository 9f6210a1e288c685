// `agentplat values`: prints the defaults file of a revision with its comments, verbatim: the
// linter's positions in the defaults are lines of this output. With --computed, the values of a
// release (the defaults under -f and the --set family, as lint and render merge them), and with
// --show-origin where each one came from (values-run.ts, loaded only then); with --from-revision
// the values are written for an older revision and migrated first.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { addLayerOptions, addReleaseOptions, MANIFEST_FORMATS, outputFlag, revisionChoice, revisionFlag } from '../options.ts';
import type { ValuesFlags } from './values-run.ts';

export function register(program: Command, app: App): void {
  const cmd = program
    .command('values')
    .description('print the default values of a chart revision (commented, like a chart values.yaml), or with --computed the values a release renders from')
    .addOption(revisionFlag())
    .addOption(revisionChoice('--from-revision <A|B>', 'with --computed: the revision -f and --set… are written for; they are migrated to --revision first, as migrate does', '--revision'))
    .addOption(revisionChoice('--from <A|B>', "the same as --from-revision (plan's and migrate's spelling)"));
  addReleaseOptions(addLayerOptions(cmd))
    .option('--computed', 'print the values a release renders from: the defaults under -f and the --set family, merged as lint and render merge them')
    .option('--show-origin', 'with --computed: say for every key where its value came from: the defaults of the revision, file:line:column, --set #n, migration from key K; and of a key set that changes nothing rendered, why (values/no-effect)')
    .addOption(outputFlag(MANIFEST_FORMATS, 'with --computed: yaml or json'))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat values -r B > values.yaml   # then edit, and: agentplat lint -f values.yaml\n' +
        '  agentplat values --computed -f prod.yaml --set controller.replicas=3 --show-origin\n' +
        '  agentplat values --computed --from-revision A -f values-a.yaml --show-origin   # after the upgrade to B\n' +
        'Secret fields are masked in the computed values. When the values have an error, the problems go\n' +
        'to stderr and nothing to stdout.\n' +
        'Exit codes: 0 printed; 1 the values have errors (see stderr); 2 usage error.',
    )
    .action(async (flags: ValuesFlags) => {
      const { runValues } = await import('./values-run.ts');
      await runValues(flags, app);
    });
}
