// Options several commands share: the chart revision and the values layers (-f and the --set family).
import { Command, Option } from 'commander';
import { UsageError } from '../problems/errors.ts';
import { nearest } from '../problems/nearest.ts';
import type { LayerOptions, ReadLayer } from '../values/load.ts';
import { REVISION_IDS } from '../chart/revisions.ts';

// The parsers of what a request names (shared with the in-process API) live with the pipeline.
export { parseApiVersion, parseApiVersionList, parseKubeVersion, revisionOption } from '../pipeline/request.ts';

/**
 * An option whose default is decided when the command runs (`.agentplat.yaml` may set it), so
 * the parsed value stays undefined unless given; help still shows the default, like any other.
 */
export function optionWithDefault(flags: string, description: string, shownDefault: string): Option {
  return new Option(flags, description).default(undefined, shownDefault);
}

/**
 * Declares the values an option takes (Option.argChoices), so that completion offers them: every
 * option that takes one of a fixed set of words declares them here. The command still checks the
 * value itself, in its own words (did you mean, where the setting came from).
 */
export function withChoices(option: Option, choices: readonly string[]): Option {
  option.argChoices = [...choices];
  return option;
}

/** What -r/--revision defaults to when not given: the folder's setting (lint-settings.ts, revisionSetting). */
export const REVISION_DEFAULT_SHOWN = 'revision: of .agentplat.yaml, else B';

/**
 * -r/--revision: the same flag and words in every command that takes it. `shownDefault` is what
 * help prints; a command that does not read `.agentplat.yaml` for it (migrate's target) passes its own.
 */
export function revisionFlag(description = 'chart revision', shownDefault = REVISION_DEFAULT_SHOWN): Option {
  return revisionChoice('-r, --revision <A|B>', description, shownDefault);
}

/** An option naming a chart revision (-r, --from, --to-revision, …); `shownDefault` for help, decided when the command runs. */
export function revisionChoice(flags: string, description: string, shownDefault?: string): Option {
  return withChoices(shownDefault !== undefined ? optionWithDefault(flags, description, shownDefault) : new Option(flags, description), REVISION_IDS);
}

/**
 * One value given under either of two spellings of a flag (plan's `--from`/`--to` and diff's
 * `--from-revision`/`--to-revision`, kubectl's `--context` and helm's `--kube-context`): the value
 * and the flag as typed, for messages. Both spellings with different values is a usage error.
 */
export function eitherSpelling(what: string, a: readonly [string | undefined, string], b: readonly [string | undefined, string]): { value?: string; flag: string } {
  const [va, fa] = a;
  const [vb, fb] = b;
  if (va !== undefined && vb !== undefined && va !== vb) throw new UsageError(`${fa} ${va} and ${fb} ${vb} name two ${what}`, 'give one of them');
  if (va !== undefined) return { value: va, flag: fa };
  if (vb !== undefined) return { value: vb, flag: fb };
  return { flag: fa };
}

/** What render, template and crds print: manifests as YAML or JSON. */
export const MANIFEST_FORMATS = ['yaml', 'json'] as const;
/** What version, diff and explain print: text for people or JSON. */
export const REPORT_FORMATS = ['text', 'json'] as const;
/** What plan prints: text for people, JSON or SARIF for machines. */
export const PLAN_FORMATS = ['text', 'json', 'sarif'] as const;

/** `-o/--output <format>`: one of `formats`, the first the default. */
export function outputFlag(formats: readonly string[], description: string): Option {
  return withChoices(new Option('-o, --output <format>', description).default(formats[0]), formats);
}

/** `-o/--output`: one of `formats`, refused in the same words by every command. */
export function outputFormat<T extends string>(raw: string, formats: readonly T[]): T {
  if ((formats as readonly string[]).includes(raw)) return raw as T;
  const near = nearest(raw, formats);
  throw new UsageError(`--output: unknown format "${raw}"`, `${near ? `did you mean ${near}? ` : ''}this command prints ${formats.join(' or ')}`);
}

