// A chart version or range, as Flux (Masterminds semver constraints) and Argo CD resolve it, over
// the chart versions agentplat knows: the highest that matches, and the revision of its minor
// release (0.10.x is revision A, 0.11.x revision B).
import { REVISION_IDS, REVISIONS, type Revision } from '../chart/revisions.ts';

type V = [number, number, number];

/** The chart version each revision is, the newest last. */
export function knownVersions(): { version: string; revision: Revision }[] {
  return REVISION_IDS.map((r) => ({ version: REVISIONS[r].chartVersion, revision: r })).sort((a, b) => cmp(parse(a.version)!, parse(b.version)!));
}

function parse(v: string): V | undefined {
  const m = /^v?(\d+)(?:\.(\d+))?(?:\.(\d+))?(?:[-+].*)?$/.exec(v.trim());
  return m ? [Number(m[1]), Number(m[2] ?? 0), Number(m[3] ?? 0)] : undefined;
}

function cmp(a: V, b: V): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/** The revision of one exact version: by its minor release. */
export function revisionOfVersion(version: string): Revision | undefined {
  const v = parse(version);
  if (!v || !/^v?\d+\.\d+\.\d+(?:[-+].*)?$/.test(version.trim())) return undefined;
  return knownVersions().find((k) => { const p = parse(k.version)!; return p[0] === v[0] && p[1] === v[1]; })?.revision;
}

/**
 * The revision a version or constraint resolves to: an exact version by its minor release, a
 * constraint by the newest minor release of which it admits a version; undefined when it admits
 * none or is not a constraint.
 */
export function resolveVersion(raw: string): { revision: Revision; version: string } | undefined {
  const text = raw.trim() === '' ? '*' : raw.trim();
  const exact = revisionOfVersion(text);
  if (exact) return { revision: exact, version: text.replace(/^v/, '') };
  const test = constraint(text);
  if (!test) return undefined;
  // Each revision stands for its whole minor release (0.10.0, 0.10.1, …): the highest patch of the
  // newest minor release the constraint admits decides.
  for (const k of [...knownVersions()].reverse()) {
    const [major, minor] = parse(k.version)!;
    for (let patch = 99; patch >= 0; patch--) if (test([major, minor, patch])) return { revision: k.revision, version: `${major}.${minor}.${patch}` };
  }
  return undefined;
}

type Test = (v: V) => boolean;

/** A Masterminds-style constraint: `||` of comma- or space-separated comparisons, wildcards, `~`, `^`, `a - b`. */
function constraint(text: string): Test | undefined {
  const alternatives: Test[] = [];
  for (const alt of text.split('||')) {
    const hyphen = /^\s*(\S+)\s+-\s+(\S+)\s*$/.exec(alt);
    const parts = hyphen ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`] : alt.split(/[\s,]+/).filter((p) => p !== '');
    if (parts.length === 0) return undefined;
    const tests: Test[] = [];
    for (const p of parts) {
      const t = comparison(p);
      if (!t) return undefined;
      tests.push(t);
    }
    alternatives.push((v) => tests.every((t) => t(v)));
  }
  return (v) => alternatives.some((t) => t(v));
}

function comparison(part: string): Test | undefined {
  const m = /^(\^|~>|~|>=|=>|<=|=<|!=|>|<|=)?\s*v?(\d+|[xX*])(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?(?:[-+][0-9A-Za-z.-]+)?$/.exec(part);
  if (!m) return part === '*' ? () => true : undefined;
  const op = m[1] ?? '=';
  const wild = (s: string | undefined) => s === undefined || /^[xX*]$/.test(s);
  const nums = [m[2], m[3], m[4]];
  // How many leading parts are given as numbers; the rest are wildcards.
  let given = 0;
  while (given < 3 && !wild(nums[given])) given++;
  const base: V = [Number(wild(m[2]) ? 0 : m[2]), Number(wild(m[3]) ? 0 : m[3]), Number(wild(m[4]) ? 0 : m[4])];
  const upper = (level: number): V => (level === 0 ? [base[0] + 1, 0, 0] : level === 1 ? [base[0], base[1] + 1, 0] : [base[0], base[1], base[2] + 1]);
  const range = (lo: V, hi: V): Test => (v) => cmp(v, lo) >= 0 && cmp(v, hi) < 0;
  if (given === 0) return op === '!=' || op === '<' || op === '>' ? () => false : () => true;
  switch (op) {
    case '=':
      return given === 3 ? (v) => cmp(v, base) === 0 : range(base, upper(given - 1));
    case '!=':
      return given === 3 ? (v) => cmp(v, base) !== 0 : (v) => !range(base, upper(given - 1))(v);
    case '>':
      return given === 3 ? (v) => cmp(v, base) > 0 : (v) => cmp(v, upper(given - 1)) >= 0;
    case '>=': case '=>':
      return (v) => cmp(v, base) >= 0;
    case '<':
      return (v) => cmp(v, base) < 0;
    case '<=': case '=<':
      return given === 3 ? (v) => cmp(v, base) <= 0 : (v) => cmp(v, upper(given - 1)) < 0;
    case '~': case '~>':
      return range(base, given === 1 ? upper(0) : upper(1));
    case '^':
      // Masterminds: the first non-zero part may not change (^0.10.1 is >=0.10.1 <0.11.0).
      if (base[0] > 0 || given === 1) return range(base, upper(0));
      if (base[1] > 0 || given === 2) return range(base, upper(1));
      return range(base, upper(2));
    default:
      return undefined;
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
  const target = parse(REVISIONS[to].chartVersion)!;
  const exact = /^(\s*)(v?)\d+\.\d+\.\d+(?:[-+]\S*)?(\s*)$/.exec(raw);
  if (exact) return `${exact[1]}${exact[2]}${REVISIONS[to].chartVersion}${exact[3]}`;
  const m = /^(\s*)(\^|~>|~|=)?(\s*)(v?)(\d+)\.(\d+)(?:\.(\d+|[xX*]))?(\s*)$/.exec(raw);
  if (!m) return undefined;
  const patch = m[7] === undefined ? '' : /^\d+$/.test(m[7]) ? `.${target[2]}` : `.${m[7]}`;
  return `${m[1]}${m[2] ?? ''}${m[3]}${m[4]}${target[0]}.${target[1]}${patch}${m[8]}`;
}
