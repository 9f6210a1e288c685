// How a lint run is configured: the `.agentplat.yaml` file found from the working directory
// upward, `--rule ID=off|info|warn|error` overrides, and the catalog of rule ids they may name.
// Command-line flags win over the file; the command merges the two.

import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node } from 'yaml';
import { splitPath } from '../values/merge.ts';
import { UsageError } from '../problems/errors.ts';
import { placeYamlErrors } from '../yaml/errors.ts';
import { parseRevision, type Revision } from '../chart/revisions.ts';
import { isFormatName, FORMAT_NAMES, type FormatName } from '../problems/format-names.ts';
import type { Problem, Severity } from '../problems/problem.ts';
import { didYouMean } from '../problems/nearest.ts';
import { RULES } from './rules/index.ts';
import { GITOPS_ERROR_RULES, GITOPS_RULES } from '../gitops/rules.ts';

export const CONFIG_FILE_NAMES = ['.agentplat.yaml', '.agentplat.yml'] as const;

export type RuleLevel = 'off' | 'info' | 'warn' | 'error';
const RULE_LEVELS: readonly RuleLevel[] = ['off', 'info', 'warn', 'error'];

export interface LintConfig {
  /** Where the settings came from (for messages); undefined when no file was found. */
  file?: string;
  rules: Record<string, RuleLevel>;
  maxWarnings?: number;
  strict?: boolean;
  revision?: Revision;
  format?: FormatName;
  /** Patterns of values keys that are not the chart's and are not reported (`x-*`, YAML anchor holders). */
  ignoreKeys?: string[];
  /** `editor`: the release `agentplat lsp` lints an open values file in (no command reads it). */
  editor?: EditorSettings;
}

/** The release an editor's values file belongs to: the layers under it and the names lint is given on the command line. */
export interface EditorSettings {
  /** Values files layered in this order (paths relative to the config file's folder), as -f gives them. */
  values?: string[];
  namespace?: string;
  releaseName?: string;
  apiVersions?: string[];
  kubeVersion?: string;
}

const EDITOR_SETTINGS = ['values', 'namespace', 'releaseName', 'apiVersions', 'kubeVersion'] as const;

/** Ids the linter reports that no cross-field rule module lists: parsing and schema checks. */
const BUILT_IN_RULES: Record<string, string> = {
  'values/schema': 'Values must have the type, enum and format the revision schema gives',
  'values/unknown-key': 'Every values key must exist in the chosen revision',
  'values/yaml-syntax': 'A values file must be valid YAML',
  'values/duplicate-key': 'A key may appear only once in a map',
  'values/multiple-documents': 'A values file holds one YAML document',
  'values/too-deep': 'Values nest at most 64 levels',
  'values/too-large': 'A values input is of a bounded size (a values file of this chart is a few kilobytes)',
  'values/yaml-aliases': 'A values file expands a bounded number of aliases',
  'values/not-a-map': 'The top level of a values file is a map',
  'values/set-syntax': 'A --set flag argument follows the key=value grammar',
  'values/same-as-default': 'A key the values set to the value the chart gives it anyway (a note; lint, unless --no-effects)',
};

/** Every rule id with a one-line description (SARIF rule tables, `--rule` checks). */
export function ruleCatalog(): Map<string, string> {
  const out = new Map<string, string>(Object.entries(BUILT_IN_RULES));
  for (const module of RULES) for (const { id, description } of module.ids) out.set(id, description.replace(/\.$/, ''));
  // A Flux post-renderer's warnings; its errors fail the release, as the render rules do, and are not set by --rule.
  for (const [id, description] of Object.entries(GITOPS_RULES)) if (!(GITOPS_ERROR_RULES as readonly string[]).includes(id)) out.set(id, description);
  return out;
}

/** The nearest config file from `cwd` upward, or undefined. */
export function findConfigFile(cwd: string): string | undefined {
  let dir = cwd;
  for (;;) {
    for (const name of CONFIG_FILE_NAMES) {
      const candidate = join(dir, name);
      if (existsSync(candidate)) return candidate;
    }
    const up = dirname(dir);
    if (up === dir) return undefined;
    dir = up;
  }
}

