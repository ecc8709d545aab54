import { connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteLedger } from '../../src/ledger/index.js';
import { initFusion, startServer } from '../../src/index.js';
import { until } from '../_helpers/waitFor.js';
import { closeAgents, modernRequest, postFrom } from '../abuse/_peerRequest.js';

afterAll(closeAgents);

const f = initFusion();
const registry = f.registry().register(f.query('echo').handle(() => 'ok'));

/** A raw HTTP POST from `peer` announcing `length` bytes of JSON (chunked without): the socket, its answer as it comes. */
function rawPost(port: number, peer: string, length?: number): { socket: Socket; answer: () => string } {
  const socket = connect({ port, host: '127.0.0.1', localAddress: peer });
  let answer = '';
  socket.on('data', (chunk: Buffer) => void (answer += chunk.toString('utf8')));
  socket.on('error', () => {});
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
      `Accept: application/json, text/event-stream\r\n` +
      (length === undefined ? 'Transfer-Encoding: chunked\r\n\r\n' : `Content-Length: ${length}\r\n\r\n`),
  );
  return { socket, answer: () => answer };
}

describe('request bodies in the ledger', () => {
  it('counts a body chunk by chunk for its peer while it arrives and releases it when the client goes', async () => {
    const ledger = new ByteLedger({ perPrincipal: 256 * 1024, perPeer: 256 * 1024 });
    await using server = Object.assign(await startServer(registry, { port: 0, heldBytes: ledger }), {
      [Symbol.asyncDispose]: () => server.close(),
    });
    const slow = rawPost(server.port!, '127.0.0.2', 100_000);
    slow.socket.write(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":"${'a'.repeat(30_000)}`);
    await until(() => ledger.peerBytes('127.0.0.2', 'body') >= 30_000, 'the first chunks to be counted');
    expect(ledger.principalBytes('peer:127.0.0.2', 'body')).toBe(ledger.peerBytes('127.0.0.2'));
    slow.socket.destroy();
    await until(() => ledger.bytes === 0, 'the hold to end with the client');
  });

  it('refuses the chunk past the peer budget: 429, Retry-After, the text, the reading stopped; others served', async () => {
    const ledger = new ByteLedger({ perPrincipal: 256 * 1024, perPeer: 64 * 1024, retryAfterSeconds: 7 });
    await using server = Object.assign(await startServer(registry, { port: 0, heldBytes: ledger }), {
      [Symbol.asyncDispose]: () => server.close(),
    });
    const first = rawPost(server.port!, '127.0.0.3', 60_000);
    first.socket.write('{"a":"' + 'b'.repeat(40_000));
    await until(() => ledger.peerBytes('127.0.0.3') >= 40_000, 'the first body to be counted');
    // A second body from the same peer, its length not announced (chunked), sent past the peer's budget.
    const second = rawPost(server.port!, '127.0.0.3');
    const piece = '{"a":"' + 'b'.repeat(29_994);
    for (let i = 0; i < 3; i++) second.socket.write(`${(30_000).toString(16)}\r\n${piece}\r\n`);
    await until(() => second.answer().includes('\r\n\r\n{'), 'the refusal');
    const [head, body] = second.answer().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 429/);
    expect(head).toMatch(/retry-after: 7/i);
    // The rest of the body flows by discarded (closing on unread bytes would reset the answer away).
    expect(head).not.toMatch(/connection: close/i);
    const error = (JSON.parse(body!) as { error: { message: string } }).error;
    expect(error.message).toMatch(/for your network address .* then retry after 7 s/);
    expect(ledger.peerBytes('127.0.0.3')).toBeLessThan(64 * 1024);
    // Another peer is served meanwhile.
    const list = modernRequest('tools/list');
    expect((await postFrom('127.0.0.4', server.url, list.body, list.headers)).status).toBe(200);
    first.socket.destroy();
    second.socket.destroy();
    await until(() => ledger.bytes === 0, 'every body hold to end');
  });

  it('refuses a declared length past the budget before reading a byte, and holds nothing after an answer', async () => {
    const ledger = new ByteLedger({ perPrincipal: 64 * 1024, perPeer: 64 * 1024 });
    await using server = Object.assign(await startServer(registry, { port: 0, heldBytes: ledger }), {
      [Symbol.asyncDispose]: () => server.close(),
    });
    const big = await postFrom('127.0.0.5', server.url, JSON.stringify({ pad: 'x'.repeat(100_000) }));
    expect([big.status, big.headers['retry-after']]).toEqual([429, '5']);
    expect(ledger.bytes).toBe(0);
    const list = modernRequest('tools/list');
    const ok = await postFrom('127.0.0.5', server.url, list.body, list.headers);
    expect(ok.status).toBe(200);
    expect(ledger.bytes).toBe(0);
  });
});
