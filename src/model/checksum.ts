// The sha256 digests the chart puts in pod annotations, so a pod restarts when the config or
// secret it reads changes; one definition keeps every checksum annotation comparable.
//
// The digest is computed here in JavaScript rather than by node:crypto: loading node:crypto (its
// key, cipher and stream modules come with it) costs a render 6 to 8 ms of CPU, more than all the
// hashing a render does (a few texts of a few kilobytes). docs/decisions.md, "Start-up on Node 24,
// second round", has the figures; test/model/checksum.test.ts holds it to node:crypto.

import { answerMemo } from '../answer-memos.ts';
import { jsonText } from '../values/big-integers.ts';

/** The round constants of SHA-256 (FIPS 180-4, 4.2.2): the first 32 bits of the fractional parts of the cube roots of the first 64 primes. */
const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** Hex sha256 of a text (of its UTF-8 bytes), computed. */
function digest(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  const length = bytes.length;
  // The message, a 1 bit, zeros, and its length in bits (64 bits, big-endian), to a multiple of 64 bytes.
  const end = Math.ceil((length + 9) / 64) * 64;
  const p = new Uint8Array(end);
  p.set(bytes);
  p[length] = 0x80;
  const high = Math.floor(length / 0x20000000);
  const low = (length * 8) >>> 0;
  for (let i = 0; i < 4; i++) {
    p[end - 8 + i] = high >>> (24 - 8 * i);
    p[end - 4 + i] = low >>> (24 - 8 * i);
  }
  const h = new Int32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Int32Array(64);
  // Plain reads of typed arrays and local variables: a render hashes a few kilobytes, which V8
  // runs in its interpreter and Sparkplug before any optimising compiler gets to it.
  for (let at = 0; at < end; at += 64) {
    for (let i = 0, j = at; i < 16; i++, j += 4) w[i] = (p[j]! << 24) | (p[j + 1]! << 16) | (p[j + 2]! << 8) | p[j + 3]!;
    for (let i = 16; i < 64; i++) {
      const x = w[i - 15]!;
      const y = w[i - 2]!;
      w[i] = (w[i - 16]! + (((x >>> 7) | (x << 25)) ^ ((x >>> 18) | (x << 14)) ^ (x >>> 3)) + w[i - 7]! + (((y >>> 17) | (y << 15)) ^ ((y >>> 19) | (y << 13)) ^ (y >>> 10))) | 0;
    }
    let a = h[0]!, b = h[1]!, c = h[2]!, d = h[3]!, e = h[4]!, f = h[5]!, g = h[6]!, k = h[7]!;
    for (let i = 0; i < 64; i++) {
      const t1 = (k + (((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))) + ((e & f) ^ (~e & g)) + K[i]! + w[i]!) | 0;
      const t2 = ((((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))) + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + k;
  }
  let hex = '';
  for (let i = 0; i < 8; i++) hex += (h[i]! >>> 0).toString(16).padStart(8, '0');
  return hex;
}

/** The digests of the texts hashed so far: a render made again (values/no-effect) hashes the same config texts again. */
const DIGESTS = answerMemo('digests', new Map<string, string>());
/** Past this many characters kept (texts, digests and entries), the digests start over (a long-running language server); a longer text is not kept. */
const MAX_KEPT = 1 << 22;
let kept = 0;

/** Hex sha256 of a text. */
export function sha256Hex(text: string): string {
  let hex = DIGESTS.get(text);
  if (hex === undefined) {
    hex = digest(text);
    // a text and its digest, and about as much again for the map's entry
    const size = text.length + 2 * hex.length;
    if (size > MAX_KEPT) return hex;
    if (DIGESTS.size === 0) kept = 0;
    if (kept + size > MAX_KEPT) {
      DIGESTS.clear();
      kept = 0;
    }
    DIGESTS.set(text, hex);
    kept += size;
  }
  return hex;
}

/** Hex sha256 of a value's JSON text (the data of a ConfigMap or Secret). */
export function checksum(value: unknown): string {
  return sha256Hex(jsonText(value) as string);
}
