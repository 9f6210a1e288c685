// A chart version or range, as Flux resolves it (source-controller reads ranges with the
// Masterminds semver library, and so does Argo CD for a Helm repository's targetRevision), over the
// chart versions agentplat knows: the newest that matches, and the revision of its minor release
// (0.10.x is revision A, 0.11.x revision B).
//
// Which versions a repository publishes is not known offline. agentplat takes every release of each
// minor line it renders (patches 0–99) as published, and of the pre-releases those that the range
// itself names (a range that names 0.11.0-rc.1 is written for a published 0.11.0-rc.1).
import { REVISION_IDS, REVISIONS, type Revision } from '../chart/revisions.ts';

/** A version: major, minor, patch, and the pre-release identifiers ('' for a release). */
interface Version {
  major: number;
  minor: number;
  patch: number;
  pre: string;
}

const PATCHES = 100;

/** The chart version each revision is, the newest last. */
export function knownVersions(): { version: string; revision: Revision }[] {
  return REVISION_IDS.map((r) => ({ version: REVISIONS[r].chartVersion, revision: r })).sort((a, b) => compare(parseExact(a.version)!, parseExact(b.version)!));
}

const EXACT = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;

function parseExact(text: string): Version | undefined {
  const m = EXACT.exec(text.trim());
  return m ? { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre: m[4] ?? '' } : undefined;
}

