// The checksum annotations' digest (src/model/checksum.ts) is SHA-256 computed in JavaScript: it
// must be node:crypto's, byte for byte, for every text a values file can put in a ConfigMap.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { checksum, sha256Hex } from '../../src/model/checksum.ts';

const reference = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

describe('the checksum annotations\' sha256', () => {
  it('is node:crypto\'s for every length across the padding\'s edges (0 to 300 bytes)', () => {
    for (let n = 0; n <= 300; n++) {
      const text = 'k'.repeat(n);
      expect(sha256Hex(text), `${n} bytes`).toBe(reference(text));
    }
  });

  it('hashes the UTF-8 bytes of any text: accents, CJK, emoji (surrogate pairs), NUL, a lone surrogate', () => {
    for (const text of ['é', 'naïve café', '配置', '😀🚀', 'a\u0000b', '\ud800', 'x'.repeat(55) + '€', '{"a":"\u2028"}']) expect(sha256Hex(text), JSON.stringify(text)).toBe(reference(text));
  });

  it('is node:crypto\'s for long texts of many blocks (a megabyte of values)', () => {
    const line = 'key: "value with some text, 数字 123"\n';
    for (const n of [1000, 30_000]) {
      const text = line.repeat(n);
      expect(sha256Hex(text)).toBe(reference(text));
    }
  });

  it('a ConfigMap\'s data is hashed as its JSON text', () => {
    expect(checksum({ config: 'a: 1\n', 'ui.json': '{"x":true}' })).toBe(reference(JSON.stringify({ config: 'a: 1\n', 'ui.json': '{"x":true}' })));
  });
});
