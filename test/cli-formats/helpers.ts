// Test-data factories and the golden-file check shared by the format tests.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Problem } from '../../src/problems/problem.ts';
import { expectGolden as expectFileGolden } from '../helpers/golden.ts';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export function makeProblem(over: Partial<Problem> = {}): Problem {
  return { severity: 'error', rule: 'values/schema', path: 'controller.replicas', message: 'expected an integer', ...over };
}

/** A fresh list covering every shape a formatter must handle (located, flag, no file, escaping). */
export function sampleProblems(): Problem[] {
  return [
    makeProblem({
      rule: 'values/unknown-key',
      path: 'controller.replcas',
      message: 'unknown key "replcas" in controller',
      hint: 'did you mean "replicas"?',
      file: 'envs/prod.yaml',
      line: 4,
      column: 3,
      excerpt: '  replcas: 2',
    }),
    makeProblem({
      severity: 'warning',
      rule: 'values/pdb-min-available',
      path: 'controller.pdb.minAvailable',
      message: 'minAvailable: 1 with 1 replica blocks every eviction, drains hang',
      hint: 'raise controller.replicas to 2 or use maxUnavailable',
      file: 'envs/prod.yaml',
      line: 9,
      column: 5,
      excerpt: '\t  minAvailable: 1',
    }),
    makeProblem({
      rule: 'values/schema',
      path: 'ui.env',
      message: 'ui.env must be a list of {name, value} <not a map> & 100% sure',
      hint: 'write\n- name: X\n  value: "1"',
      file: 'envs/odd, name:1.yaml',
      line: 2,
      column: 1,
      excerpt: 'ui: {env: {A: 1}}',
    }),
    makeProblem({
      path: 'controller.replicas',
      message: 'expected an integer, found a string',
      file: '--set #1',
      line: 1,
      column: 1,
      excerpt: 'controller.replicas=two',
    }),
    makeProblem({ severity: 'info', rule: 'values/deprecated', path: 'controller.streaming', message: 'controller.streaming has no effect since 0.10.0' }),
  ];
}

/** Compares with fixtures/formats/<name>; UPDATE_GOLDEN=1 rewrites the file (review the diff). */
export function expectGolden(relPath: string, actual: string): void {
  expectFileGolden(join(ROOT, relPath), actual);
}
