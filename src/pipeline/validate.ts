// The `validate` operations. validateOperation checks Kubernetes manifests, core kinds against
// the OpenAPI of a Kubernetes release, custom resources against their CRDs: files, directories,
// globs or standard input (the CLI), or texts given as data (the API). It reads one input at a time
// as the caller asks for the next, so a run over many files keeps only counts. validateClusterOperation
// checks the agentplat.dev resources of a live cluster against a revision's CRDs. Both return data;
// the CLI (cli/commands/validate.ts, validate-cluster-run.ts) formats it.
import { UsageError } from '../problems/errors.ts';
import type { Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';
import type { InputReader } from '../values/load.ts';
import type { ResourceInput, ValidateResult } from '../kube-check/validate.ts';
import type { SkippedDoc } from '../kube-check/object.ts';
import type { ClusterClient } from '../cluster/client.ts';
import type { ClusterValidateResult } from '../cluster/validate-cluster.ts';
import { validateKubeVersion } from './request.ts';

export interface ValidateRequest {
  /** Paths as given (files, directories, globs, - for standard input), or texts as data. */
  inputs: readonly (string | ResourceInput)[];
  reader: InputReader;
  /** --kube-version as given: a release validate has schemas of (default the newest). */
  kubeVersion?: string;
  /** Documents of kinds agentplat has no schema for are errors. */
  strict?: boolean;
  /** A run that checks no resource passes. */
  allowEmpty?: boolean;
  /** Called for each document that is not checked (no schema of its kind). */
  onSkip?: (doc: SkippedDoc) => void;
}

export interface ValidateRun {
  /** Every input's name (a path, `<stdin>`, or the name given with a text), in the order checked. */
  names: string[];
  /** Reads and checks each input in turn: its problems, in the order found. */
  files(): AsyncGenerator<{ name: string; problems: Problem[] }>;
  /** After the inputs: the run's own problems (--strict's, nothing checked) and its counts. */
  finish(): ValidateResult;
}

/**
 * Checks the request's names and opens every path once before anything is read: a missing file
 * late in the list stops the run before the problems of the files before it are known.
 */
export async function validateOperation(req: ValidateRequest): Promise<ValidateRun> {
  const kubeVersion = validateKubeVersion(req.kubeVersion);
  const inputs = await expandInputs(req.inputs, req.reader.cwd);
  const paths = inputs.filter((i): i is string => typeof i === 'string');
  const { checkOpenable, readUserFile, RESOURCES_INPUT } = await import('../values/load.ts');
  if (paths.length > 0) for (const p of paths) checkOpenable(p, req.reader, RESOURCES_INPUT);
  const { ResourceValidation } = await import('../kube-check/validate.ts');
  const validation = new ResourceValidation({
    ...(req.onSkip ? { onSkip: req.onSkip } : {}),
    ...(req.strict ? { strict: true } : {}),
    ...(req.allowEmpty ? { allowEmpty: true } : {}),
    kubeVersion,
  });
  return {
    names: inputs.map((i) => (typeof i !== 'string' ? i.file : i === '-' ? '<stdin>' : i)),
    async *files() {
      for (const input of inputs) {
        const { name, text } = typeof input === 'string' ? await readUserFile(input, req.reader, RESOURCES_INPUT) : { name: input.file, text: input.text };
        yield { name, problems: validation.check({ file: name, text }) };
      }
    },
    finish: () => validation.finish(),
  };
}

/** The inputs to read, in order, each path once: directories walked, globs expanded. */
async function expandInputs(inputs: readonly (string | ResourceInput)[], cwd: string): Promise<(string | ResourceInput)[]> {
  if (inputs.every((i) => typeof i !== 'string')) return [...inputs];
  const [{ expandGlob, hasGlob }, { walkResourceDir }] = await Promise.all([import('../glob.ts'), import('../kube-check/glob.ts')]);
  const out: (string | ResourceInput)[] = [];
  for (const a of inputs) {
    if (typeof a !== 'string' || a === '-') {
      out.push(a);
      continue;
    }
    const inDir = walkResourceDir(a, cwd);
    if (inDir !== undefined) {
      if (inDir.length === 0) throw new UsageError(`${a}: no .yaml or .yml file in this directory`, 'validate reads resource files ending in .yaml or .yml, in sub-directories too');
      out.push(...inDir);
    } else if (hasGlob(a)) {
      const matched = expandGlob(a, cwd);
      if (matched.length === 0) throw new UsageError(`${a}: no file matches this pattern`);
      out.push(...matched);
    } else out.push(a);
  }
  if (out.filter((p) => p === '-').length > 1) throw new UsageError('standard input (-) can be read only once');
  return [...new Set(out)];
}

export interface ValidateClusterRequest {
  /** The revision whose CRDs the resources must pass. */
  revision: Revision;
  kubeconfig?: string | undefined;
  context?: string | undefined;
  /** The context flag as typed (`--context`, or its synonym `--kube-context`), for messages. */
  contextFlag?: string;
  /** Only this namespace (default: every namespace the user may list). */
  namespace?: string | undefined;
  /** Where the kubeconfig is looked up. */
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** Replaces the connection (tests). */
  client?: ClusterClient;
}

export interface ValidateClusterOutcome {
  /** The kubeconfig context the run read. */
  context: string;
  result: ClusterValidateResult;
}

/** Connects as kubectl would and checks every agentplat.dev resource of the cluster against the revision's CRDs. */
export async function validateClusterOperation(req: ValidateClusterRequest): Promise<ValidateClusterOutcome> {
  const { connect } = await import('../cluster/connect.ts');
  const { validateCluster } = await import('../cluster/validate-cluster.ts');
  const cluster = req.client ?? (await connect({ kubeconfig: req.kubeconfig, context: req.context, ...(req.contextFlag !== undefined ? { contextFlag: req.contextFlag } : {}), namespace: req.namespace }, { cwd: req.cwd, env: req.env }));
  const result = await validateCluster(cluster, { revision: req.revision, ...(req.namespace !== undefined ? { namespace: req.namespace } : {}) });
  return { context: cluster.context, result };
}
