// How the commands that print manifests or values report problems: on stderr, so stdout carries
// only what a pipe into kubectl may read.
import type { App } from './app.ts';
import { chalkFor } from './io.ts';
import { formatProblems } from '../output/formatters/index.ts';
import type { Problem } from '../problems/problem.ts';
import type { Revision } from '../chart/revisions.ts';

/** Errors and warnings only (infos are the linter's business, `agentplat lint` prints them). */
export async function problemReporter(app: App, revision: Revision, inputs: readonly string[]): Promise<(problems: readonly Problem[]) => void> {
  const chalk = await chalkFor(app.io, 'stderr');
  return (problems) => app.io.stderr(formatProblems(problems.filter((p) => p.severity !== 'info'), { format: 'text', chalk, revision, inputs: [...inputs] }));
}
