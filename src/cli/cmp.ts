// `agentplat cmp generate [render flags…]`: the generate command of Argo CD's config management
// plugin, without a shell. Argo CD's cmp-server runs it in the Application's source folder with the
// Application in its environment; this turns that environment into the `render` command line it
// stands for, and the CLI runs that render (one implementation: what `render` prints is what
// Argo CD applies). The environment, as Argo CD sets it for a sidecar plugin:
//   ARGOCD_APP_NAME, ARGOCD_APP_NAMESPACE     the Application's name and destination namespace
//   ARGOCD_APP_PARAMETERS                     the plugin parameters as JSON: [{name, string|array|map}]
//   PARAM_<NAME>, PARAM_<NAME>_<i>            the same parameters one by one (read when the JSON is absent)
//   ARGOCD_ENV_<NAME>                         the Application's plugin env entries
//   KUBE_VERSION, KUBE_API_VERSIONS           the destination cluster's version and APIs (comma-separated)
import { UsageError } from '../problems/errors.ts';

/** The parameters the plugin announces (recipes/argocd/image/plugin.yaml), each with its render flag. */
export const CMP_PARAMETERS = ['revision', 'release-name', 'values-files'] as const;
type Name = (typeof CMP_PARAMETERS)[number];

export const CMP_HELP =
  'Usage: agentplat cmp generate [render options...]\n\n' +
  "The generate command of Argo CD's config management plugin (no shell needed): renders the chart for the\n" +
  "Application that Argo CD's cmp-server describes in the environment, in the Application's source folder.\n\n" +
  'Parameters (ARGOCD_APP_PARAMETERS, else PARAM_*), then env entries (ARGOCD_ENV_*), then the default:\n' +
  '  revision       --revision       ARGOCD_ENV_REVISION        default: render\'s (.agentplat.yaml, else B)\n' +
  '  release-name   --release-name   ARGOCD_ENV_RELEASE_NAME    default: ARGOCD_APP_NAME\n' +
  '  values-files   -f (each)        ARGOCD_ENV_VALUES_FILES    default: values.yaml (env entry: comma-separated)\n' +
  'Always: --protect-crds, --namespace ARGOCD_APP_NAMESPACE, --kube-version KUBE_VERSION, --api-versions for\n' +
  'each of KUBE_API_VERSIONS. Options after `generate` are passed to render after these.\n' +
  'Exit codes: those of render; 2 also when the parameters are not what the plugin announces.\n';

interface Parameter {
  name: string;
  string?: string;
  array?: string[];
}

/** The parameters of ARGOCD_APP_PARAMETERS, checked; a wrong one is refused by name. */
function fromJson(text: string): Parameter[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`cmp generate: ARGOCD_APP_PARAMETERS is not JSON: ${(err as Error).message}`, 'Argo CD sets it to a JSON list like [{"name":"revision","string":"B"}]; unset it to use PARAM_* instead');
  }
  if (!Array.isArray(parsed)) throw new UsageError('cmp generate: ARGOCD_APP_PARAMETERS must be a JSON list of parameters', 'e.g. [{"name":"revision","string":"B"},{"name":"values-files","array":["values.yaml"]}]');
  return parsed.map((p: unknown, i) => {
    const o = p as Record<string, unknown>;
    if (typeof o !== 'object' || o === null || typeof o.name !== 'string') throw new UsageError(`cmp generate: ARGOCD_APP_PARAMETERS[${i}] has no "name"`, 'each parameter is an object with a name and a string or array');
    if (o.string !== undefined && typeof o.string !== 'string') throw new UsageError(`cmp generate: parameter "${o.name}" (ARGOCD_APP_PARAMETERS[${i}]): "string" must be a string`, 'quote the value in the Application');
    if (o.array !== undefined && !(Array.isArray(o.array) && o.array.every((s) => typeof s === 'string'))) throw new UsageError(`cmp generate: parameter "${o.name}" (ARGOCD_APP_PARAMETERS[${i}]): "array" must be a list of strings`, 'list the values files as strings');
    return { name: o.name, string: o.string as string | undefined, array: o.array as string[] | undefined };
  });
}

