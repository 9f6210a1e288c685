// The work of `agentplat values`, loaded only when that command runs. Without --computed: the
// commented defaults of a revision. With it: the values a release renders from, made by the one
// pipeline step render and lint take (the computeValues operation), secrets masked; with --show-origin, where each
// leaf came from. On an error in the values nothing goes to stdout.
import type { App } from '../app.ts';
import { lintSettings } from '../lint-settings.ts';
import { eitherSpelling, layerOptionsFrom, MANIFEST_FORMATS, outputFormat, revisionOption, type LayerFlags } from '../options.ts';
import { problemReporter } from '../problem-report.ts';
import { EXIT_PROBLEMS, UsageError } from '../../problems/errors.ts';
import { computeValues } from '../../pipeline/operations.ts';
import { SAME_AS_DEFAULT_RULE, type InertKey } from '../../pipeline/no-effect.ts';
import { emitYaml } from '../../yaml/emit.ts';
import { maskTree, secretValues, VALUES_SECRETS } from '../../problems/secrets.ts';
import type { Revision } from '../../chart/revisions.ts';
import { joinPath } from '../../values/merge.ts';
import { leafOrigins, type LeafOrigin } from '../../values/origins.ts';
import { locatedChangeLine } from '../../migrate/changes.ts';
import { changeLocations, migratedOrigin } from '../../migrate/origin.ts';
import type { MigratedLayers } from '../../pipeline/migrate.ts';

export interface ValuesFlags extends LayerFlags {
  revision?: string;
  fromRevision?: string;
  /** plan's and migrate's spelling of --from-revision. */
  from?: string;
  computed?: boolean;
  showOrigin?: boolean;
  output: string;
  namespace: string;
  namespaceDefaulted?: boolean;
  releaseName: string;
  apiVersions: string[];
  kubeVersion?: string;
}

/** Where one value came from, as `-o json` gives it. */
export interface OriginJson {
  /** `default (revision B)`, the file as given, `<stdin>`, a URL, or the flag and its number (`--set #2`). */
  source: string;
  line?: number;
  column?: number;
  /** The part of a HelmRelease or Application that wrote it (`spec.values`, `valuesFrom[1] ConfigMap ns/name key values.yaml line 3`, `parameters[2]`). */
  via?: string;
  /** With --from-revision: the key of the user's file that the migration wrote this value from (source, line and column are that key's). */
  migratedFrom?: string;
  /**
   * The key the user set (this leaf, or the list or map that holds it) changes nothing rendered:
   * `values/no-effect` and why, or `values/same-as-default` (lint reports the same).
   */
  noEffect?: { rule: string; key: string; why: string };
}

