// Options several commands share: the chart revision and the values layers (-f and the --set family).
import { Option, type Command } from 'commander';
import { UsageError } from '../errors.ts';
import { nearest } from '../lint/nearest.ts';
import { parseRevision, type Revision } from '../spec/revisions.ts';
import type { LayerOptions } from '../values/load.ts';

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

export function revisionOption(raw: string, origin = '--revision'): Revision {
  const rev = parseRevision(raw);
  if (!rev) throw new UsageError(`${origin}: unknown revision "${raw}"`, 'the chart has revisions A and B');
  return rev;
}

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

export function layerOptionsFrom(flags: LayerOptions): LayerOptions {
  return { values: flags.values, set: flags.set, setString: flags.setString, setJson: flags.setJson, setFile: flags.setFile, setLiteral: flags.setLiteral };
}

/**
 * Accepts the versions clusters report: `1.29`, `v1.29.3`, `1.29+`, `v1.29.3+k3s1`,
 * `1.29.3-eks-4f4795d` (pre-release and build parts are dropped). Returns `X.Y.Z`.
 */
export function parseKubeVersion(raw: string): string {
  const m = /^v?(\d+)\.(\d+)\+?(?:\.(\d+))?(?:[-+][0-9A-Za-z.+-]*)?$/.exec(raw.trim());
  if (!m) throw new UsageError(`--kube-version: "${raw}" is not a Kubernetes version`, 'write it as 1.29 or v1.29.3 (what `kubectl version` reports)');
  return `${Number(m[1])}.${Number(m[2])}.${Number(m[3] ?? 0)}`;
}

/**
 * The APIs of every --api-versions flag, each flag a single API or a comma-separated list
 * (`a/v1,b/v1`, as helm takes them); an empty entry (`a/v1,`) is refused like any bad one.
 */
export function parseApiVersionList(flags: readonly string[]): string[] {
  return flags.flatMap((f) => f.split(',')).map(parseApiVersion);
}

/** `group/version`, `version` (the core group) or `group/version/Kind`, as --api-versions takes them. */
export function parseApiVersion(raw: string): string {
  const v = raw.trim();
  if (!/^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v\d+((alpha|beta)\d+)?(\/[A-Z][A-Za-z0-9]*)?$/.test(v)) {
    throw new UsageError(`--api-versions: "${raw}" is not an API version`, 'write group/version or group/version/Kind, e.g. monitoring.coreos.com/v1 or route.openshift.io/v1/Route');
  }
  return v;
}
