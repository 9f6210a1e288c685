// `-f https://…` reads values from a URL as helm does (issue 23, item 17): fetched with a size
// limit and a timeout, every error one line naming the URL. The server is a local one on
// 127.0.0.1 (the tests have no other network).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadUserLayers, MAX_VALUES_FILE_BYTES, readUserFile, type InputReader } from '../src/values/load.ts';
import { layerValues } from '../src/values/merge.ts';
import { createMemoryIo } from '../src/cli/io.ts';
import { run } from '../src/cli/program.ts';
import { usageError } from './helpers/usage-error.ts';

let server: Server;
let base: string;
// The readers' default timeout (30 s) for answers that come, so a loaded machine cannot turn them
// into timeouts; a short one only where the server never answers.
const reader: InputReader = { cwd: '/', readStdin: async () => '' };
const impatient: InputReader = { ...reader, urlTimeoutMs: 300 };

beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/values.yaml':
        res.end('controller:\n  replicas: 3\n');
        return;
      case '/moved':
        res.writeHead(302, { location: '/values.yaml' }).end();
        return;
      case '/latin1.yaml':
        res.end(Buffer.concat([Buffer.from('a: caf'), Buffer.from([0xe9]), Buffer.from('\n')]));
        return;
      case '/declared-huge':
        res.writeHead(200, { 'content-length': String(MAX_VALUES_FILE_BYTES + 1) });
        res.write('a: 1\n');
        return; // never ends: the declared length alone refuses it
      case '/endless': {
        res.writeHead(200);
        const chunk = Buffer.alloc(64 * 1024, 'a');
        const pump = () => {
          while (res.write(chunk)) if (res.destroyed) return;
          res.once('drain', pump);
        };
        res.on('error', () => undefined);
        pump();
        return;
      }
      case '/silent':
        return; // answers nothing
      default:
        res.writeHead(404, 'Not Found').end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe('-f with an http(s) URL', () => {
  test('reads the values the URL serves, as a layer named by the URL', async () => {
    const { sources, problems } = await loadUserLayers({ values: [`${base}/values.yaml`] }, reader);
    expect(problems).toEqual([]);
    expect(sources.map((s) => s.name)).toEqual([`${base}/values.yaml`]);
    expect(layerValues(sources).values).toEqual({ controller: { replicas: 3 } });
  });

  test('follows a redirect', async () => {
    expect((await readUserFile(`${base}/moved`, reader)).text).toBe('controller:\n  replicas: 3\n');
  });

  test('an answer other than 2xx is a usage error naming the URL and the status', async () => {
    const e = await usageError(readUserFile(`${base}/missing.yaml`, reader));
    expect(e.message).toBe(`${base}/missing.yaml: cannot read values file: the server answered 404 Not Found`);
  });

  test('a body that is not UTF-8 is refused as a file is', async () => {
    const e = await usageError(readUserFile(`${base}/latin1.yaml`, reader));
    expect(e.message).toBe(`${base}/latin1.yaml:1:7: not UTF-8 text (byte 0xe9), not a values file`);
  });

  test('a body larger than the limit is refused, by its declared length or while it streams', async () => {
    expect((await usageError(readUserFile(`${base}/declared-huge`, reader))).message).toMatch(new RegExp(`^${base}/declared-huge: 1\\.0 MiB is too large for a values file`));
    expect((await usageError(readUserFile(`${base}/endless`, reader))).message).toMatch(new RegExp(`^${base}/endless: at least 1\\.0 MiB is too large for a values file`));
  });

  test('a server that does not answer is given up after the timeout', async () => {
    const e = await usageError(readUserFile(`${base}/silent`, impatient));
    expect(e.message).toBe(`${base}/silent: cannot read values file: no complete answer within 0.3 s`);
  });

  test('nothing listening is a usage error naming the URL', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const e = await usageError(readUserFile(`http://127.0.0.1:${port}/v.yaml`, reader));
    expect(e.message).toBe(`http://127.0.0.1:${port}/v.yaml: cannot read values file: ECONNREFUSED`);
  });

  test('render -f <url> renders with the values the URL serves', async () => {
    const io = createMemoryIo({});
    const code = await run(['render', '--skip-crds', '--show-only', 'templates/controller-deployment.yaml', '-f', `${base}/values.yaml`], io);
    expect(code).toBe(0);
    expect(io.out).toContain('replicas: 3\n');
  });
});
