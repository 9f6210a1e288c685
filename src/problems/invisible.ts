// Characters a reader cannot see or cannot tell apart from another in a key: a zero-width space
// pasted from a web page makes `re​plicas` look like `replicas`, and a Cyrillic `а` makes
// `replicаs` look the same. An unknown key that holds one names the character and where it is,
// since "did you mean `replicas`?" alone points at a word that looks identical.

/** Names of the invisible characters met in pasted text (the Unicode names). */
const INVISIBLE_NAMES: Record<number, string> = {
  0x00a0: 'NO-BREAK SPACE',
  0x00ad: 'SOFT HYPHEN',
  0x034f: 'COMBINING GRAPHEME JOINER',
  0x061c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x1680: 'OGHAM SPACE MARK',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x2000: 'EN QUAD',
  0x2001: 'EM QUAD',
  0x2002: 'EN SPACE',
  0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE',
  0x2005: 'FOUR-PER-EM SPACE',
  0x2006: 'SIX-PER-EM SPACE',
  0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE',
  0x2009: 'THIN SPACE',
  0x200a: 'HAIR SPACE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x205f: 'MEDIUM MATHEMATICAL SPACE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
};

/** Letters of other scripts drawn like a Latin letter: code point → [Unicode name, the Latin letter]. */
const LOOKALIKES: Record<number, readonly [string, string]> = {
  0x0430: ['CYRILLIC SMALL LETTER A', 'a'],
  0x0435: ['CYRILLIC SMALL LETTER IE', 'e'],
  0x043e: ['CYRILLIC SMALL LETTER O', 'o'],
  0x0440: ['CYRILLIC SMALL LETTER ER', 'p'],
  0x0441: ['CYRILLIC SMALL LETTER ES', 'c'],
  0x0443: ['CYRILLIC SMALL LETTER U', 'y'],
  0x0445: ['CYRILLIC SMALL LETTER HA', 'x'],
  0x0455: ['CYRILLIC SMALL LETTER DZE', 's'],
  0x0456: ['CYRILLIC SMALL LETTER BYELORUSSIAN-UKRAINIAN I', 'i'],
  0x0458: ['CYRILLIC SMALL LETTER JE', 'j'],
  0x0501: ['CYRILLIC SMALL LETTER KOMI DE', 'd'],
  0x0410: ['CYRILLIC CAPITAL LETTER A', 'A'],
  0x0412: ['CYRILLIC CAPITAL LETTER VE', 'B'],
  0x0415: ['CYRILLIC CAPITAL LETTER IE', 'E'],
  0x041a: ['CYRILLIC CAPITAL LETTER KA', 'K'],
  0x041c: ['CYRILLIC CAPITAL LETTER EM', 'M'],
  0x041d: ['CYRILLIC CAPITAL LETTER EN', 'H'],
  0x041e: ['CYRILLIC CAPITAL LETTER O', 'O'],
  0x0420: ['CYRILLIC CAPITAL LETTER ER', 'P'],
  0x0421: ['CYRILLIC CAPITAL LETTER ES', 'C'],
  0x0422: ['CYRILLIC CAPITAL LETTER TE', 'T'],
  0x0425: ['CYRILLIC CAPITAL LETTER HA', 'X'],
  0x03b1: ['GREEK SMALL LETTER ALPHA', 'a'],
  0x03b9: ['GREEK SMALL LETTER IOTA', 'i'],
  0x03bd: ['GREEK SMALL LETTER NU', 'v'],
  0x03bf: ['GREEK SMALL LETTER OMICRON', 'o'],
  0x03c1: ['GREEK SMALL LETTER RHO', 'p'],
  0x0391: ['GREEK CAPITAL LETTER ALPHA', 'A'],
  0x0392: ['GREEK CAPITAL LETTER BETA', 'B'],
  0x0395: ['GREEK CAPITAL LETTER EPSILON', 'E'],
  0x039f: ['GREEK CAPITAL LETTER OMICRON', 'O'],
};

/** Format and space characters not in the table: named by their kind. */
const OTHER_INVISIBLE = /[\p{Cc}\p{Cf}\p{Zs}\p{Zl}\p{Zp}]/u;

export interface OddCharacter {
  /** UTF-16 index of the character in the text. */
  index: number;
  /** `U+200B ZERO WIDTH SPACE`, `U+0009 (a control character)`. */
  name: string;
  /** The Latin letter a lookalike is drawn like; undefined for an invisible character. */
  looksLike?: string;
}

/**
 * The first character of `text` that cannot be seen (zero-width, bidi controls, spaces other than
 * U+0020, control characters) or that is a letter of another script drawn like a Latin one, in
 * text that is otherwise Latin; undefined when there is none.
 */
export function oddCharacter(text: string): OddCharacter | undefined {
  const latin = /[A-Za-z]/.test(text);
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
    const known = INVISIBLE_NAMES[code];
    if (known) return { index: i, name: `${hex} ${known}` };
    const look = LOOKALIKES[code];
    if (look && latin) return { index: i, name: `${hex} ${look[0]}`, looksLike: look[1] };
    const ch = String.fromCodePoint(code);
    if (code !== 0x20 && OTHER_INVISIBLE.test(ch)) {
      const kind = /\p{Cc}/u.test(ch) ? 'a control character' : /\p{Cf}/u.test(ch) ? 'a format character' : 'a space';
      return { index: i, name: `${hex} (${kind})` };
    }
    if (code > 0xffff) i++;
  }
  return undefined;
}

/** `text` with every invisible character written as `\u200B`, so a message shows where it is. */
export function visibleText(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const invisible = INVISIBLE_NAMES[code] !== undefined || (code !== 0x20 && OTHER_INVISIBLE.test(ch));
    out += invisible ? `\\u${code.toString(16).toUpperCase().padStart(4, '0')}` : ch;
  }
  return out;
}

/** The text with the odd characters taken out (invisible) or replaced by their Latin letter. */
export function withoutOddCharacters(text: string): string {
  const latin = /[A-Za-z]/.test(text);
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    const look = latin ? LOOKALIKES[code] : undefined;
    if (INVISIBLE_NAMES[code] !== undefined || (code !== 0x20 && OTHER_INVISIBLE.test(ch))) continue;
    out += look ? look[1] : ch;
  }
  return out;
}
