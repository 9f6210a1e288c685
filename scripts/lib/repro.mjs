// Reproducible archives for the release (scripts/release.mjs) and the image (scripts/build-image.mjs):
// the same inputs give the same bytes. Every tar entry has the time SOURCE_DATE_EPOCH (else the last
// commit's), uid/gid 0 unless given, no user or group names, and the entries are sorted by path;
// gzip is written without a name or time in its header (gzip -n), at a fixed level.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';

/** SOURCE_DATE_EPOCH when set, else the time of the last commit of `root`, in seconds. */
export function sourceDateEpoch(root) {
  const given = process.env.SOURCE_DATE_EPOCH;
  if (given !== undefined && given !== '') {
    if (!/^\d+$/.test(given)) throw new Error(`SOURCE_DATE_EPOCH must be whole seconds since 1970, not "${given}"`);
    return Number(given);
  }
  return Number(execFileSync('git', ['log', '-1', '--format=%ct'], { cwd: root, encoding: 'utf8' }).trim());
}

export const sha256 = (data) => createHash('sha256').update(data).digest('hex');

/** One header field: `value` in octal, zero-padded to `width - 1` digits and a NUL. */
function octal(value, width) {
  const text = value.toString(8);
  if (text.length > width - 1) throw new Error(`tar: ${value} does not fit a ${width}-byte field`);
  return `${text.padStart(width - 1, '0')}\0`;
}

/** A ustar header block for `entry`; names longer than 100 bytes go into the prefix field. */
function header(entry, size, mtime) {
  const block = Buffer.alloc(512);
  let name = entry.path;
  let prefix = '';
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    if (cut <= 0 || Buffer.byteLength(name.slice(cut + 1)) > 100) throw new Error(`tar: the path ${entry.path} is too long for ustar`);
    prefix = name.slice(0, cut);
    name = name.slice(cut + 1);
  }
  block.write(name, 0, 100, 'utf8');
  block.write(octal(entry.mode, 8), 100, 'ascii');
  block.write(octal(entry.uid ?? 0, 8), 108, 'ascii');
  block.write(octal(entry.gid ?? 0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(mtime, 12), 136, 'ascii');
  block.write(' '.repeat(8), 148, 'ascii');
  block.write(entry.type === 'dir' ? '5' : entry.type === 'symlink' ? '2' : '0', 156, 'ascii');
  if (entry.type === 'symlink') block.write(entry.target, 157, 100, 'utf8');
  block.write('ustar\x0000', 257, 'binary');
  block.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of block) sum += b;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

/**
 * A tar archive of `entries` ({ path, type: 'file'|'dir'|'symlink', mode, uid?, gid?, data? | file?, target? }),
 * sorted by path, every time `mtime` (seconds). Directories' paths end without a slash; it is added.
 */
export function tar(entries, mtime) {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const parts = [];
  for (const e of sorted) {
    const data = e.type === 'file' ? (e.data !== undefined ? Buffer.from(e.data) : readFileSync(e.file)) : Buffer.alloc(0);
    parts.push(header(e.type === 'dir' ? { ...e, path: `${e.path}/` } : e, data.length, mtime), data);
    if (data.length % 512) parts.push(Buffer.alloc(512 - (data.length % 512)));
  }
  parts.push(Buffer.alloc(1024));
  return Buffer.concat(parts);
}

/** gzip without a file name or time in the header (what gzip -n writes), at a fixed level. */
export const gzip = (data, level = 9) => gzipSync(data, { level });

/** Every parent folder of `paths` as a dir entry (mode 0755, owner root), for archives that need them. */
export function parentDirs(paths, extra = {}) {
  const dirs = new Set();
  for (const p of paths) for (let i = p.indexOf('/'); i > 0; i = p.indexOf('/', i + 1)) dirs.add(p.slice(0, i));
  return [...dirs].map((path) => ({ path, type: 'dir', mode: 0o755, ...(extra[path] ?? {}) }));
}
