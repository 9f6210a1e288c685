// The sha256 digests the chart puts in pod annotations, so a pod restarts when the config or
// secret it reads changes; one definition keeps every checksum annotation comparable.

import { jsonText } from '../values/big-integers.ts';

/** Hex sha256 of a text. */
export function sha256Hex(text: string): string {
  // node:crypto when the first digest is asked for: commands that render nothing never load it
  return process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
}

/** Hex sha256 of a value's JSON text (the data of a ConfigMap or Secret). */
export function checksum(value: unknown): string {
  return sha256Hex(jsonText(value) as string);
}