/** Reads the nearest config file; `{rules: {}}` when there is none. */
export function loadConfig(cwd: string): LintConfig {
  const file = findConfigFile(cwd);
  if (!file) return { rules: {} };
  const shown = relative(cwd, file) || file;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`${shown}: cannot read the config file (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  return parseConfig(text, shown);
}

/** The settings of the config file, each a case of parseConfig. */
const SETTINGS = ['rules', 'maxWarnings', 'strict', 'revision', 'format', 'ignoreKeys', 'editor'] as const;

/** The hint for an unknown setting: the near miss if any, and every setting. */
function settingHint(key: string): string {
  const near = didYouMean(key, SETTINGS);
  return near === undefined ? `settings: ${SETTINGS.join(', ')}` : `${near} (the settings are ${SETTINGS.join(', ')})`;
}

/** Parses config text; every mistake is a UsageError that names `file:line:col`. */
export function parseConfig(text: string, file: string): LintConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, logLevel: 'error' });
  const fail = (offset: number | undefined, message: string, hint?: string): never => {
    const at = offset === undefined ? file : `${file}:${lineCounter.linePos(offset).line}:${lineCounter.linePos(offset).col}`;
    throw new UsageError(`${at}: ${message}`, hint);
  };
  const firstError = placeYamlErrors(doc, text)[0];
  if (firstError) fail(firstError.offset, firstError.message, firstError.hint);
  const config: LintConfig = { file, rules: {} };
  const root = doc.contents as Node | null;
  if (root === null || (isScalar(root) && root.value === null)) return config;
  if (!isMap(root)) return fail(root.range?.[0], 'the config file must be a map of settings', 'e.g. `rules: {values/pdb-blocks-eviction: off}`');
  for (const pair of root.items) {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : '';
    const value = pair.value as Node | null;
    const at = (value?.range ?? keyNode.range)?.[0];
    const scalar = isScalar(value) ? value.value : undefined;
    switch (key) {
      case 'rules': {
        if (!isMap(value)) return fail(at, '`rules` must be a map of rule id to off, info, warn or error');
        for (const rp of value.items) {
          const id = isScalar(rp.key) ? String(rp.key.value) : '';
          const lv = isScalar(rp.value) ? rp.value.value : undefined;
          const level = typeof lv === 'boolean' && lv === false ? 'off' : lv;
          const unknown = unknownRule(id);
          if (unknown) fail((rp.key as Node).range?.[0], unknown.message, unknown.hint);
          if (typeof level !== 'string' || !RULE_LEVELS.includes(level as RuleLevel))
            fail((rp.value as Node | null)?.range?.[0] ?? at, `rule ${id}: level must be off, info, warn or error, found ${JSON.stringify(lv ?? null)}`);
          config.rules[id] = level as RuleLevel;
        }
        break;
      }
      case 'maxWarnings':
        if (typeof scalar !== 'number' || !Number.isInteger(scalar) || scalar < 0) fail(at, '`maxWarnings` must be a whole number, 0 or more');
        config.maxWarnings = scalar as number;
        break;
      case 'strict':
        if (typeof scalar !== 'boolean') fail(at, '`strict` must be true or false');
        config.strict = scalar as boolean;
        break;
      case 'revision': {
        const rev = typeof scalar === 'string' ? parseRevision(scalar) : undefined;
        if (!rev) return fail(at, `\`revision\` must be A or B, found ${JSON.stringify(scalar ?? null)}`);
        config.revision = rev;
        break;
      }
      case 'ignoreKeys': {
        if (!isSeq(value)) return fail(at, '`ignoreKeys` must be a list of key patterns', "e.g. `ignoreKeys: ['x-*']`");
        config.ignoreKeys = value.items.map((item) => {
          const pattern = isScalar(item) && typeof item.value === 'string' ? item.value : undefined;
          const why = pattern === undefined ? 'must be a string' : keyPatternProblem(pattern);
          return why ? fail((item as Node).range?.[0] ?? at, `ignoreKeys: ${JSON.stringify(isScalar(item) ? item.value : null)} ${why}`, "a pattern is a key or a dotted path, `*` for any characters: 'x-*', 'controller.x-*'") : pattern!;
        });
        break;
      }
      case 'format':
        if (typeof scalar !== 'string' || !isFormatName(scalar)) return fail(at, `unknown format ${JSON.stringify(scalar ?? null)}`, `valid formats: ${FORMAT_NAMES.join(', ')}`);
        config.format = scalar;
        break;
      case 'editor':
        config.editor = parseEditor(value, at, fail);
        break;
      default:
        fail(keyNode.range?.[0], `unknown setting \`${key}\``, settingHint(key));
    }
  }
  return config;
}

/** `editor:` of the config file: a map of the settings EDITOR_SETTINGS names. */
function parseEditor(value: Node | null, at: number | undefined, fail: (offset: number | undefined, message: string, hint?: string) => never): EditorSettings {
  const example = 'e.g. `editor: {values: [values.yaml, prod.yaml], namespace: agents}`';
  if (!isMap(value)) return fail(at, '`editor` must be a map of settings', example);
  const out: EditorSettings = {};
  for (const pair of value.items) {
    const keyNode = pair.key as Node;
    const key = isScalar(keyNode) ? String(keyNode.value) : '';
    const item = pair.value as Node | null;
    const where = (item?.range ?? keyNode.range)?.[0];
    const text = (n: Node | null, what: string): string => (isScalar(n) && typeof n.value === 'string' && n.value !== '' ? n.value : fail(n?.range?.[0] ?? where, `${what}\`editor.${key}\` must be a non-empty string`));
    const list = (): string[] => (isSeq(item) ? item.items.map((n) => text(n as Node, 'each item of ')) : fail(where, `\`editor.${key}\` must be a list of strings`, example));
    switch (key) {
      case 'values':
        out.values = list();
        break;
      case 'apiVersions':
        out.apiVersions = list();
        break;
      case 'namespace':
      case 'releaseName':
      case 'kubeVersion':
        out[key] = text(item, '');
        break;
      default: {
        const near = didYouMean(key, EDITOR_SETTINGS);
        fail(keyNode.range?.[0], `unknown setting \`editor.${key}\``, `${near ? `${near} ` : ''}(the editor settings are ${EDITOR_SETTINGS.join(', ')})`);
      }
    }
  }
  return out;
}

