// The work of `agentplat render`, loaded only when that command runs.
// On any lint error nothing goes to stdout (a pipe into kubectl must never get half a release).
import type { App } from '../app.ts';
import { chalkFor } from '../io.ts';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { layerOptionsFrom, parseApiVersion, parseKubeVersion, revisionOption } from '../options.ts';
import { EXIT_PROBLEMS, UsageError } from '../../errors.ts';
import { formatProblems } from '../../lint/formatters/index.ts';
import { lintValues } from '../../lint/lint.ts';
import type { Problem } from '../../lint/problem.ts';
import { loadUserLayers } from '../../values/load.ts';
import { layerValues } from '../../values/merge.ts';
import { renderChart } from '../../render/render.ts';
import { RenderError } from '../../render/components/common.ts';
import { filesFor, showOnly, ShowOnlyError, toJson, toYaml, writeOutputDir } from '../../render/output.ts';
import { TemplateOutputError } from '../../render/engine.ts';
import { DuplicateObjectError } from '../../render/order.ts';
import { checkObjectNames } from '../../render/names-check.ts';
import type { RenderFlags } from './render.ts';

const NAME_HINT = 'use a shorter --release-name or fullnameOverride: names longer than 63 characters are cut, and two cut names can meet';

/** --output-dir must be a directory or not exist yet (it is created). */
function assertOutputDir(dir: string, cwd: string): void {
  const full = resolve(cwd, dir);
  if (existsSync(full) && !statSync(full).isDirectory()) throw new UsageError(`--output-dir: ${dir} exists and is not a directory`, 'name a directory (it is created when missing)');
}

export async function runRender(flags: RenderFlags, app: App): Promise<void> {
  const revision = revisionOption(flags.revision);
  if (flags.output !== 'yaml' && flags.output !== 'json') throw new UsageError(`--output: unknown format "${flags.output}"`, 'use yaml or json');
  const kubeVersion = flags.kubeVersion !== undefined ? parseKubeVersion(flags.kubeVersion) : undefined;
  const apiVersions = flags.apiVersions.map(parseApiVersion);
  if (flags.outputDir && flags.output !== 'yaml') throw new UsageError('--output-dir writes one YAML file per source; it cannot be combined with -o json', 'drop -o json, or print the List to stdout without --output-dir');
  if (flags.outputDir) assertOutputDir(flags.outputDir, app.io.cwd);
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(flags.releaseName) || flags.releaseName.length > 53) {
    throw new UsageError(`--release-name: "${flags.releaseName}" is not a valid release name`, 'lower-case letters, digits and "-", at most 53 characters');
  }
  if (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(flags.namespace)) throw new UsageError(`--namespace: "${flags.namespace}" is not a valid namespace name`);

  const loaded = await loadUserLayers(layerOptionsFrom(flags), { cwd: app.io.cwd, readStdin: () => app.io.readStdin() });
  const chalk = chalkFor(app.io, 'stderr');
  const inputs = flags.values.length > 0 ? flags.values.map((f) => (f === '-' ? '<stdin>' : f)) : [loaded.sources.length > 0 ? 'command-line values' : `defaults of revision ${revision}`];
  // Errors and warnings only: infos are the linter's business (`agentplat lint` prints them).
  const fail = (problems: readonly Problem[]) => {
    app.io.stderr(formatProblems(problems.filter((p) => p.severity !== 'info'), { format: 'text', chalk, revision, inputs }));
    app.exitCode = EXIT_PROBLEMS;
  };
  if (loaded.problems.some((p) => p.severity === 'error')) return fail(loaded.problems);
  const lint = lintValues({
    revision,
    layers: loaded.sources,
    releaseNamespace: flags.namespace,
    apiVersions,
    ...(kubeVersion ? { kubeVersion } : {}),
  });
  const problems = [...loaded.problems, ...lint.problems];
  if (problems.some((p) => p.severity === 'error')) return fail(problems);

  let docs;
  try {
    docs = renderChart(lint.layered.values, {
      revision,
      releaseName: flags.releaseName,
      releaseNamespace: flags.namespace,
      apiVersions,
      ...(kubeVersion ? { kubeVersion } : {}),
      ...(flags.skipCrds ? { skipCrds: true } : {}),
      userValues: layerValues(loaded.sources).values,
    });
    docs = showOnly(docs, flags.showOnly);
  } catch (err) {
    if (err instanceof ShowOnlyError) throw new UsageError(err.message, err.hint);
    // Values the linter let through but the chart cannot render: a problem, not a crash.
    if (err instanceof RenderError) return fail([{ severity: 'error', rule: 'render/values', path: '', message: err.message }]);
    // Two objects with one name: the names were truncated or overridden into each other.
    if (err instanceof DuplicateObjectError) return fail([{ severity: 'error', rule: 'render/duplicate-object', path: '', message: err.message, hint: NAME_HINT }]);
    if (err instanceof TemplateOutputError) throw new Error(`bug in a template: ${err.message}`);
    throw err;
  }
  const badNames = checkObjectNames(docs);
  if (badNames.length > 0) return fail(badNames);
  // Warnings go to stderr (stdout carries only manifests); infos are the linter's business.
  const warnings = problems.filter((p) => p.severity === 'warning');
  if (warnings.length > 0) app.io.stderr(formatProblems(warnings, { format: 'text', chalk, revision, inputs }));
  if (flags.outputDir) {
    let written: string[];
    try {
      written = writeOutputDir(resolve(app.io.cwd, flags.outputDir), filesFor(docs));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (!code) throw err;
      throw new UsageError(`--output-dir: cannot write under ${flags.outputDir} (${code})`, 'check that the directory is writable; nothing was written');
    }
    app.io.stderr(`wrote ${written.length} file${written.length === 1 ? '' : 's'} under ${flags.outputDir}\n`);
  } else {
    app.io.stdout(flags.output === 'json' ? toJson(docs) : toYaml(docs));
  }
  app.exitCode = 0;
}
