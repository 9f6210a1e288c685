// `-f https://HOST:PORT/…` on a port Node's fetch never connects to (the Fetch standard blocks the
// ports of other protocols, 1 and 6000 among them): fetch refuses before any connection is made,
// and said only "bad port". The message names the port and why. No server is involved, and the
// assertion is on the wording alone.
import { expect, test } from 'vitest';
import { readUserFile, type InputReader } from '../src/values/load.ts';
import { usageError } from './helpers/usage-error.ts';

const reader: InputReader = { cwd: '/', readStdin: async () => '' };

test('a port that fetch refuses to connect to (port 1, 6000) is named, not called a bad port', async () => {
  for (const port of [1, 6000]) {
    const e = await usageError(readUserFile(`https://127.0.0.1:${port}/v.yaml`, reader));
    expect(e.message).toBe(
      `https://127.0.0.1:${port}/v.yaml: cannot read values file: port ${port} of 127.0.0.1 is one Node's fetch never connects to (the Fetch standard blocks the ports of other protocols)`,
    );
    expect(e.hint).toBe('serve the file on another port, or download it and pass its path');
  }
});