function checkRuleId(id: string): boolean {
  return /^[a-z0-9-]+(\/[a-z0-9-]+)+$/.test(id);
}

/**
 * Why `id` names no rule, or undefined when it does. A setting for a rule that does not exist
 * would change nothing, silently: a typo in `--rule` or the config file must not pass a run.
 */
function unknownRule(id: string): { message: string; hint: string } | undefined {
  if (!checkRuleId(id)) return { message: `\`${id}\` is not a rule id`, hint: 'rule ids look like `values/pdb-blocks-eviction`' };
  const catalog = ruleCatalog();
  if (catalog.has(id)) return undefined;
  const near = didYouMean(id, [...catalog.keys()]);
  return { message: `no rule has the id \`${id}\``, hint: near ?? 'docs/rules.md lists every rule id' };
}

/** Parses one `--rule ID=off|info|warn|error` argument; the id must name a rule. */
export function parseRuleFlag(arg: string): [string, RuleLevel] {
  const eq = arg.lastIndexOf('=');
  const id = eq < 0 ? arg : arg.slice(0, eq);
  const level = eq < 0 ? '' : arg.slice(eq + 1);
  if (!checkRuleId(id) || !RULE_LEVELS.includes(level as RuleLevel)) {
    throw new UsageError(`--rule ${JSON.stringify(arg)}: expected ID=off|info|warn|error`, 'for example --rule values/pdb-blocks-eviction=off');
  }
  const unknown = unknownRule(id);
  if (unknown) throw new UsageError(`--rule ${JSON.stringify(arg)}: ${unknown.message}`, unknown.hint);
  return [id, level as RuleLevel];
}

const LEVEL_SEVERITY: Record<Exclude<RuleLevel, 'off'>, Severity> = { info: 'info', warn: 'warning', error: 'error' };

/**
 * Which notes about untouched defaults to report: those of rules given a level other than off
 * (a user who set a level asked for the rule), or all of them (`--verbose`).
 */
export function askedFor(rules: Readonly<Record<string, RuleLevel>>, verbose = false): (rule: string) => boolean {
  return (rule) => verbose || (Object.prototype.hasOwnProperty.call(rules, rule) && rules[rule] !== 'off');
}

/** Why a key pattern of `ignoreKeys` is unusable, or undefined. */
function keyPatternProblem(pattern: string): string | undefined {
  if (pattern.split(/(?<!\\)\./).some((seg) => seg === '')) return 'is empty or has an empty segment';
  if (splitPath(pattern).some((seg) => typeof seg === 'number')) return 'has a list index; patterns name map keys';
  return undefined;
}

/**
 * Whether a dotted values path is named by one of `patterns` (or lies below one): a pattern is a
 * dotted path whose segments match key by key, `*` standing for any characters and `?` for one.
 */
export function keyIgnored(patterns: readonly string[], path: string): boolean {
  if (patterns.length === 0) return false;
  const segs = splitPath(path);
  return patterns.some((pattern) => {
    const parts = splitPath(pattern);
    return parts.length <= segs.length && parts.every((part, i) => typeof segs[i] === 'string' && globToRegExp(String(part)).test(segs[i] as string));
  });
}

function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.replace(/[.*+?^${}()|[\]\\]/g, (c) => (c === '*' ? '[\\s\\S]*' : c === '?' ? '[\\s\\S]' : `\\${c}`))}$`);
}

/** The findings about a key that `ignoreKeys` turns off: it is not the chart's, and not meant to change the render. */
const IGNORABLE = new Set(['values/unknown-key', 'values/no-effect', 'values/same-as-default']);

/**
 * Applies per-rule levels: `off` drops a rule's problems, `warn`/`error` set their severity. An
 * unknown key that `ignoreKeys` names is no problem at all (helm ignores keys a chart does not read).
 */
export function applyRuleLevels(problems: readonly Problem[], rules: Readonly<Record<string, RuleLevel>>, ignoreKeys: readonly string[] = []): Problem[] {
  const out: Problem[] = [];
  for (const p of problems) {
    if (IGNORABLE.has(p.rule) && keyIgnored(ignoreKeys, p.path)) continue;
    const level = Object.prototype.hasOwnProperty.call(rules, p.rule) ? rules[p.rule] : undefined;
    if (level === 'off') continue;
    out.push(level ? { ...p, severity: LEVEL_SEVERITY[level] } : p);
  }
  return out;
}

