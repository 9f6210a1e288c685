// Reads the YAML that templates produce, fast. Templates write block maps and lists whose leaf
// values are either plain words written in the template (`kind: Service`, `protocol: TCP`) or
// JSON printed by the `json` helper; that subset is read here without the general parser, which
// was the largest cost of a render. Anything outside the subset (block scalars, anchors, tags,
// quotes other than JSON's, duplicate keys, …) returns undefined and the caller falls back to the
// yaml library, so the result never depends on which reader ran.

interface Line {
  indent: number;
  text: string;
}

class Unsupported extends Error {}

const PLAIN_WORD = /^[A-Za-z0-9_./@$()-][^#:]*$/;
const PLAIN_KEY = /^[A-Za-z0-9_./-][A-Za-z0-9_./ -]*$/;

/** The documents of `text`, or undefined when it leaves the subset this reader handles. */
export function readTemplateYaml(text: string): unknown[] | undefined {
  const docs: Line[][] = [[]];
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (line === '---' || line.startsWith('--- ')) {
      if (line !== '---') return undefined;
      docs.push([]);
      continue;
    }
    if (line === '...' || /^%/.test(line)) return undefined;
    const content = line.trimStart();
    if (content === '' || content.startsWith('#')) continue;
    if (line.includes('\t')) return undefined;
    docs[docs.length - 1]!.push({ indent: line.length - content.length, text: content });
  }
  try {
    return docs.filter((d) => d.length > 0).map((lines) => new Reader(lines).document());
  } catch (err) {
    if (err instanceof Unsupported || err instanceof SyntaxError) return undefined;
    throw err;
  }
}

class Reader {
  private i = 0;
  constructor(private readonly lines: Line[]) {}

  document(): unknown {
    const first = this.lines[0]!;
    // A whole document printed by the `json` helper (extraObjects): one JSON flow line.
    if (this.lines.length === 1 && (first.text.startsWith('{') || first.text.startsWith('['))) return JSON.parse(first.text);
    const value = this.block(first.indent);
    if (this.i < this.lines.length) throw new Unsupported();
    return value;
  }

  private block(indent: number): unknown {
    const line = this.lines[this.i]!;
    if (line.indent !== indent) throw new Unsupported();
    return isItem(line.text) ? this.sequence(indent) : this.mapping(indent);
  }

  private sequence(indent: number): unknown[] {
    const out: unknown[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent || !isItem(line.text)) throw new Unsupported();
      const rest = line.text === '-' ? '' : line.text.slice(2).trimStart();
      if (rest === '') {
        this.i++;
        const next = this.lines[this.i];
        if (!next || next.indent <= indent) throw new Unsupported();
        out.push(this.block(next.indent));
      } else if (isItem(rest) || keyOf(rest) !== undefined) {
        // `- key: value` or `- - x`: the item is a block starting two columns further in.
        const inner = line.indent + (line.text.length - rest.length);
        this.lines[this.i] = { indent: inner, text: rest };
        out.push(this.block(inner));
      } else {
        out.push(scalar(rest));
        this.i++;
      }
    }
    return out;
  }

  private mapping(indent: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    while (this.i < this.lines.length) {
      const line = this.lines[this.i]!;
      if (line.indent < indent) break;
      if (line.indent > indent || isItem(line.text)) throw new Unsupported();
      const kv = keyOf(line.text);
      if (!kv) throw new Unsupported();
      if (Object.prototype.hasOwnProperty.call(out, kv.key) || kv.key === '__proto__') throw new Unsupported();
      this.i++;
      if (kv.rest !== '') {
        out[kv.key] = scalar(kv.rest);
        continue;
      }
      const next = this.lines[this.i];
      if (next && (next.indent > indent || (next.indent === indent && isItem(next.text)))) out[kv.key] = this.block(next.indent);
      else out[kv.key] = null;
    }
    return out;
  }
}

function isItem(text: string): boolean {
  return text === '-' || text.startsWith('- ');
}

/** `key: rest` with a plain or JSON-quoted key; undefined when the line is not a key line. */
function keyOf(text: string): { key: string; rest: string } | undefined {
  let key: string;
  let after: string;
  if (text.startsWith('"')) {
    const end = jsonStringEnd(text);
    if (end < 0) return undefined;
    key = JSON.parse(text.slice(0, end + 1)) as string;
    after = text.slice(end + 1);
    if (!after.startsWith(':')) return undefined;
  } else {
    // A plain key runs to the first ':' (the key characters exclude it), which must end the line
    // or be followed by a space.
    const colon = text.indexOf(':');
    if (colon <= 0 || (colon + 1 < text.length && text.charCodeAt(colon + 1) !== 32)) return undefined;
    key = text.slice(0, colon);
    if (!PLAIN_KEY.test(key)) return undefined;
    after = text.slice(colon);
  }
  if (after !== ':' && !after.startsWith(': ')) return undefined;
  return { key, rest: after.slice(1).trim() };
}

function jsonStringEnd(text: string): number {
  for (let k = 1; k < text.length; k++) {
    if (text[k] === '\\') k++;
    else if (text[k] === '"') return k;
  }
  return -1;
}

/** A leaf: JSON from the `json` helper, or a plain word written in a template. */
/** A JSON string without escapes or control characters: its value is the text between the quotes. */
const SIMPLE_JSON_STRING = /^"[^"\\\u0000-\u001f]*"$/;

function scalar(text: string): unknown {
  const c = text[0];
  if (c === '"' && SIMPLE_JSON_STRING.test(text)) return text.slice(1, -1);
  if (c === '{' || c === '[' || c === '"') return JSON.parse(text);
  if (/^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$/.test(text)) return Number(text);
  // Other number spellings (01, .5, +1, 1.) are left to the full parser's core schema.
  if (/^[-+.]?\d/.test(text)) throw new Unsupported();
  if (text === 'true' || text === 'false') return text === 'true';
  if (text === 'null' || text === '~') return null;
  if (!PLAIN_WORD.test(text) || text.includes(' #') || /^(True|False|TRUE|FALSE|Null|NULL|\.inf|\.nan|0x|0o)/i.test(text)) throw new Unsupported();
  return text;
}
