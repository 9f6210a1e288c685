// Options several commands share: the chart revision and the values layers (-f and the --set family).
import type { Command } from 'commander';
import { UsageError } from '../errors.ts';
import { parseRevision, type Revision } from '../spec/revisions.ts';
import type { LayerOptions } from '../values/load.ts';

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
    .option('--set-file <key=path>', 'set a value to the contents of a file (repeatable)', collect, []);
}

export function layerOptionsFrom(flags: LayerOptions): LayerOptions {
  return { values: flags.values, set: flags.set, setString: flags.setString, setJson: flags.setJson, setFile: flags.setFile };
}
