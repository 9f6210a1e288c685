// vitest globalSetup: a folder for this test run's pack of the repository and its installs
// (test/helpers/pack.ts), so that every recipe test uses one pack and each install command runs
// once per run instead of once per file. Nothing is packed here: the first test that needs the
// pack makes it, so a run without recipe tests pays nothing. The folder goes when the run ends.
// First, dist/ is built when it is missing or older than the sources: the product reads what the
// build wrote to dist/generated/ (docs/architecture.md), in the tests as in the package.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { ensureBuilt } from '../cli/binary.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    packCache: string;
  }
}

export default function setup(project: TestProject): () => void {
  ensureBuilt();
  const dir = mkdtempSync(join(tmpdir(), 'agentplat-pack-run-'));
  project.provide('packCache', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
