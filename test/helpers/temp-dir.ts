// A fresh directory under the system temp directory that is removed again once it is no longer
// used, so a test run leaves nothing behind in /tmp.
//
// Called inside a test, the directory goes when that test has finished (its child processes
// included, since the test waits for them). Called at module or describe level, it goes after the
// last test of that file or describe block. Do not call it from beforeAll/beforeEach: a hook
// registered while the tests run is silently dropped by vitest; create the directory at module
// level instead and fill it in the hook.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, onTestFinished } from 'vitest';
import { getCurrentTest } from 'vitest/suite';

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const remove = () => rmSync(dir, { recursive: true, force: true });
  if (getCurrentTest()) onTestFinished(remove);
  else afterAll(remove);
  return dir;
}

/** A fresh directory (as tempDir) holding `files`, each a path from the directory and its text. */
export function tempFiles(prefix: string, files: Record<string, string>): string {
  const dir = tempDir(prefix);
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}