/** The parameters as PARAM_<NAME> variables (PARAM_VALUES_FILES_0, _1, … for the list). */
function fromParamVars(env: NodeJS.ProcessEnv): Parameter[] {
  const params: Parameter[] = [];
  for (const name of CMP_PARAMETERS) {
    const key = `PARAM_${name.toUpperCase().replace(/-/g, '_')}`;
    if (name === 'values-files') {
      const array: string[] = [];
      for (let i = 0; env[`${key}_${i}`] !== undefined; i++) array.push(env[`${key}_${i}`]!);
      if (array.length > 0) params.push({ name, array });
    } else if (env[key] !== undefined) params.push({ name, string: env[key] });
  }
  return params;
}

/** The `render` command line (without the word `render`) that `cmp generate REST…` stands for in `env`. */
export function cmpRenderArgs(rest: readonly string[], env: NodeJS.ProcessEnv): string[] {
  const params = env.ARGOCD_APP_PARAMETERS !== undefined && env.ARGOCD_APP_PARAMETERS !== '' ? fromJson(env.ARGOCD_APP_PARAMETERS) : fromParamVars(env);
  const given = new Map<Name, Parameter>();
  for (const p of params) {
    if (!(CMP_PARAMETERS as readonly string[]).includes(p.name)) throw new UsageError(`cmp generate: the Application sets parameter "${p.name}", which the agentplat plugin does not take`, `the plugin's parameters are ${CMP_PARAMETERS.join(', ')}; remove "${p.name}" from spec.source.plugin.parameters`);
    const expectsArray = p.name === 'values-files';
    if (expectsArray ? p.string !== undefined : p.array !== undefined) throw new UsageError(`cmp generate: parameter "${p.name}" must be ${expectsArray ? 'an array' : 'a string'}`, expectsArray ? `write it as { name: ${p.name}, array: [values.yaml, …] }` : `write it as { name: ${p.name}, string: … }`);
    given.set(p.name as Name, p);
  }
  const str = (name: Name, envName: string) => (given.get(name)?.string || undefined) ?? (env[`ARGOCD_ENV_${envName}`] || undefined);
  const commaList = (text: string | undefined) => (text ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  const args = ['--protect-crds'];
  const revision = str('revision', 'REVISION');
  if (revision !== undefined) args.push('--revision', revision);
  if (env.ARGOCD_APP_NAMESPACE) args.push('--namespace', env.ARGOCD_APP_NAMESPACE);
  const release = str('release-name', 'RELEASE_NAME') ?? (env.ARGOCD_APP_NAME || undefined);
  if (release !== undefined) args.push('--release-name', release);
  const files = given.get('values-files')?.array ?? (commaList(env.ARGOCD_ENV_VALUES_FILES).length > 0 ? commaList(env.ARGOCD_ENV_VALUES_FILES) : ['values.yaml']);
  for (const f of files) args.push('-f', f);
  for (const v of commaList(env.KUBE_API_VERSIONS)) args.push('--api-versions', v);
  if (env.KUBE_VERSION) args.push('--kube-version', env.KUBE_VERSION);
  return [...args, ...rest];
}

/**
 * The command line `agentplat cmp …` runs: `render …` for `cmp generate …`, or undefined when it
 * asked for help (printed by the caller from CMP_HELP).
 */
export function cmpCommandLine(argv: readonly string[], env: NodeJS.ProcessEnv): string[] | undefined {
  const [sub, ...rest] = argv;
  if (sub === undefined || sub === '--help' || sub === '-h' || sub === 'help') return undefined;
  if (sub !== 'generate') throw new UsageError(`cmp: unknown subcommand "${sub}"`, 'the only one is `agentplat cmp generate` (run in the Application folder by Argo CD)');
  if (rest.includes('--help') || rest.includes('-h')) return undefined;
  return ['render', ...cmpRenderArgs(rest, env)];
}
