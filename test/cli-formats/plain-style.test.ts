// Output without color never loads chalk (src/plain-style.ts): its stand-in must write what
// chalk at level 0 writes, for every style the formatters use, alone, chained and with any number
// of arguments.
import { Chalk } from 'chalk';
import { describe, expect, it } from 'vitest';
import { PLAIN } from '../../src/plain-style.ts';

const chalk0 = new Chalk({ level: 0 });
const STYLES = ['red', 'yellow', 'blue', 'green', 'cyan', 'bold', 'dim', 'gray', 'underline'] as const;
const ARGS: unknown[][] = [[], ['text'], [''], ['a', 'b'], [1, 'x', null], [undefined], ['line\nnext']];

describe('plain styles write what chalk writes without color', () => {
  it.each(STYLES)('%s, alone and chained with bold', (style) => {
    for (const args of ARGS) {
      expect(PLAIN[style](...(args as string[]))).toBe(chalk0[style](...(args as string[])));
      expect(PLAIN[style].bold(...(args as string[]))).toBe(chalk0[style].bold(...(args as string[])));
    }
  });

  it('is no promise: an async function can return it (io.ts chalkFor does)', async () => {
    const styles = await (async () => PLAIN)();
    expect(styles.red('x')).toBe('x');
  });

  it('called directly, and reports level 0', () => {
    expect(PLAIN('a', 'b')).toBe(chalk0('a', 'b'));
    expect(PLAIN.level).toBe(0);
  });
});
