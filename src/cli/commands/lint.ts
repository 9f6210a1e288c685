// `agentplat lint`: options → lint request → one report printed in the chosen format.
// The implementation (lint-run.ts) loads only when the command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { addLayerOptions, addReleaseOptions, collect, optionWithDefault, revisionFlag, withChoices } from '../options.ts';
import { FORMAT_NAMES } from '../../problems/format-names.ts';
import type { LintOptions } from './lint-run.ts';

export function register(program: Command, app: App): void {
  const cmd = program
    .command('lint')
    .description('check values files against the chart revision: schema, unknown keys and cross-field rules')
    .argument('[files...]', 'values files or globs (*, **, ?), each linted on its own over the -f/--set layers')
    .addOption(revisionFlag());
  addReleaseOptions(addLayerOptions(cmd), 'Kubernetes version of the target cluster (version-gated rules and APIs), e.g. 1.29')
    .addOption(withChoices(optionWithDefault('--format <name>', `problem format: ${FORMAT_NAMES.join(', ')}`, 'text'), FORMAT_NAMES))
    .option('--strict', 'warnings fail the run (exit 1)')
    .option('--quiet', 'print errors only')
    .option('-v, --verbose', 'also print notes about defaults you did not change (e.g. the bundled database)')
    .option('--max-warnings <n>', 'fail when there are more warnings than this')
    .option('--rule <id=level>', 'set a rule to off, info, warn or error (repeatable)', collect, [])
    .option('--no-effects', 'do not look for keys that change nothing rendered (values/no-effect, values/same-as-default)')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat lint -r A -f prod.yaml -f overrides.yaml\n' +
        '  agentplat lint \'envs/*.yaml\' --format github --strict\n' +
        '\nSettings may also come from .agentplat.yaml (nearest from the working directory up):\n' +
        '  rules: {values/pdb-blocks-eviction: off}, maxWarnings: 0, strict: true, revision: B, format: text\n' +
        'Flags win over the file.\n' +
        'lint renders the release it checks (nothing is printed) and runs every check render runs, with\n' +
        "render's -n, --release-name, --api-versions and --kube-version: the two pass or fail alike.\n" +
        'Exit codes: 0 no errors; 1 errors, warnings with --strict, or more than --max-warnings; 2 usage error.',
    )
    .action(async (files: string[], opts: LintOptions) => {
      const { runLint } = await import('./lint-run.ts');
      app.exitCode = await runLint(app, files, opts);
    });
}

