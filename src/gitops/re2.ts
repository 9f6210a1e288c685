// A Go regular expression (RE2 syntax, as Go's regexp package compiles it: Flux's semverFilter)
// turned into a JavaScript RegExp that matches the same texts. Only whether a text matches is
// asked (Go's MatchString), so greediness (the U flag, `*?`) changes nothing. What differs between
// the two syntaxes is translated: the flag groups `(?i)`, `(?m)`, `(?s)`, `(?U)` (leading, in the
// middle, negated, or scoped as `(?i:…)`), `(?P<name>…)`, `\A`, `\z`, `\Q…\E`, `[[:alpha:]]`,
// `^`, `$` and `.` as RE2 reads them, and RE2's `\s`. What RE2 refuses but JavaScript would take
// (lookaround, backreferences) is refused, as Flux refuses the pattern; the few RE2 features with
// no translation here (`\p{…}`, `\C`) are refused by name.

export class Re2Error extends Error {}

interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
}

const POSIX: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-/:-@[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

const isLetter = (c: string) => /^[A-Za-z]$/.test(c);
const swap = (c: string) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase());
/** An ASCII letter's other cases under Go's simple case folding: k also folds with the Kelvin sign, s with the long s. */
const others = (c: string) => `${swap(c)}${/[kK]/.test(c) ? '\u212A' : /[sS]/.test(c) ? '\u017F' : ''}`;
const escapeChar = (c: string) => (/[\\^$.*+?()[\]{}|/-]/.test(c) ? `\\${c}` : c);

/** The RE2 pattern as a JavaScript RegExp; throws Re2Error naming what RE2 refuses, or what has no translation. */
export function re2ToRegExp(pattern: string): RegExp {
  let out = '';
  let flags: Flags = { i: false, m: false, s: false };
  const stack: Flags[] = [];
  const literal = (c: string) => {
    foldable(c, flags);
    return flags.i && isLetter(c) ? `[${c}${others(c)}]` : escapeChar(c);
  };
  const at = (i: number) => `at character ${i + 1}`;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '\\') {
      const e = pattern[i + 1];
      if (e === undefined) throw new Re2Error(`a trailing \\ ${at(i)}`);
      i++;
      if (e === 'Q') {
        const end = pattern.indexOf('\\E', i + 1);
        const text = end < 0 ? pattern.slice(i + 1) : pattern.slice(i + 1, end);
        for (const ch of text) out += literal(ch);
        i = end < 0 ? pattern.length : end + 1;
      } else if (e === 'A') out += '(?<![\\s\\S])';
      else if (e === 'z') out += '(?![\\s\\S])';
      else if (e === 's') out += '[\\t\\n\\f\\r ]';
      else if (e === 'S') out += '[^\\t\\n\\f\\r ]';
      else if (e === 'p' || e === 'P') throw new Re2Error(`the Unicode class \\${e} ${at(i - 1)} is RE2 syntax agentplat does not translate; write the characters as a class ([A-Za-z])`);
      else if (e === 'C') throw new Re2Error(`\\C (any byte) ${at(i - 1)} is RE2 syntax agentplat does not translate`);
      else if (/[1-9]/.test(e)) throw new Re2Error(`\\${e} ${at(i - 1)} is a backreference, which RE2 does not have (Flux refuses the pattern)`);
      else if (e === 'k') throw new Re2Error(`\\k ${at(i - 1)} is a named backreference, which RE2 does not have (Flux refuses the pattern)`);
      else if (e === 'x' && pattern[i + 1] === '{') {
        const end = pattern.indexOf('}', i + 2);
        const code = end < 0 ? NaN : parseInt(pattern.slice(i + 2, end), 16);
        if (!Number.isFinite(code) || code > 0xffff) throw new Re2Error(`the escape \\x{…} ${at(i - 1)} is not a character agentplat can translate`);
        out += literal(String.fromCharCode(code));
        i = end;
      } else out += isLetter(e) || /[0-9]/.test(e) ? `\\${e}` : escapeChar(e);
      continue;
    }
    if (c === '(') {
      if (pattern[i + 1] !== '?') {
        stack.push(flags);
        out += '(';
        continue;
      }
      const rest = pattern.slice(i + 2);
      const named = /^P?<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      if (named) {
        stack.push(flags);
        out += `(?<${named[1]!}>`;
        i += 1 + named[0].length;
        continue;
      }
      if (/^(=|!|<=|<!)/.test(rest)) throw new Re2Error(`the lookaround (?${/^(=|!|<=|<!)/.exec(rest)![1]!} ${at(i)}, which RE2 does not have (Flux refuses the pattern)`);
      const group = /^([imsU]*)(?:-([imsU]*))?([:)])/.exec(rest);
      if (!group || (group[1] === '' && group[2] === undefined && group[3] === ')') || group[2] === '') throw new Re2Error(`the group (?${rest.slice(0, 4)}… ${at(i)} is not RE2 syntax (flags are (?i), (?m), (?s), (?U), (?i:…), (?-i))`);
      const next: Flags = { ...flags };
      for (const f of group[1]!) if (f !== 'U') next[f as keyof Flags] = true;
      for (const f of group[2] ?? '') if (f !== 'U') next[f as keyof Flags] = false;
      if (group[3] === ':') {
        stack.push(flags);
        out += '(?:';
      }
      // `(?i)` sets the flags up to the end of the group it is in.
      flags = next;
      i += 1 + group[0].length;
      continue;
    }
    if (c === ')') {
      if (stack.length === 0) throw new Re2Error(`the ) ${at(i)} closes no group`);
      flags = stack.pop()!;
      out += ')';
      continue;
    }
    if (c === '[') {
      const { text, end } = classOf(pattern, i, flags);
      out += text;
      i = end;
      continue;
    }
    if (c === '.') out += flags.s ? '[\\s\\S]' : '[^\\n]';
    else if (c === '^') out += flags.m ? '(?<![^\\n])' : '(?<![\\s\\S])';
    else if (c === '$') out += flags.m ? '(?![^\\n])' : '(?![\\s\\S])';
    else if ('*+?{}|'.includes(c)) out += c;
    else out += literal(c);
  }
  if (stack.length > 0) throw new Re2Error('a ( is not closed');
  try {
    return new RegExp(out);
  } catch (err) {
    throw new Re2Error((err as Error).message.replace(/^Invalid regular expression: \/.*\/: /, ''));
  }
}