/** Pre-release identifiers compared as semver orders them: numbers below words, a shorter list first. */
function comparePre(a: string, b: string): number {
  if (a === b) return 0;
  if (a === '') return 1;
  if (b === '') return -1;
  const as = a.split('.');
  const bs = b.split('.');
  for (let i = 0; i < Math.max(as.length, bs.length); i++) {
    const x = as[i];
    const y = bs[i];
    if (x === y) continue;
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn) return Number(x) - Number(y);
    if (xn !== yn) return xn ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function compare(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch || comparePre(a.pre, b.pre);
}

const show = (v: Version) => `${v.major}.${v.minor}.${v.patch}${v.pre ? `-${v.pre}` : ''}`;

/** The revision of a minor release agentplat renders. */
function revisionOfRelease(v: Version): Revision | undefined {
  return knownVersions().find((k) => {
    const p = parseExact(k.version)!;
    return p.major === v.major && p.minor === v.minor;
  })?.revision;
}

/** The revision of one exact version: by its minor release. */
export function revisionOfVersion(version: string): Revision | undefined {
  const v = parseExact(version);
  return v ? revisionOfRelease(v) : undefined;
}

export interface ResolveOptions {
  /** Only versions whose text (`0.11.3`, `0.11.0-rc.1`) this keeps are candidates: an OCIRepository's ref.semverFilter. */
  keep?: (text: string) => boolean;
  /** False for a range that is read as a range only, never first as the exact text of a version (an OCIRepository's ref.semver). */
  exactFirst?: boolean;
  /** One version as written, never a range (an OCIRepository's ref.tag, a Chart.yaml's version). */
  exactOnly?: boolean;
}

/**
 * The revision a version or range resolves to: an exact version by its minor release, a range by
 * the newest version it admits among the candidates (see the top of the file); undefined when it
 * admits none or is not a range.
 */
export function resolveVersion(raw: string, opts: ResolveOptions = {}): { revision: Revision; version: string } | undefined {
  const text = raw.trim() === '' ? '*' : raw;
  if (opts.exactFirst !== false && (!opts.keep || opts.keep(text.trim()))) {
    const exact = revisionOfVersion(text);
    if (exact) return { revision: exact, version: text.trim().replace(/^v/, '') };
  }
  if (opts.exactOnly) return undefined;
  const range = parseRange(text);
  if (!range) return undefined;
  let best: Version | undefined;
  for (const v of candidates(range.named)) {
    if (opts.keep && !opts.keep(show(v))) continue;
    if (range.admits(v) && (!best || compare(v, best) > 0)) best = v;
  }
  return best ? { revision: revisionOfRelease(best)!, version: show(best) } : undefined;
}

/** Every release of the minor lines agentplat renders, and the pre-releases of those lines a range names. */
function candidates(named: Version[]): Version[] {
  const out: Version[] = [];
  for (const k of knownVersions()) {
    const { major, minor } = parseExact(k.version)!;
    for (let patch = 0; patch < PATCHES; patch++) out.push({ major, minor, patch, pre: '' });
  }
  for (const v of named) if (v.pre && revisionOfRelease(v)) out.push(v);
  return out;
}

/** One comparison of a range: the operator, its version (wildcards read as 0) and which parts were wildcards. */
interface Comparison {
  op: string;
  v: Version;
  /** Major (or everything) given as a wildcard or left out. */
  anyMajor: boolean;
  minorWild: boolean;
  patchWild: boolean;
}

const OP = String.raw`(?:!=|>=|=>|<=|=<|~>|>|<|=|~|\^)?`;
const PART = String.raw`[0-9xX*]+`;
const CV = String.raw`v?${PART}(?:\.${PART})?(?:\.${PART})?(?:-[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?`;
const GROUP = new RegExp(String.raw`^\s*${OP}\s*${CV}\s*(?:(?:\s+|,\s*)${OP}\s*${CV}\s*)*$`);
const ONE = new RegExp(String.raw`(${OP})\s*(${CV})`, 'g');
const HYPHEN = new RegExp(String.raw`\s*(${CV})\s+-\s+(${CV})\s*`, 'g');
const CV_PARTS = /^v?([0-9xX*]+)(?:\.([0-9xX*]+))?(?:\.([0-9xX*]+))?(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?/;

/**
 * A range as Masterminds semver reads it: alternatives joined by `||`, each comparisons joined by
 * spaces or commas (`a - b` standing for `>= a, <= b`); a pre-release version is admitted only by
 * an alternative one of whose comparisons names a pre-release.
 */
function parseRange(text: string): { admits: (v: Version) => boolean; named: Version[] } | undefined {
  const named: Version[] = [];
  const alternatives: ((v: Version) => boolean)[] = [];
  for (const alt of text.replace(HYPHEN, (_m, a: string, b: string) => `>= ${a}, <= ${b} `).split('||')) {
    if (!GROUP.test(alt)) return undefined;
    const comparisons: Comparison[] = [];
    for (const m of alt.matchAll(ONE)) {
      const c = comparison(m[1]!, m[2]!);
      if (!c) return undefined;
      comparisons.push(c);
      named.push(c.v);
    }
    const withPre = comparisons.some((c) => c.v.pre !== '');
    alternatives.push((v) => (v.pre === '' || withPre) && comparisons.every((c) => holds(c, v)));
  }
  return { admits: (v) => alternatives.some((t) => t(v)), named };
}

function comparison(op: string, cv: string): Comparison | undefined {
  const m = CV_PARTS.exec(cv)!;
  const wild = (s: string | undefined) => s === undefined || /^[xX*]$/.test(s);
  const num = (s: string | undefined) => (wild(s) ? 0 : /^\d+$/.test(s!) ? Number(s) : NaN);
  const anyMajor = wild(m[1]);
  const minorWild = !anyMajor && wild(m[2]);
  const patchWild = !anyMajor && !minorWild && wild(m[3]);
  const v: Version = anyMajor ? { major: 0, minor: 0, patch: 0, pre: m[4] ?? '' } : { major: num(m[1]), minor: num(m[2]), patch: minorWild ? 0 : num(m[3]), pre: m[4] ?? '' };
  if ([v.major, v.minor, v.patch].some((n) => Number.isNaN(n))) return undefined;
  return { op: op || '=', v, anyMajor, minorWild, patchWild };
}

/** Whether a version meets one comparison, as Masterminds semver decides it. */
function holds(c: Comparison, v: Version): boolean {
  const con = c.v;
  const wildcard = c.anyMajor || c.minorWild || c.patchWild;
  const cmp = compare(v, con);
  const tilde = (): boolean => {
    if (cmp < 0) return false;
    if (con.major === 0 && con.minor === 0 && con.patch === 0 && !c.minorWild && !c.patchWild) return true;
    if (v.major !== con.major) return false;
    return v.minor === con.minor || c.minorWild;
  };
  switch (c.op) {
    case '=':
      return wildcard ? tilde() : cmp === 0;
    case '~': case '~>':
      return tilde();
    case '!=':
      if (wildcard) {
        if (con.major !== v.major) return true;
        if (c.minorWild) return false;
        if (con.minor !== v.minor) return true;
        if (c.patchWild) return comparePre(v.pre, con.pre) !== 0 && (v.pre !== '' || con.pre !== '');
        if (con.patch !== v.patch) return true;
      }
      return cmp !== 0;
    case '>':
      if (!wildcard || c.anyMajor) return cmp > 0;
      if (v.major !== con.major) return v.major > con.major;
      if (c.minorWild) return false;
      return v.minor > con.minor;
    case '<':
      return cmp < 0;
    case '>=': case '=>':
      return cmp >= 0;
    case '<=': case '=<':
      if (!wildcard) return cmp <= 0;
      if (v.major > con.major) return false;
      return !(v.major === con.major && v.minor > con.minor && !c.minorWild);
    case '^':
      if (cmp < 0) return false;
      if (con.major > 0 || c.minorWild) return v.major === con.major;
      if (v.major > 0) return false;
      if (con.minor > 0 || c.patchWild) return v.minor === con.minor;
      if (v.minor > 0) return false;
      return v.patch === con.patch;
    default:
      return false;
  }
}

/** What a refusal lists as supported. */
export function supportedVersionsText(): string {
  return knownVersions().map((k) => `${k.version.replace(/\.\d+$/, '.x')} (revision ${k.revision})`).join(' and ');
}

/**
 * A chart version or range of one revision's line written for another revision's line, in the
 * same spelling: an exact version becomes the chart version agentplat renders for `to` (`0.10.3`
 * → `0.11.0`, a `v` kept); a range of one minor release keeps its operator and wildcard (`0.10.x`
 * → `0.11.x`, `~0.10.2` → `~0.11.0`, `^0.10.1` → `^0.11.0`, `0.10` → `0.11`). Undefined for any
 * other range (`>=0.10.0 <0.11.0`, `0.9.x || 0.10.x`): which versions it should admit is the
 * user's to say.
 */
export function versionOnLine(raw: string, to: Revision): string | undefined {
  const v = parseExact(REVISIONS[to].chartVersion)!;
  const target = [v.major, v.minor, v.patch];
  const exact = /^(\s*)(v?)\d+\.\d+\.\d+(?:[-+]\S*)?(\s*)$/.exec(raw);
  if (exact) return `${exact[1]}${exact[2]}${REVISIONS[to].chartVersion}${exact[3]}`;
  const m = /^(\s*)(\^|~>|~|=)?(\s*)(v?)(\d+)\.(\d+)(?:\.(\d+|[xX*]))?(\s*)$/.exec(raw);
  if (!m) return undefined;
  const patch = m[7] === undefined ? '' : /^\d+$/.test(m[7]) ? `.${target[2]}` : `.${m[7]}`;
  return `${m[1]}${m[2] ?? ''}${m[3]}${m[4]}${target[0]}.${target[1]}${patch}${m[8]}`;
}
