// The single executable's blob (what `node --experimental-sea-config` writes and postject injects),
// read just far enough to take out of its start-up snapshot the V8 code cache Node keeps there for
// each of its own built-in modules (scripts/build-exe.mjs).
//
// Why: Node's snapshot builder compiles every one of its ~390 built-in modules once more and
// stores their code caches at the end of the snapshot (3.6 MB on Node 24.21). Every start of the
// executable copies the whole snapshot out of the binary (node::SnapshotData::FromBlob), these
// caches with it, and keeps them in memory. A module the snapshot already holds loaded (the 126
// the warm-up loaded) never reads its cache again: its compiled code is in the snapshot; those a
// run loads later measured no faster with theirs (scripts/build-exe.mjs drops them all).
//
// Layout, as Node 24 writes it (src/node_sea.cc, src/node_snapshotable.cc; little-endian, sizes
// 8 bytes): the blob is a header (magic, flags, one byte), the main script's path (size, bytes),
// the snapshot (size, bytes), then the assets and execArgv, which are kept as they are. The
// snapshot ends with the vector of code caches: a count, then per module its id (size, bytes)
// and its cache (size, bytes). Nothing in Node reads past that vector, and no offset elsewhere
// points into it.
//
// The vector's start is not recorded anywhere, so it is found: the one position from which a
// count and that many well-formed entries end exactly at the snapshot's end. Anything else (a
// Node whose layout differs) is reported, not guessed at: the caller keeps Node's blob.

const u64 = (buf, at) => (at + 8 <= buf.length ? Number(buf.readBigUInt64LE(at)) : -1);
const ID = /^[A-Za-z0-9_./:-]{1,200}$/;

/** The code cache entries from `at` to the end of `snapshot`, or undefined when they are not that. */
function entriesFrom(snapshot, at) {
  const count = u64(snapshot, at);
  if (count < 1 || count > 10000) return undefined;
  const entries = [];
  let p = at + 8;
  for (let i = 0; i < count; i++) {
    const start = p;
    const idLength = u64(snapshot, p);
    if (idLength < 1 || idLength > 200 || p + 8 + idLength > snapshot.length) return undefined;
    const id = snapshot.toString('latin1', p + 8, p + 8 + idLength);
    if (!ID.test(id)) return undefined;
    p += 8 + idLength;
    const size = u64(snapshot, p);
    if (size < 0 || p + 8 + size > snapshot.length) return undefined;
    p += 8 + size;
    entries.push({ id, start, end: p });
  }
  return p === snapshot.length ? entries : undefined;
}

/**
 * `blob` (a Buffer) without the code caches of the built-in modules `drop(id)` names. `mainPath`
 * is the config's `main`, which the blob holds verbatim. Returns { blob, dropped, kept, bytes }
 * or { error } when the blob is not laid out as described above.
 */
export function withoutBuiltinCodeCache(blob, mainPath, drop) {
  const path = Buffer.from(mainPath, 'utf8');
  const marker = Buffer.alloc(8 + path.length);
  marker.writeBigUInt64LE(BigInt(path.length));
  path.copy(marker, 8);
  const pathAt = blob.indexOf(marker);
  if (pathAt < 8 || pathAt > 64) return { error: "the main script's path is not in the blob's header" };
  const sizeAt = pathAt + marker.length;
  const size = u64(blob, sizeAt);
  if (size < 16 || sizeAt + 8 + size > blob.length) return { error: 'the snapshot does not fit in the blob' };
  const snapshot = blob.subarray(sizeAt + 8, sizeAt + 8 + size);
  // The vector is near the end: the last position it can start from is searched first.
  let at = -1;
  let entries;
  for (let i = snapshot.length - 8; i >= 0; i--) {
    if (snapshot[i + 7] !== 0 || snapshot[i + 6] !== 0 || snapshot[i + 5] !== 0 || snapshot[i + 4] !== 0 || snapshot[i + 3] !== 0 || snapshot[i + 2] !== 0) continue;
    entries = entriesFrom(snapshot, i);
    if (entries) {
      at = i;
      break;
    }
  }
  if (at < 0) return { error: "no vector of built-in modules' code caches ends the snapshot" };
  const kept = entries.filter((e) => !drop(e.id));
  const count = Buffer.alloc(8);
  count.writeBigUInt64LE(BigInt(kept.length));
  const parts = [snapshot.subarray(0, at), count, ...kept.map((e) => snapshot.subarray(e.start, e.end))];
  const newSize = parts.reduce((n, b) => n + b.length, 0);
  const sizeField = Buffer.alloc(8);
  sizeField.writeBigUInt64LE(BigInt(newSize));
  return {
    blob: Buffer.concat([blob.subarray(0, sizeAt), sizeField, ...parts, blob.subarray(sizeAt + 8 + size)]),
    dropped: entries.length - kept.length,
    kept: kept.length,
    bytes: size - newSize,
  };
}
