import { PassThrough } from 'node:stream';
import { serveStdio } from '@modelcontextprotocol/server/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { buildServer } from '../../../src/server/buildServer.js';
import { StdioLineTransport } from '../../../src/server/stdio/StdioLineTransport.js';
import { call, heldCalls, textOf } from '../_heldCalls.js';

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

/** A stdio connection served as `serveStdio` serves it, over a stream pair: lines in, messages out by id. */
function connection(registry: ReturnType<typeof heldCalls>['registry']) {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const runtime = registry.runtime({});
  const handle = serveStdio((ctx) => buildServer(runtime, {}, ctx.era).instance, {
    transport: new StdioLineTransport({ stdin, stdout }),
  });
  const lines: any[] = [];
  const waiters: Array<{ check: (m: any) => boolean; resolve: (m: any) => void }> = [];
  let buffered = '';
  stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    for (let end = buffered.indexOf('\n'); end !== -1; end = buffered.indexOf('\n')) {
      const message = JSON.parse(buffered.slice(0, end));
      buffered = buffered.slice(end + 1);
      lines.push(message);
      for (const waiter of waiters.filter((w) => w.check(message))) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(message);
      }
    }
  });
  return {
    lines,
    send: (message: unknown) => void stdin.write(`${JSON.stringify(message)}\n`),
    /** The next message out matching `check` (counting from now). */
    next: (check: (m: any) => boolean) => new Promise<any>((resolve) => waiters.push({ check, resolve })),
    close: async () => {
      await handle.close();
      runtime.dispose();
    },
  };
}

let open: ReturnType<typeof connection> | undefined;
afterEach(async () => {
  await open?.close();
  open = undefined;
});

async function initialized(registry: ReturnType<typeof heldCalls>['registry']) {
  const conn = (open = connection(registry));
  const init = conn.next((m) => m.id === 0);
  conn.send(INIT);
  expect((await init).result.serverInfo).toBeDefined();
  conn.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return conn;
}

describe('stdio: a request id still running on the connection', () => {
  it('refuses a second request with that id, and the first answers once, under its id', async () => {
    const held = heldCalls();
    const conn = await initialized(held.registry);
    const first = conn.next((m) => m.id === 7 && 'result' in m);
    conn.send(call(7, 'hold', 'first'));
    await held.started('first');

    const refusal = conn.next((m) => m.id === 7 && 'error' in m);
    conn.send(call(7, 'hold', 'second'));
    expect(await refusal).toMatchInlineSnapshot(`
      {
        "error": {
          "code": -32600,
          "message": "Request id 7 is already in use by a request still running on this connection; send each request with a new id.",
        },
        "id": 7,
        "jsonrpc": "2.0",
      }
    `);
    expect(held.ran('second')).toBe(false);

    held.release('first');
    expect(textOf(await first)).toBe('held first');
    const again = conn.next((m) => m.id === 7 && 'result' in m);
    conn.send(call(7, 'echo', 'again'));
    expect(textOf(await again)).toBe('echo again');
    expect(conn.lines.filter((m) => m.id === 7).map((m) => textOf(m) ?? m.error.code)).toEqual([
      -32600,
      'held first',
      'echo again',
    ]);
  });

  it('still cancels the first request after refusing the second, and frees the id', async () => {
    const held = heldCalls();
    const conn = await initialized(held.registry);
    conn.send(call('job', 'hold', 'to-cancel'));
    await held.started('to-cancel');
    const refusal = conn.next((m) => m.id === 'job');
    conn.send(call('job', 'echo', 'twin'));
    expect((await refusal).error).toMatchObject({ code: -32600, message: expect.stringContaining('Request id "job"') });

    conn.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'job' } });
    await held.aborted('to-cancel');
    const again = conn.next((m) => m.id === 'job');
    conn.send(call('job', 'echo', 'after cancel'));
    expect(textOf(await again)).toBe('echo after cancel');
    expect(conn.lines.filter((m) => m.id === 'job').map((m) => textOf(m) ?? m.error.code)).toEqual([
      -32600,
      'echo after cancel',
    ]);
  });

  it('keeps a string id apart from the number it spells', async () => {
    const held = heldCalls();
    const conn = await initialized(held.registry);
    const first = conn.next((m) => m.id === 21);
    conn.send(call(21, 'hold', 'typed'));
    await held.started('typed');
    const asString = conn.next((m) => m.id === '21');
    conn.send(call('21', 'echo', 'string id'));
    expect(textOf(await asString)).toBe('echo string id');
    held.release('typed');
    expect(textOf(await first)).toBe('held typed');
  });
});
