// The settings of every command: `.agentplat.yaml` found from the working directory up, under the
// command's flags. Loaded here once, so a CI lint and a GitOps render of one folder check the same
// revision with the same rule levels and decide alike, and `values`, `schema`, `docs` and `crds`
// print for the revision the folder is on.

import { EXIT_OK, EXIT_PROBLEMS, UsageError } from '../problems/errors.ts';
import { loadConfig, parseRuleFlag, type LintConfig, type RuleLevel } from '../lint/config.ts';
import { parseFormatName, type FormatName } from '../problems/format-names.ts';
import type { ProblemCounts } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import { revisionOption } from './options.ts';

/** The flags a linting command may have; a command without one leaves it undefined. */
export interface LintFlags {
  revision?: string | undefined;
  rule?: readonly string[] | undefined;
  strict?: boolean | undefined;
  maxWarnings?: string | undefined;
  format?: string | undefined;
}

export interface LintSettings {
  revision: Revision;
  rules: Record<string, RuleLevel>;
  strict: boolean;
  maxWarnings?: number;
  format: FormatName;
  /** The config file the settings came from, when there is one. */
  configFile?: string;
  /** `ignoreKeys` of the config file: unknown keys not reported. */
  ignoreKeys: readonly string[];
}

/** Reads `.agentplat.yaml` and lays the flags over it; any mistake in either is a UsageError. */
export function lintSettings(cwd: string, flags: LintFlags): LintSettings {
  const config = loadConfig(cwd);
  const revision = revisionFrom(flags.revision, config);
  const rules: Record<string, RuleLevel> = { ...config.rules };
  for (const arg of flags.rule ?? []) {
    const [id, level] = parseRuleFlag(arg);
    rules[id] = level;
  }
  const maxWarnings = flags.maxWarnings !== undefined ? parseMaxWarnings(flags.maxWarnings) : config.maxWarnings;
  return {
    revision,
    rules,
    strict: flags.strict === true || config.strict === true,
    ...(maxWarnings !== undefined ? { maxWarnings } : {}),
    format: flags.format !== undefined ? parseFormatName(flags.format) : (config.format ?? 'text'),
    ...(config.file !== undefined ? { configFile: config.file } : {}),
    ignoreKeys: config.ignoreKeys ?? [],
  };
}

/**
 * The chart revision of a command that takes -r/--revision: the flag, else `revision:` of
 * `.agentplat.yaml`, else B. Every such command reads it here.
 */
export function revisionSetting(cwd: string, flag: string | undefined): Revision {
  return revisionFrom(flag, loadConfig(cwd));
}

function revisionFrom(flag: string | undefined, config: LintConfig): Revision {
  return revisionOption(flag ?? config.revision ?? 'B', flag !== undefined ? '--revision' : `${config.file}: revision`);
}

/** 1 for errors, for warnings under strict, or for more warnings than allowed; else 0. */
export function verdict(counts: ProblemCounts, settings: Pick<LintSettings, 'strict' | 'maxWarnings'>, note: (msg: string) => void): number {
  if (counts.errors > 0) return EXIT_PROBLEMS;
  // `1 warning fails`, `2 warnings fail`.
  const warnings = (verb: string) => (counts.warnings === 1 ? `1 warning ${verb}s` : `${counts.warnings} warnings ${verb}`);
  if (settings.strict && counts.warnings > 0) {
    note(`${warnings('fail')} the run (--strict)`);
    return EXIT_PROBLEMS;
  }
  if (settings.maxWarnings !== undefined && counts.warnings > settings.maxWarnings) {
    note(`${warnings('exceed')} the limit of ${settings.maxWarnings} (--max-warnings)`);
    return EXIT_PROBLEMS;
  }
  return EXIT_OK;
}

function parseMaxWarnings(raw: string): number {
  if (!/^\d+$/.test(raw.trim())) throw new UsageError(`--max-warnings: expected a whole number, found "${raw}"`);
  return Number(raw.trim());
}
