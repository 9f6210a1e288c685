// `agentplat plan`: what an upgrade does to a release, judged: the values migration on the user's
// lines, the objects created, updated, deleted and re-created (with why, and how to keep a deleted
// one), CRD changes and what touches stored data. The implementation (plan-run.ts) loads only when the command runs.
import { Option, type Command } from 'commander';
import type { App } from '../app.ts';
import { addLayerOptions, addReleaseOptions, addToLayerOptions, collect, PLAN_FORMATS, revisionChoice, revisionFlag, withChoices } from '../options.ts';
import type { PlanFlags } from './plan-run.ts';

export function register(program: Command, app: App): void {
  const cmd = program
    .command('plan')
    .description('plan an upgrade offline: values migration, objects created/updated/replaced/deleted with reasons, CRD changes, data at risk')
    .addOption(revisionFlag('chart revision of both sides'))
    .addOption(revisionChoice('--from <A|B>', 'revision installed now (the old side)', '--revision'))
    .addOption(revisionChoice('--to <A|B>', 'revision to upgrade to, the old values migrated to it', '--revision'))
    .addOption(revisionChoice('--from-revision <A|B>', "the same as --from (diff's spelling)"))
    .addOption(revisionChoice('--to-revision <A|B>', "the same as --to (diff's spelling)"));
  addReleaseOptions(addToLayerOptions(addLayerOptions(cmd)), 'Kubernetes version of the cluster, e.g. 1.29')
    .addOption(withChoices(new Option('-o, --output <format>', `report format: ${PLAN_FORMATS.join(', ')}`).default('text'), PLAN_FORMATS))
    .addOption(withChoices(new Option('--format <format>', 'the same as --output (lint\'s spelling)'), PLAN_FORMATS))
    .option('--rule <id=level>', 'set a rule to off, info, warn or error (repeatable)', collect, [])
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat plan --from A --to B -f values.yaml              # the upgrade from A to B\n' +
        '  agentplat plan -r B -f prod.yaml --to-values prod-next.yaml  # a values change within B\n' +
        '  agentplat plan --from A --to B -f values.yaml --format sarif > plan.sarif\n' +
        'The old side is the render of -f/--set in --from; the new side the render of --to-values/--to-set…,\n' +
        'or of the old values migrated as `agentplat migrate` does when none is given.\n' +
        'Sections: the values migration (file:line:col of each key moved, dropped or left to decide), the\n' +
        'object plan (replace: the API server refuses the update, delete the object first, with the\n' +
        'command; delete, with why and how to keep the object; update with the fields; create), CRD\n' +
        'changes and what they can break, and the changes that touch stored data (the bundled\n' +
        'database\'s volume, image major version, credentials; a re-created claim). Secrets are masked\n' +
        'as in diff.\n' +
        'Exit codes: 0 nothing needs attention; 1 something does (a replacement, a deletion, data, a CRD\n' +
        'break, a migration decision); 2 usage error or values that do not render (reported on stderr, nothing on stdout).',
    )
    .action(async (flags: PlanFlags) => {
      const { runPlan } = await import('./plan-run.ts');
      await runPlan(flags, app);
    });
}
