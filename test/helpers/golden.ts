// The one way a test compares output with a golden file. A golden is written only when asked
// (UPDATE_GOLDEN=1, then the diff is read like code); a missing golden is a failure, never a new
// file that makes the test pass.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, relative } from 'node:path';
import { expect } from 'vitest';

export class MissingGoldenError extends Error {}

/** Compares `actual` with the golden `file` (an absolute path); UPDATE_GOLDEN=1 (re)writes it first. */
export function expectGolden(file: string, actual: string, env: NodeJS.ProcessEnv = process.env): void {
  if (env.UPDATE_GOLDEN === '1') {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
  } else if (!existsSync(file)) {
    throw new MissingGoldenError(`golden file ${relative(process.cwd(), file)} is missing; run with UPDATE_GOLDEN=1 and review it`);
  }
  expect(actual).toBe(readFileSync(file, 'utf8'));
}