export async function runValues(flags: ValuesFlags, app: App): Promise<void> {
  const output = outputFormat(flags.output, MANIFEST_FORMATS);
  const layers = layerOptionsFrom(flags);
  const given = Object.values(layers).some((l) => (l ?? []).length > 0);
  if (!flags.computed) {
    const needs = given ? '-f and --set… are' : flags.showOrigin ? '--show-origin is' : flags.fromRevision !== undefined ? '--from-revision is' : flags.from !== undefined ? '--from is' : output !== 'yaml' ? '-o json is' : undefined;
    if (needs) throw new UsageError(`${needs} for --computed only: without it, values prints the commented defaults of the revision`, 'add --computed to print the values a release renders from');
    const { revisionSetting } = await import('../lint-settings.ts');
    const { defaultsFileText } = await import('../../docs/embedded.ts');
    app.io.stdout(defaultsFileText(revisionSetting(app.io.cwd, flags.revision)));
    app.exitCode = 0;
    return;
  }

  const settings = lintSettings(app.io.cwd, { revision: flags.revision });
  const { revision } = settings;
  const fromFlag = eitherSpelling('revisions', [flags.fromRevision, '--from-revision'], [flags.from, '--from']);
  const from = fromFlag.value !== undefined ? revisionOption(fromFlag.value, fromFlag.flag) : revision;
  const migrating = from !== revision;
  if (migrating) {
    const { supportedMigrations } = await import('../../pipeline/migrate.ts');
    if (!supportedMigrations().includes(`${from}→${revision}`)) {
      throw new UsageError(`cannot migrate values from revision ${from} to ${revision}`, `values migrate forward only: ${supportedMigrations().map((m) => `--from-revision ${m[0]} -r ${m[2]}`).join(', ')}`);
    }
  }
  // With --from-revision the layers are the user's migrated as `migrate` migrates them; the report
  // of what moved goes to stderr, and the origins point back at the user's keys.
  const outcome = await computeValues({
    revision,
    ...(migrating ? { from } : {}),
    layers,
    reader: { cwd: app.io.cwd, readStdin: (maxBytes: number) => app.io.readStdin(maxBytes) },
    releaseName: flags.releaseName,
    namespace: flags.namespace,
    ...(flags.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions: flags.apiVersions,
    ...(flags.kubeVersion !== undefined ? { kubeVersion: flags.kubeVersion } : {}),
    rules: settings.rules,
    ...(settings.ignoreKeys ? { ignoreKeys: settings.ignoreKeys } : {}),
    ...(flags.showOrigin ? { effects: true } : {}),
  });
  const { written, migrated, layered, inert } = outcome;
  const all = outcome.problems;
  const report = await problemReporter(app, outcome.problemsRevision, outcome.inputs);
  if (!layered) {
    report(all);
    app.exitCode = EXIT_PROBLEMS;
    return;
  }
  const loaded = outcome.loaded;
  // Warnings go to stderr as render prints them; stdout carries the values only.
  const warnings = all.filter((p) => p.severity === 'warning');
  if (warnings.length > 0) report(warnings);

  if (migrated && migrated.changes.length > 0) {
    const at = changeLocations(migrated.changes, written.sources);
    app.io.stderr(`the values, migrated from revision ${from} to ${revision} (as agentplat migrate does):\n${migrated.changes.map((c, i) => `  ${locatedChangeLine(c, at[i])}`).join('\n')}\n`);
  }

  const secrets = new Set<string>();
  for (const l of [...written.sources, ...loaded.sources]) secretValues(l.data, VALUES_SECRETS, secrets);
  const values = maskTree(layered.values, VALUES_SECRETS, secrets);
  if (!flags.showOrigin) {
    app.io.stdout(output === 'json' ? `${JSON.stringify(values, null, 2)}\n` : emitYaml(values));
  } else {
    const leaves = leafOrigins(layered).map((leaf) => ({
      path: joinPath(leaf.path),
      value: maskTree(leaf.value, VALUES_SECRETS, secrets, VALUES_SECRETS.at(leaf.path)),
      origin: withEffect(originJson(migrated ? userOrigin(leaf, migrated.originals) : leaf, revision), leaf, inert),
    }));
    if (output === 'json') {
      const origins: Record<string, OriginJson> = {};
      for (const l of leaves) Object.defineProperty(origins, l.path, { value: l.origin, enumerable: true });
      app.io.stdout(`${JSON.stringify({ values, origins }, null, 2)}\n`);
    } else {
      app.io.stdout(originTable(leaves.map((l) => [l.path, JSON.stringify(l.value), originText(l.origin)])));
    }
  }
  app.exitCode = 0;
}

/** The origin of a leaf: the defaults by revision, a file by line and column, a flag by its number. */
export function originJson(leaf: LeafOrigin & { migratedFrom?: string }, revision: Revision): OriginJson {
  const { source, location } = leaf;
  if (!source || source.chartDefaults) return { source: `default (revision ${revision})` };
  const from = leaf.migratedFrom !== undefined ? { migratedFrom: leaf.migratedFrom } : {};
  if (location?.origin) return { source: location.file, ...(location.column !== undefined ? { column: location.column } : {}), ...from };
  return { source: location?.file ?? source.name, ...(location?.line !== undefined ? { line: location.line } : {}), ...(location?.column !== undefined ? { column: location.column } : {}), ...(location?.via ? { via: location.via } : {}), ...from };
}

/** The origin of a leaf the user set, with the verdict when the key that sets it (the leaf, or a list or map above it) changes nothing rendered. */
function withEffect(origin: OriginJson, leaf: LeafOrigin, inert: ReadonlyMap<string, InertKey> | undefined): OriginJson {
  if (!inert || !leaf.source || leaf.source.chartDefaults) return origin;
  for (let n = leaf.path.length; n > 0; n--) {
    const key = joinPath(leaf.path.slice(0, n));
    const found = inert.get(key);
    if (found) return { ...origin, noEffect: { rule: found.rule, key, why: found.why } };
  }
  return origin;
}

/** A leaf of a migrated layer, pointed back at the layer the user wrote: the key it came from there, and where. */
function userOrigin(leaf: LeafOrigin, originals: MigratedLayers['originals']): LeafOrigin & { migratedFrom?: string } {
  const m = leaf.source && originals.get(leaf.source);
  if (!m) return leaf;
  const { from, location } = migratedOrigin(leaf.path, m.changes, m.original);
  return { path: leaf.path, value: leaf.value, source: m.original, ...(location ? { location } : {}), ...(from !== undefined ? { migratedFrom: from } : {}) };
}

/**
 * `file:line:column` for a file, the flag and its number (`--set #2`) for a flag, `default
 * (revision B)`; for a value the migration wrote, `migration from key K (file:line:column)`.
 */
function originText(o: OriginJson): string {
  const at = `${o.line !== undefined ? `${o.source}:${o.line}${o.column !== undefined ? `:${o.column}` : ''}` : o.source}${o.via ? ` ${o.via}` : ''}`;
  const origin = o.migratedFrom !== undefined ? `migration from key ${o.migratedFrom} (${at})` : at;
  if (!o.noEffect) return origin;
  const key = `\`${o.noEffect.key}\``;
  return o.noEffect.rule === SAME_AS_DEFAULT_RULE ? `${origin}  (${key} is set to the chart's default)` : `${origin}  (${key} has no effect: ${o.noEffect.why})`;
}

/** Values wider than this do not widen the column: the origins of the other rows stay aligned. */
const VALUE_COLUMN_MAX = 40;

/**
 * One line per leaf: KEY, VALUE (JSON, so a string, a number and null differ and a multi-line
 * string stays on its line), ORIGIN, separated by at least two spaces: `grep` a key and its line
 * says everything about it.
 */
function originTable(rows: readonly (readonly [string, string, string])[]): string {
  const all: (readonly [string, string, string])[] = [['KEY', 'VALUE', 'ORIGIN'], ...rows];
  const keyWidth = Math.max(...all.map((r) => r[0].length));
  const valueWidth = Math.min(VALUE_COLUMN_MAX, Math.max(...all.map((r) => r[1].length)));
  return all.map(([k, v, o]) => `${k.padEnd(keyWidth)}  ${v.padEnd(valueWidth)}  ${o}\n`).join('');
}
