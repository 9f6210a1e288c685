// Golden files are reviewed like code, so a test must never make one up: without UPDATE_GOLDEN=1
// a missing golden fails the test.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectGolden, MissingGoldenError } from './helpers/golden.ts';
import { tempDir } from './helpers/temp-dir.ts';

describe('golden files', () => {
  it('a missing golden fails the comparison and is not written', () => {
    const file = join(tempDir('agentplat-golden-'), 'case.golden.yaml');
    expect(() => expectGolden(file, 'kind: ConfigMap\n', {})).toThrow(MissingGoldenError);
    expect(existsSync(file)).toBe(false);
  });

  it('UPDATE_GOLDEN=1 writes the golden, and later runs compare with it', () => {
    const file = join(tempDir('agentplat-golden-'), 'nested', 'case.golden.yaml');
    expectGolden(file, 'kind: ConfigMap\n', { UPDATE_GOLDEN: '1' });
    expect(readFileSync(file, 'utf8')).toBe('kind: ConfigMap\n');
    expectGolden(file, 'kind: ConfigMap\n', {});
    expect(() => expectGolden(file, 'kind: Secret\n', {})).toThrow();
  });
});
