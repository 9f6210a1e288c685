// The sha256 digests the chart puts in pod annotations, so a pod restarts when the config or
// secret it reads changes; one definition keeps every checksum annotation comparable.

import { jsonText } from '../values/big-integers.ts';

/** The digests of the texts hashed so far: a render made again (values/no-effect) hashes the same config texts again. */
const DIGESTS = new Map<string, string>();
/** Past this many characters of texts kept, the digests start over (a long-running language server). */
const MAX_KEPT = 1 << 22;
let kept = 0;

/** Hex sha256 of a text. */
export function sha256Hex(text: string): string {
  let hex = DIGESTS.get(text);
  if (hex === undefined) {
    // node:crypto when the first digest is asked for: commands that render nothing never load it
    hex = process.getBuiltinModule('node:crypto').createHash('sha256').update(text).digest('hex');
    if (kept + text.length > MAX_KEPT) {
      DIGESTS.clear();
      kept = 0;
    }
    DIGESTS.set(text, hex);
    kept += text.length;
  }
  return hex;
}

/** Hex sha256 of a value's JSON text (the data of a ConfigMap or Secret). */
export function checksum(value: unknown): string {
  return sha256Hex(jsonText(value) as string);
}
