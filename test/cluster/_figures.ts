// Figures the cluster suite prints at its end (collected across test files by the global setup).
import { appendFileSync } from 'node:fs';
import { inject } from 'vitest';

export function record(line: string): void {
  appendFileSync(inject('figuresFile'), `${line}\n`);
  console.log(line);
}
