// The work of `agentplat render`, loaded only when that command runs.
// On any lint error nothing goes to stdout (a pipe into kubectl must never get half a release).
import type { App } from '../app.ts';
import { chalkFor } from '../io.ts';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { layerOptionsFrom, parseApiVersion, parseKubeVersion, revisionOption } from '../options.ts';
import { EXIT_PROBLEMS, UsageError } from '../../errors.ts';
import { formatProblems } from '../../lint/formatters/index.ts';
import type { Problem } from '../../lint/problem.ts';
import { loadUserLayers } from '../../values/load.ts';
import { docYaml, filesFor, ShowOnlyError, toJson, writeOutputDir } from '../../render/output.ts';
import { checkReleaseNames, renderRelease } from '../../render/release.ts';
import type { RenderFlags } from './render.ts';

const WRITE_BATCH = 64 * 1024;

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
  checkReleaseNames(flags.releaseName, flags.namespace);

  const loaded = await loadUserLayers(layerOptionsFrom(flags), { cwd: app.io.cwd, readStdin: (maxBytes) => app.io.readStdin(maxBytes) });
  const chalk = chalkFor(app.io, 'stderr');
  const inputs = flags.values.length > 0 ? flags.values.map((f) => (f === '-' ? '<stdin>' : f)) : [loaded.sources.length > 0 ? 'command-line values' : `defaults of revision ${revision}`];
  // Errors and warnings only: infos are the linter's business (`agentplat lint` prints them).
  const fail = (problems: readonly Problem[]) => {
    app.io.stderr(formatProblems(problems.filter((p) => p.severity !== 'info'), { format: 'text', chalk, revision, inputs }));
    app.exitCode = EXIT_PROBLEMS;
  };
  if (loaded.problems.some((p) => p.severity === 'error')) return fail(loaded.problems);
  let result;
  try {
    result = renderRelease({
      revision,
      layers: loaded.sources,
      releaseName: flags.releaseName,
      namespace: flags.namespace,
      apiVersions,
      ...(kubeVersion ? { kubeVersion } : {}),
      ...(flags.skipCrds ? { skipCrds: true } : {}),
      showOnly: flags.showOnly,
    });
  } catch (err) {
    if (err instanceof ShowOnlyError) throw new UsageError(err.message, err.hint);
    throw err;
  }
  const problems = [...loaded.problems, ...result.problems];
  const docs = result.docs;
  if (!docs) return fail(problems);
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
    if (flags.output === 'json') app.io.stdout(toJson(docs));
    // Documents are written in batches of about 64 kB: few writes, and the release (the CRDs are
    // most of its 700 kB) is never held whole as one string and one buffer.
    else {
      let batch = '';
      for (const d of docs) {
        batch += docYaml(d);
        if (batch.length >= WRITE_BATCH) {
          app.io.stdout(batch);
          batch = '';
        }
      }
      if (batch !== '') app.io.stdout(batch);
    }
  }
  app.exitCode = 0;
}
