// The UsageError a promise rejects with; any other outcome fails the test.
import { UsageError } from '../../src/problems/errors.ts';

export async function usageError(p: Promise<unknown>): Promise<UsageError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof UsageError) return err;
    throw err;
  }
  throw new Error('expected a UsageError');
}
