// scripts/lib/sea-blob.mjs: the single executable's blob loses the code caches of the built-in
// modules its snapshot already holds loaded (every start copies them and never reads them), and
// keeps every other byte; a blob not laid out as Node 24 writes it is left to the caller, with why.
import { describe, expect, it } from 'vitest';
import { withoutBuiltinCodeCache } from '../../scripts/lib/sea-blob.mjs';

const u64 = (n: number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};
const sized = (bytes: Buffer) => Buffer.concat([u64(bytes.length), bytes]);
const entry = (id: string, cache: string) => Buffer.concat([sized(Buffer.from(id)), sized(Buffer.from(cache))]);

const MAIN = '/build/package/dist/sea/main.cjs';
// The header Node writes before the main script's path: magic, flags, one byte.
const HEADER = Buffer.from([0x20, 0xda, 0x43, 0x01, 0x1b, 0, 0, 0, 0x01]);
// V8's data and Node's own state: opaque here, with a run of bytes that reads as a count of
// entries followed by an id, which the search must not take for the vector.
const V8_PART = Buffer.concat([Buffer.from('v8 startup data'), u64(2), sized(Buffer.from('fs')), Buffer.from('more v8 data')]);
const ASSETS = Buffer.concat([u64(1), sized(Buffer.from('values/revision-a.yaml')), sized(Buffer.from('a: 1\n'))]);

function blobOf(snapshot: Buffer): Buffer {
  return Buffer.concat([HEADER, sized(Buffer.from(MAIN)), sized(snapshot), ASSETS]);
}

describe('the code caches of built-in modules in the executable’s snapshot', () => {
  it('those of the modules the snapshot holds loaded go; the others, and every other byte, stay', () => {
    const before = blobOf(Buffer.concat([V8_PART, u64(3), entry('fs', 'cache of fs'), entry('internal/crypto/hash', 'cache of hash'), entry('https', 'cache of https')]));
    const loaded = new Set(['fs', 'internal/crypto/hash', 'vm']);
    const r = withoutBuiltinCodeCache(before, MAIN, (id: string) => loaded.has(id));
    expect(r.error).toBeUndefined();
    expect(r.blob).toEqual(blobOf(Buffer.concat([V8_PART, u64(1), entry('https', 'cache of https')])));
    expect({ dropped: r.dropped, kept: r.kept, bytes: r.bytes }).toEqual({ dropped: 2, kept: 1, bytes: entry('fs', 'cache of fs').length + entry('internal/crypto/hash', 'cache of hash').length });
  });

  it('a snapshot that does not end with that vector is not touched, and the reason is given', () => {
    const before = blobOf(Buffer.concat([V8_PART, u64(1), entry('fs', 'cache of fs'), Buffer.from('trailing bytes of a later layout')]));
    const r = withoutBuiltinCodeCache(before, MAIN, () => true);
    expect(r).toEqual({ error: "no vector of built-in modules' code caches ends the snapshot" });
  });

  it('a blob whose header does not hold the main script’s path is not touched', () => {
    const before = blobOf(Buffer.concat([V8_PART, u64(1), entry('fs', 'cache of fs')]));
    expect(withoutBuiltinCodeCache(before, '/elsewhere/main.cjs', () => true)).toEqual({ error: "the main script's path is not in the blob's header" });
  });
});
