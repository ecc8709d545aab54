import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { ByteLedger } from '../../src/ledger/index.js';
import { initFusion, startServer } from '../../src/index.js';
import { until } from '../_helpers/waitFor.js';
import { closeAgents, postFrom } from '../abuse/_peerRequest.js';

afterAll(closeAgents);

const f = initFusion();
const registry = f.registry().register(f.query('echo').handle(() => 'ok'));

/** A legacy `initialize` whose capabilities carry `pad` bytes of experimental data. */
const initialize = (pad: number) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: { experimental: { pad: { data: 'x'.repeat(pad) } } },
    clientInfo: { name: 'ledger', version: '1' },
  },
});

/** DELETE of a legacy session (its end), from `peer`. */
function deleteSession(url: string, peer: string, id: string): Promise<number> {
  return new Promise((resolve, reject) => {
    request(url, { method: 'DELETE', localAddress: peer, headers: { 'mcp-session-id': id } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });
}

describe('legacy sessions’ kept initialize params in the ledger', () => {
  it('holds them for the opener’s peer while the session lives, refuses past the budget, releases at its end', async () => {
    // While an initialize is answered its body is held too: one session of ~6 KB fits with it, two do not.
    const ledger = new ByteLedger({ perPrincipal: 14_000, retryAfterSeconds: 3 });
    const server = await startServer(registry, { port: 0, heldBytes: ledger });
    try {
      const opened = await postFrom('127.0.0.2', server.url, initialize(6_000));
      expect(opened.status, opened.body).toBe(200);
      const id = opened.headers['mcp-session-id'] as string;
      const held = ledger.peerBytes('127.0.0.2', 'session');
      expect(held).toBeGreaterThan(6_000);
      expect(ledger.principalBytes('peer:127.0.0.2', 'session')).toBe(held);
      const refused = await postFrom('127.0.0.2', server.url, initialize(6_000));
      expect([refused.status, refused.headers['retry-after']]).toEqual([429, '3']);
      expect((JSON.parse(refused.body) as { error: { message: string } }).error.message).toMatch(
        /for you .* this session .* retry after 3 s\.$/,
      );
      // Another peer opens its own.
      expect((await postFrom('127.0.0.3', server.url, initialize(6_000))).status).toBe(200);
      expect(await deleteSession(server.url, '127.0.0.2', id)).toBe(200);
      await until(() => ledger.peerBytes('127.0.0.2', 'session') === 0, 'the session’s hold to end with it');
    } finally {
      await server.close();
    }
  });
});
