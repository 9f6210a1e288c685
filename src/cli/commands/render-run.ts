// The work of `agentplat render`, loaded only when that command runs.
// On any lint error nothing goes to stdout (a pipe into kubectl must never get half a release).
import type { App } from '../app.ts';
import { lintSettings, verdict } from '../lint-settings.ts';
import { problemReporter } from '../problem-report.ts';
import { layerOptionsFrom, MANIFEST_FORMATS, outputFormat } from '../options.ts';
import type { LayerFlags } from '../options.ts';
import { postRender } from '../post-renderer.ts';
import { packageVersion } from '../../package-version.ts';
import { EXIT_PROBLEMS, UsageError } from '../../problems/errors.ts';
import { countProblems } from '../../problems/problem.ts';
import type { RenderedDoc } from '../../model/objects.ts';
import { docYaml, filesFor, toJson } from '../../render/manifests.ts';
import { resolveOutputDir, writeOutputDir, writeSelectedFiles } from '../../output/output-dir.ts';
import { renderOperation } from '../../pipeline/operations.ts';

export interface RenderFlags extends LayerFlags {
  revision?: string;
  namespace: string;
  namespaceDefaulted?: boolean;
  releaseName: string;
  apiVersions: string[];
  kubeVersion?: string;
  showOnly: string[];
  output: string;
  outputDir?: string;
  overwrite?: boolean;
  skipCrds?: boolean;
  /** Annotate the CRDs so that GitOps tools never prune them (render/crd-protect.ts). */
  protectCrds?: boolean;
  rule: string[];
  strict?: boolean;
  /** `[KIND/]NAME` of the ApplySet parent (render and template). */
  applyset?: string;
  /** template only: helm's spelling of the same pipeline. */
  labels?: string[];
  postRenderer?: string;
  postRendererArgs?: string[];
  /** Where the release name came from, for messages (default --release-name). */
  releaseNameOrigin?: string;
  /** How this command leaves the CRDs out, for hints. */
  crdsAdvice?: string;
}

const WRITE_BATCH = 64 * 1024;

export async function runRender(flags: RenderFlags, app: App): Promise<void> {
  const settings = lintSettings(app.io.cwd, { revision: flags.revision, rule: flags.rule, strict: flags.strict });
  const { revision } = settings;
  const output = outputFormat(flags.output, MANIFEST_FORMATS);
  if (flags.outputDir && output !== 'yaml') throw new UsageError('--output-dir writes one YAML file per source; it cannot be combined with -o json', 'drop -o json, or print the List to stdout without --output-dir');
  if (flags.overwrite && !flags.outputDir) throw new UsageError('--overwrite applies to --output-dir only', 'add --output-dir DIR, or drop --overwrite');
  // With --show-only the folder is not replaced: the selected files are written into it, the rest stays.
  const selected = flags.showOnly.length > 0;
  if (flags.overwrite && selected) {
    throw new UsageError('--overwrite cannot be combined with --show-only', 'with --show-only, --output-dir writes only the selected files and deletes nothing, so there is nothing to overwrite: drop --overwrite (to replace the whole folder, render without --show-only)');
  }
  // Checked before rendering, so a folder that cannot be used fails at once.
  const outputDir = flags.outputDir ? resolveOutputDir(flags.outputDir, app.io.cwd, { overwrite: flags.overwrite === true, selected }) : undefined;
  if (flags.postRendererArgs && flags.postRendererArgs.length > 0 && !flags.postRenderer) {
    throw new UsageError('--post-renderer-args applies to --post-renderer only', 'add --post-renderer CMD, or drop --post-renderer-args');
  }
  const notes: string[] = [];
  const release = await renderOperation({
    revision,
    layers: layerOptionsFrom(flags),
    reader: { cwd: app.io.cwd, readStdin: (maxBytes: number) => app.io.readStdin(maxBytes) },
    releaseName: flags.releaseName,
    ...(flags.releaseNameOrigin ? { releaseNameOrigin: flags.releaseNameOrigin } : {}),
    namespace: flags.namespace,
    ...(flags.namespaceDefaulted ? { namespaceDefaulted: true } : {}),
    apiVersions: flags.apiVersions,
    ...(flags.kubeVersion !== undefined ? { kubeVersion: flags.kubeVersion } : {}),
    ...(flags.skipCrds ? { skipCrds: true } : {}),
    ...(flags.crdsAdvice ? { crdsAdvice: flags.crdsAdvice } : {}),
    showOnly: flags.showOnly,
    rules: settings.rules,
    ...(settings.ignoreKeys ? { ignoreKeys: settings.ignoreKeys } : {}),
    ...(flags.protectCrds ? { protectCrds: true } : {}),
    ...(flags.applyset !== undefined ? { applySet: flags.applyset, applySetTooling: `agentplat/v${packageVersion()}` } : {}),
    labels: flags.labels ?? [],
    // --strict and --max-warnings refuse the warnings as lint does: nothing is printed then.
    accept: (problems) => verdict(countProblems(problems), settings, (msg) => notes.push(`agentplat: ${msg}\n`)) === 0,
    ...(flags.postRenderer ? { postRender: (docs: RenderedDoc[]) => postRender(docs, flags.postRenderer!, flags.postRendererArgs ?? [], app.io) } : {}),
  });
  const report = await problemReporter(app, revision, release.inputs);
  const docs = release.docs;
  if (!docs) {
    report(release.problems);
    app.io.stderr(notes.join(''));
    app.exitCode = EXIT_PROBLEMS;
    return;
  }
  // Warnings go to stderr (stdout carries only manifests); infos are the linter's business.
  const warnings = release.problems.filter((p) => p.severity === 'warning');
  if (warnings.length > 0) report(warnings);
  if (outputDir) {
    const onWait = (m: string) => app.io.stderr(m);
    const written = selected ? await writeSelectedFiles(outputDir, filesFor(docs), { onWait }) : await writeOutputDir(outputDir, filesFor(docs), { overwrite: flags.overwrite === true, onWait });
    app.io.stderr(`wrote ${written.length} file${written.length === 1 ? '' : 's'} under ${outputDir.shown}\n`);
  } else {
    if (output === 'json') app.io.stdout(toJson(docs));
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