/** Commander collector for repeatable options. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];

/**
 * Collector of `-f`, which helm reads as a comma-separated list (pflag's string slice, in CSV):
 * `-f a.yaml,b.yaml` is two files, `-f '"a,b.yaml"'` one file with a comma in its name.
 */
export const collectFiles = (value: string, previous: string[]): string[] => [...previous, ...splitCsv(value)];

/** One CSV record: fields split at commas, a field in double quotes may hold commas and `""`. */
export function splitCsv(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  for (;;) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (; i < text.length; i++) {
        if (text[i] === '"' && text[i + 1] === '"') field += text[i++];
        else if (text[i] === '"') break;
        else field += text[i];
      }
      i++;
      while (i < text.length && text[i] !== ',') field += text[i++];
    } else {
      const comma = text.indexOf(',', i);
      field = text.slice(i, comma < 0 ? text.length : comma);
      i = comma < 0 ? text.length : comma;
    }
    out.push(field);
    if (i >= text.length) return out;
    i++;
  }
}


/** The values layers as commander parses the options addLayerOptions adds (each repeatable, so always a list). */
/** -f and the --set family as commander parses them: -f takes file paths (and URLs, `-`) only. */
export type LayerFlags = { [K in keyof LayerOptions]-?: string[] };

/** Adds -f and the --set family (every command that reads values). */
export function addLayerOptions(cmd: Command): Command {
  return cmd
    .option('-f, --values <file>', 'values file or URL layered over the defaults (repeatable or comma-separated, later wins; - reads stdin)', collectFiles, [])
    .option('--set <key=value>', 'set values on the command line (repeatable; a.b[0]=x,c=y)', collect, [])
    .option('--set-string <key=value>', 'like --set, values are always strings (repeatable)', collect, [])
    .option('--set-json <key=json>', 'like --set, values are JSON (repeatable)', collect, [])
    .option('--set-file <key=path>', 'set a value to the contents of a file (repeatable)', collect, [])
    .option('--set-literal <key=text>', 'set a value to the text after "=" as it is, commas and braces included (repeatable)', collect, []);
}

/** The flag every command that reads -f takes for a HelmRelease or Application given there (gitops-input.ts). */
export function addValuesFromOption(cmd: Command): void {
  cmd.option('--values-from <dir>', 'with a Flux HelmRelease or Argo CD Application as -f: a folder of the ConfigMaps, Secrets and chart sources it names (beside its own folder), and the repository root its valueFiles are read from (repeatable; default: the current directory)', collect, []);
  // diff has its own --cluster (the live comparison), which reads them from the cluster too.
  if (!cmd.options.some((o) => o.long === '--cluster')) {
    cmd.option('--cluster', "with a Flux HelmRelease as -f: read the valuesFrom ConfigMaps and Secrets that no file holds from the cluster, in the HelmRelease's namespace (kubeconfig as kubectl reads it; nothing is written)");
    // template takes helm's --kubeconfig already (the same meaning): only what is missing is added.
    if (!cmd.options.some((o) => o.long === '--kubeconfig')) cmd.option('--kubeconfig <file>', 'kubeconfig file of the cluster (with --cluster; default: KUBECONFIG, else ~/.kube/config)');
    if (!cmd.options.some((o) => o.long === '--kube-context')) cmd.option('--kube-context <name>', 'kubeconfig context to use (with --cluster; default: the current context)');
  }
}

export const API_VERSIONS_HELP = 'APIs the cluster serves, group/version[/Kind], repeatable or comma-separated, e.g. monitoring.coreos.com/v1,cert-manager.io/v1';

/** `-a, --api-versions`: the APIs a render declares the cluster serves (render, lint, explain take it alike). */
export function addApiVersionsOption(cmd: Command): Command {
  return cmd.option('-a, --api-versions <api>', API_VERSIONS_HELP, collect, []);
}

/** What markDefaultedNamespace adds to a command's options. */
export interface NamespaceFlags {
  namespace: string;
  /** True when -n/--namespace was not given and `namespace` is its default, `default`. */
  namespaceDefaulted?: boolean;
}

/**
 * Sets the option `namespaceDefaulted` of a command with -n/--namespace before its action runs:
 * true when the namespace was left to its default, so the findings that rest on it can say so.
 */
