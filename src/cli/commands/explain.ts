// `agentplat explain [KEY]`: what one values key is, where it goes and what checks it, like
// `kubectl explain` for a field; the work (explain-run.ts) loads only when the command runs.
import type { Command } from 'commander';
import type { App } from '../app.ts';
import { addApiVersionsOption, addLayerOptions, outputFlag, REPORT_FORMATS, revisionFlag } from '../options.ts';
import type { ExplainFlags } from './explain-run.ts';

export function register(program: Command, app: App): void {
  const cmd = program
    .command('explain')
    .description('explain a values key: type, defaults, meaning, the lint rules that read it, where it renders')
    .argument('[key]', 'dotted values key, e.g. controller.replicas; none lists the top-level keys')
    .addOption(revisionFlag('only this chart revision').default(undefined, 'both'))
    .addOption(outputFlag(REPORT_FORMATS, 'text or json'));
  addApiVersionsOption(addLayerOptions(cmd))
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  agentplat explain                      # the top-level keys of both revisions\n' +
        '  agentplat explain ui                   # the keys under ui\n' +
        '  agentplat explain controller.replicas -r B -o json\n' +
        '  agentplat explain authproxy.config.emailDomains -f prod.yaml\n' +
        'For a key that holds a value, explain renders the chart with the key set to an example value\n' +
        'and lists the objects and fields that change (the `enabled` switches above the key are turned\n' +
        'on for that render when the chart allows it). The lint rules listed are those of every check\n' +
        'that reads the key (found by running the checks).\n' +
        'With -f/--set (revision: -r, else revision: of .agentplat.yaml, else B), explain also renders\n' +
        'those values and says, from what that render read, which objects the key feeds in that\n' +
        'configuration, what keeps it unread when nothing reads it, and, for what the values set of\n' +
        'it, the lint verdict (values/no-effect) and the objects and fields the setting changes.\n' +
        'That render declares the cluster APIs of -a/--api-versions (as render does); a key whose objects\n' +
        'render only with an API it did not declare (a ServiceMonitor) is said so, with the -a to add.\n' +
        'The example comparison declares an API only when its objects need it; the EXAMPLE shows the -a.\n' +
        'Exit codes: 0 explained; 1 unknown key (with the nearest key as a hint, like kubectl explain\n' +
        'on a field that does not exist); 2 usage error.',
    )
    .action(async (key: string | undefined, flags: ExplainFlags) => {
      const { runExplain } = await import('./explain-run.ts');
      await runExplain(key, flags, app);
    });
}
