// Shared helpers of the CRD tests: run `agentplat validate` in-process and find expected positions.
import { run } from '../../src/cli/program.ts';
import type { Problem } from '../../src/problems/problem.ts';
import type { CelRule, Node } from '../../src/crds/dsl.ts';
import { KINDS } from '../../src/crds/model.ts';
import { runInProcess } from '../cli/in-process.ts';

export interface Outcome {
  code: number;
  problems: Problem[];
  err: string;
}

/** Runs `agentplat validate - --format json` on `yaml` given on standard input. */
export async function validateYaml(yaml: string, extra: string[] = []): Promise<Outcome> {
  const io = await runInProcess(['validate', '-', '--format', 'json', ...extra], { stdin: yaml });
  // The shared JSON contract groups problems by file; the tests read them flat, each with its file.
  const report = io.stdout ? (JSON.parse(io.stdout) as { files: { file: string | null; problems: Problem[] }[] }) : { files: [] };
  const problems = report.files.flatMap((g) => g.problems.map((p) => ({ ...p, ...(g.file !== null ? { file: g.file } : {}) })));
  return { code: io.code, problems, err: io.stderr };
}

/** 1-based line and column of the line marked `# HERE` (column of its key, after any `- `). */
export function marked(yaml: string): { line: number; column: number } {
  const lines = yaml.split('\n');
  const i = lines.findIndex((l) => l.includes('# HERE'));
  if (i < 0) throw new Error('no # HERE marker');
  const m = /^(\s*(?:- )?)/.exec(lines[i]!)!;
  return { line: i + 1, column: m[1]!.length + 1 };
}

/** Every CEL rule of the model, by id. */
export function modelRules(): Map<string, CelRule> {
  const out = new Map<string, CelRule>();
  const walk = (n: Node | undefined): void => {
    if (!n) return;
    for (const r of n.rules ?? []) out.set(r.id, r);
    for (const p of Object.values(n.properties ?? {})) walk(p);
    walk(n.items);
    walk(n.additionalProperties);
  };
  for (const k of KINDS) {
    walk(k.spec);
    walk(k.status);
  }
  return out;
}

export const doc = (kind: string, spec: string): string =>
  `apiVersion: agentplat.dev/v1alpha2\nkind: ${kind}\nmetadata:\n  name: sample\n  namespace: default\nspec:\n${spec.replace(/^\n/, '')}`;