/** A character class from `[` at `start`: its JavaScript text, and where it ends. */
function classOf(pattern: string, start: number, flags: Flags): { text: string; end: number } {
  let i = start + 1;
  let negate = false;
  if (pattern[i] === '^') {
    negate = true;
    i++;
  }
  const items: string[] = [];
  let first = true;
  for (; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === ']' && !first) break;
    first = false;
    const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
    if (posix) {
      const set = POSIX[posix[2]!];
      if (!set) throw new Re2Error(`[:${posix[2]!}:] at character ${i + 1} is not a POSIX class of RE2`);
      if (posix[1]) throw new Re2Error(`the negated POSIX class [:^${posix[2]!}:] at character ${i + 1} is RE2 syntax agentplat does not translate`);
      items.push(set);
      i += posix[0].length - 1;
      continue;
    }
    let lo = c;
    if (c === '\\') {
      const e = pattern[++i];
      if (e === undefined) break;
      if (e === 'p' || e === 'P' || e === 'Q') throw new Re2Error(`\\${e} inside a class at character ${i} is RE2 syntax agentplat does not translate`);
      if (/[dDwWsSbfnrtv]/.test(e)) {
        items.push(e === 's' ? '\\t\\n\\f\\r ' : `\\${e}`);
        continue;
      }
      lo = e;
    }
    if (pattern[i + 1] === '-' && pattern[i + 2] !== undefined && pattern[i + 2] !== ']') {
      let hi = pattern[i + 2]!;
      i += 2;
      if (hi === '\\') hi = pattern[++i] ?? '';
      items.push(`${escapeChar(lo)}-${escapeChar(hi)}`);
      if (flags.i) {
        const letters = /^[a-z]$/.test(lo) && /^[a-z]$/.test(hi) || /^[A-Z]$/.test(lo) && /^[A-Z]$/.test(hi);
        if (letters) items.push(`${swap(lo)}-${swap(hi)}`, ...[...'kKsS'].filter((l) => l >= lo && l <= hi).map((l) => others(l).slice(1)));
        else if (/[A-Za-z]/.test(String.fromCharCode(...range(lo, hi)))) throw new Re2Error(`the range ${lo}-${hi} under (?i) at character ${i + 1} mixes letters and other characters, which agentplat does not translate; write the letters' range on its own`);
      }
      continue;
    }
    foldable(lo, flags);
    items.push(escapeChar(lo));
    if (flags.i && isLetter(lo)) items.push(others(lo));
  }
  if (i >= pattern.length) throw new Re2Error(`the [ at character ${start + 1} is not closed`);
  return { text: `[${negate ? '^' : ''}${items.join('')}]`, end: i };
}

/** Go folds case by Unicode's simple folding orbits (ß with ẞ, k with K and the Kelvin sign); agentplat folds ASCII letters only and refuses the rest. */
function foldable(c: string, flags: Flags): void {
  if (flags.i && c.charCodeAt(0) > 0x7f && c.toLowerCase() !== c.toUpperCase()) {
    throw new Re2Error(`the letter ${c} under (?i) folds by Unicode's rules, which agentplat does not translate; write the letters you mean in a class, without (?i)`);
  }
}

function range(lo: string, hi: string): number[] {
  const out: number[] = [];
  for (let c = lo.charCodeAt(0); c <= hi.charCodeAt(0) && out.length < 256; c++) out.push(c);
  return out;
}
