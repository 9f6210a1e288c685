// Options several commands share: the chart revision and the values layers (-f and the --set family).
import { Option, type Command } from 'commander';
import { UsageError } from '../problems/errors.ts';
import { nearest } from '../problems/nearest.ts';
import type { LayerOptions } from '../values/load.ts';

// The parsers of what a request names (shared with the in-process API) live with the pipeline.
export { parseApiVersion, parseApiVersionList, parseKubeVersion, revisionOption } from '../pipeline/request.ts';

/**
 * An option whose default is decided when the command runs (`.agentplat.yaml` may set it), so
 * the parsed value stays undefined unless given; help still shows the default, like any other.
 */
export function optionWithDefault(flags: string, description: string, shownDefault: string): Option {
  return new Option(flags, description).default(undefined, shownDefault);
}

/** -r/--revision: the same flag and words in every command that takes it. */
export function revisionFlag(description = 'chart revision'): Option {
  return optionWithDefault('-r, --revision <A|B>', description, 'B');
}

/** `-o/--output`: one of `formats`, refused in the same words by every command. */
export function outputFormat<T extends string>(raw: string, formats: readonly T[]): T {
  if ((formats as readonly string[]).includes(raw)) return raw as T;
  const near = nearest(raw, formats);
  throw new UsageError(`--output: unknown format "${raw}"`, `${near ? `did you mean ${near}? ` : ''}this command prints ${formats.join(' or ')}`);
}

/** Commander collector for repeatable options. */
export const collect = (value: string, previous: string[]): string[] => [...previous, value];


/** The values layers as commander parses the options addLayerOptions adds (each repeatable, so always a list). */
export type LayerFlags = Required<LayerOptions>;

/** Adds -f and the --set family (every command that reads values). */
export function addLayerOptions(cmd: Command): Command {
  return cmd
    .option('-f, --values <file>', 'values file layered over the defaults (repeatable, later wins; - reads stdin)', collect, [])
    .option('--set <key=value>', 'set values on the command line (repeatable; a.b[0]=x,c=y)', collect, [])
    .option('--set-string <key=value>', 'like --set, values are always strings (repeatable)', collect, [])
    .option('--set-json <key=json>', 'like --set, values are JSON (repeatable)', collect, [])
    .option('--set-file <key=path>', 'set a value to the contents of a file (repeatable)', collect, [])
    .option('--set-literal <key=text>', 'set a value to the text after "=" as it is, commas and braces included (repeatable)', collect, []);
}

export const API_VERSIONS_HELP = 'APIs the cluster serves, group/version[/Kind], repeatable or comma-separated, e.g. monitoring.coreos.com/v1,cert-manager.io/v1';

/**
 * The release a command renders or checks: its namespace, name, the cluster's APIs and version.
 * render and lint take the same four flags with the same defaults, so they decide alike.
 */
export function addReleaseOptions(cmd: Command, kubeVersionHelp = 'Kubernetes version of the target cluster, e.g. 1.29'): Command {
  return cmd
    .option('-n, --namespace <ns>', 'release namespace', 'default')
    .option('--release-name <name>', 'release name', 'agentplat')
    .option('-a, --api-versions <api>', API_VERSIONS_HELP, collect, [])
    .option('--kube-version <x.y>', kubeVersionHelp);
}

export function layerOptionsFrom(flags: LayerOptions): LayerOptions {
  return { values: flags.values, set: flags.set, setString: flags.setString, setJson: flags.setJson, setFile: flags.setFile, setLiteral: flags.setLiteral };
}
