// The work of `agentplat lint`, loaded only when that command runs.
import type { App } from '../app.ts';
import { chalkFor } from '../io.ts';
import { packageVersion } from '../program.ts';
import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../../errors.ts';
import { applyRuleLevels, loadConfig, parseRuleFlag, ruleCatalog, type RuleLevel } from '../../lint/config.ts';
import { formatReport, parseFormatName } from '../../lint/formatters/index.ts';
import { lintValues } from '../../lint/lint.ts';
import { didYouMean } from '../../lint/nearest.ts';
import { countProblems, type Problem, type ProblemCounts } from '../../lint/problem.ts';
import { buildReport } from '../../lint/report.ts';
import { expandTargets, lintTargets } from '../../lint/targets.ts';
import { loadUserLayers, readUserFile, type LayerOptions } from '../../values/load.ts';
import { parseKubeVersion, revisionOption } from '../options.ts';
import type { LintOptions } from './lint.ts';

export async function runLint(app: App, files: string[], opts: LintOptions): Promise<number> {
  const { io } = app;
  const config = loadConfig(io.cwd);
  const revision = revisionOption(opts.revision ?? config.revision ?? 'B', opts.revision !== undefined ? '--revision' : `${config.file}: revision`);
  const format = opts.format !== undefined ? parseFormatName(opts.format) : (config.format ?? 'text');
  const maxWarnings = opts.maxWarnings !== undefined ? parseMaxWarnings(opts.maxWarnings) : config.maxWarnings;
  const strict = opts.strict === true || config.strict === true;
  const kubeVersion = opts.kubeVersion !== undefined ? parseKubeVersion(opts.kubeVersion) : undefined;
  const rules: Record<string, RuleLevel> = { ...config.rules };
  for (const arg of opts.rule) {
    const [id, level] = parseRuleFlag(arg);
    rules[id] = level;
  }
  const catalog = ruleCatalog();
  for (const id of Object.keys(rules)) {
    if (catalog.has(id)) continue;
    const near = didYouMean(id, [...catalog.keys()]);
    io.stderr(`agentplat: warning: no rule has the id ${id}; its setting has no effect${near ? ` (${near})` : ''}\n`);
  }

  const layerOpts: LayerOptions = { values: opts.values, set: opts.set, setString: opts.setString, setJson: opts.setJson, setFile: opts.setFile };
  let problems: Problem[];
  let inputs: string[];
  if (files.length === 0) {
    const loaded = await loadUserLayers(layerOpts, io);
    const { problems: found } = lintValues({ revision, layers: loaded.sources, ...(kubeVersion ? { kubeVersion } : {}) });
    problems = [...loaded.problems, ...found];
    inputs = opts.values.map((f) => (f === '-' ? '<stdin>' : f));
    if (inputs.length === 0) inputs = [loaded.sources.length > 0 ? 'command-line values' : `defaults of revision ${revision}`];
  } else {
    const targets = expandTargets(files, io.cwd);
    if (targets.includes('-') && opts.values.includes('-')) throw new UsageError('standard input (-) can be read only once');
    const base = await loadUserLayers({ values: opts.values }, io);
    const top = await loadUserLayers({ set: opts.set, setString: opts.setString, setJson: opts.setJson, setFile: opts.setFile }, io);
    const texts = [];
    for (const t of targets) texts.push(await readUserFile(t, io));
    const found = lintTargets({ revision, base: base.sources, top: top.sources, targets: texts, ...(kubeVersion ? { kubeVersion } : {}) });
    problems = [...base.problems, ...top.problems, ...found];
    inputs = texts.map((t) => t.name);
  }

  problems = applyRuleLevels(problems, rules);
  const counts = countProblems(problems);
  const shown = opts.quiet ? problems.filter((p) => p.severity === 'error') : problems;
  // The summary counts every finding, also those --quiet does not list (the exit code counts them).
  const report = buildReport({ problems: shown, inputs, revision, toolVersion: packageVersion(), rules: catalog, counts });
  io.stdout(formatReport(report, { format, chalk: chalkFor(io, 'stdout'), strict }));
  return exitCode(counts, { strict, maxWarnings }, (msg) => io.stderr(`agentplat: ${msg}\n`));
}

/** 1 for errors, for warnings under --strict, or for more warnings than allowed; else 0. */
export function exitCode(counts: ProblemCounts, opts: { strict: boolean; maxWarnings?: number | undefined }, note: (msg: string) => void): number {
  if (counts.errors > 0) return EXIT_PROBLEMS;
  if (opts.strict && counts.warnings > 0) {
    note(`${counts.warnings} warning${counts.warnings === 1 ? '' : 's'} fail the run (--strict)`);
    return EXIT_PROBLEMS;
  }
  if (opts.maxWarnings !== undefined && counts.warnings > opts.maxWarnings) {
    note(`${counts.warnings} warning${counts.warnings === 1 ? '' : 's'} exceed the limit of ${opts.maxWarnings} (--max-warnings)`);
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}


function parseMaxWarnings(raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--max-warnings: expected a whole number, found "${raw}"`);
  return Number(raw.trim());
}