export function markDefaultedNamespace(cmd: Command): Command {
  return cmd.hook('preAction', (command) => {
    command.setOptionValue('namespaceDefaulted', command.getOptionValueSource('namespace') === 'default');
  });
}

/**
 * The release a command renders or checks: its namespace, name, the cluster's APIs and version.
 * render and lint take the same four flags with the same defaults, so they decide alike.
 */
export function addReleaseOptions(cmd: Command, kubeVersionHelp = 'Kubernetes version of the target cluster, e.g. 1.29'): Command {
  markDefaultedNamespace(cmd).option('-n, --namespace <ns>', 'release namespace', 'default').option('--release-name <name>', 'release name', 'agentplat');
  return addApiVersionsOption(cmd).option('--kube-version <x.y>', kubeVersionHelp);
}

/**
 * diff's new side: every flag addLayerOptions adds, again as `--to-…` (`--to-values`, `--to-set`,
 * …, `--to-set-literal`), so the two sides take the same layers.
 */
export function addToLayerOptions(cmd: Command): Command {
  for (const option of addLayerOptions(new Command()).options) {
    const flag = `--to-${option.long!.slice(2)} ${/<[^>]+>/.exec(option.flags)![0]}`;
    const description = option.long === '--values'
      ? 'values file of the new side (repeatable or comma-separated, later wins); without any --to-… option the new side takes the old side\'s values'
      : `like ${option.long}, for the new side (repeatable)`;
    cmd.option(flag, description, option.parseArg ?? collect, []);
  }
  return cmd;
}

/** The layers of diff's new side, from the options addToLayerOptions adds (`toSetLiteral` → `setLiteral`). */
export function toLayerOptionsFrom(flags: object): LayerOptions {
  const given = flags as Record<string, string[] | undefined>;
  const layers: Record<string, LayerOptions['values']> = {};
  for (const option of addLayerOptions(new Command()).options) {
    const key = option.attributeName();
    layers[key] = given[`to${key[0]!.toUpperCase()}${key.slice(1)}`] ?? [];
  }
  return { ...layers, values: withGitopsLayers(layers.values, flags, GITOPS_TO_VALUES) } as LayerOptions;
}

/**
 * Where the preAction step (gitops-input.ts) leaves, by -f file (or --to-values file), the value
 * layers of the HelmRelease or Application the file holds: the layers replace the file.
 */
export const GITOPS_VALUES = 'gitopsValues';
export const GITOPS_TO_VALUES = 'gitopsToValues';

function withGitopsLayers(values: LayerOptions['values'], flags: object, key: string): LayerOptions['values'] {
  const read = (flags as Record<string, unknown>)[key] as Map<string, ReadLayer[]> | undefined;
  if (!read || !values) return values;
  const out: NonNullable<LayerOptions['values']>[number][] = [];
  for (const v of values) out.push(...(typeof v === 'string' ? (read.get(v) ?? [v]) : [v]));
  return out;
}

export function layerOptionsFrom(flags: LayerOptions): LayerOptions {
  return { values: withGitopsLayers(flags.values, flags, GITOPS_VALUES), set: flags.set, setString: flags.setString, setJson: flags.setJson, setFile: flags.setFile, setLiteral: flags.setLiteral };
}

/** What addClusterOptions adds, as commander parses it. */
export interface ClusterFlags {
  kubeconfig?: string;
  context?: string;
}

/**
 * The flags of every `--cluster` run, spelled as kubectl spells them: `--kubeconfig FILE` (else
 * KUBECONFIG, else ~/.kube/config) and `--context NAME` (else the kubeconfig's current context).
 * A command whose `--context` already means something else (`diff -U/--context N`, lines of
 * context) names it as helm does: `contextFlag` `--kube-context <name>`.
 */
export function addClusterOptions(cmd: Command, contextFlag = '--context <name>'): Command {
  return cmd
    .option('--kubeconfig <file>', 'kubeconfig file of the cluster (with --cluster; default: KUBECONFIG, else ~/.kube/config)')
    .option(contextFlag, 'kubeconfig context to use (with --cluster; default: the current context)');
}
