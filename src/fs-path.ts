// path.join and path.resolve for the paths validate and the values loader handle by the hundred,
// without their normalisation when there is nothing to normalise. node:path normalises in
// JavaScript, character by character, which in a short run is V8's interpreter at work: a few
// microseconds a path. A path with no empty, `.` or `..` segment and no trailing slash is already
// normal (POSIX); anything else, and every path on Windows, goes through node:path.
// Property tests compare both ways (test/fs-path.test.ts).
import { join, resolve, sep } from 'node:path';

const NOT_NORMAL = /(^|\/)\.{1,2}(\/|$)|\/\/|\/$/;

/** path.join(dir, name) for a directory entry's name. */
export function joinEntry(dir: string, name: string): string {
  if (sep === '/' && dir !== '' && name !== '' && name !== '.' && name !== '..' && !name.includes('/') && !NOT_NORMAL.test(dir)) return `${dir}/${name}`;
  return join(dir, name);
}

/** path.resolve(cwd, p). */
export function resolveFrom(cwd: string, p: string): string {
  if (sep === '/' && cwd.startsWith('/') && p !== '') {
    const full = p.startsWith('/') ? p : `${cwd}/${p}`;
    if (!NOT_NORMAL.test(full)) return full;
  }
  return resolve(cwd, p);
}
