import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type FusionApp, type HandlerExtra } from '../../src/index.js';
import { RedisNonceStore } from '../../src/redis/index.js';
import { messagesOf } from '../_helpers/raw.js';
import { ready, redisClient, uniquePrefix } from './clients.js';

const META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
};
const alice = {
  authInfo: { token: 't-alice', clientId: 'app', scopes: [], extra: { sub: 'alice', iss: 'https://id.example' } },
};

/** One raw 2026-07-28 `tools/call` of `pay` as alice, resolving to its JSON-RPC response. */
async function pay(app: FusionApp, extra: Record<string, unknown> = {}): Promise<any> {
  const headers = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': 'pay',
  };
  const body = {
    jsonrpc: '2.0',
    id: 7,
    method: 'tools/call',
    params: { name: 'pay', arguments: {}, ...extra, _meta: META },
  };
  const res = await app.fetch(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
    alice as never,
  );
  return (await messagesOf(res)).find((m) => m.id === 7);
}

const f = initFusion();
const confirm = inputRequired.elicit({
  message: 'Pay?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
});
const answers = { ok: { action: 'accept', content: { ok: true } } };
let paid = 0;
const registry = f.registry().registerAll(
  f.mutation('pay').handle(async (_i, _c, extra: HandlerExtra) => {
    if (extra.requestState === undefined)
      return inputRequired({ inputRequests: { ok: confirm }, requestState: await extra.sealState({ order: 1 }) });
    paid++;
    return 'paid';
  }),
);

describe('a sealed requestState is accepted once across instances that share a RedisNonceStore', () => {
  it('finishes the flow on another instance, then refuses the replay on every instance with the usual answer', async () => {
    const client = await ready(redisClient());
    const prefix = uniquePrefix('nonce');
    const make = () =>
      createFusionApp(registry, {
        requestState: { key: 'k'.repeat(32), ttlSeconds: 60, nonces: new RedisNonceStore({ client, prefix }) },
      });
    const [a, b] = [make(), make()];
    const first = await pay(a);
    const state: string = first.result.requestState;
    paid = 0;
    expect((await pay(b, { requestState: state, inputResponses: answers })).result.content[0].text).toBe('paid');
    for (const app of [a, b]) {
      const replay = await pay(app, { requestState: state, inputResponses: answers });
      expect(replay.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
      expect(replay.error.message).toMatch(/^Invalid or expired requestState: .*was already used/);
    }
    expect(paid).toBe(1);
    // One key per used state, expiring with it (60 s TTL plus the 60 s skew allowance).
    const keys = await client.keys(`${prefix}*`);
    expect(keys).toHaveLength(1);
    const ttl = await client.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(121_000);
    await Promise.all([a.close(), b.close()]);
  });

  it('lets exactly one of two instances accept the same state presented to both at once', async () => {
    const client = await ready(redisClient());
    const nonces = () => new RedisNonceStore({ client, prefix: uniquePrefix('nonce-race') });
    const shared = nonces();
    const make = () => createFusionApp(registry, { requestState: { key: 'k'.repeat(32), nonces: shared } });
    const [a, b] = [make(), make()];
    const state: string = (await pay(a)).result.requestState;
    paid = 0;
    const both = await Promise.all(
      [a, b, a, b].map((app) => pay(app, { requestState: state, inputResponses: answers })),
    );
    expect(both.filter((m) => m.result?.content?.[0]?.text === 'paid')).toHaveLength(1);
    expect(both.filter((m) => m.error?.data?.reason === 'invalid_request_state')).toHaveLength(3);
    expect(paid).toBe(1);
    await Promise.all([a.close(), b.close()]);
  });

  it('answers a retryable error, and runs nothing, when the shared store cannot be reached', async () => {
    const client = await ready(redisClient());
    const app = createFusionApp(registry, {
      requestState: {
        key: 'k'.repeat(32),
        nonces: new RedisNonceStore({ client, prefix: uniquePrefix('nonce-down') }),
      },
    });
    const state: string = (await pay(app)).result.requestState;
    paid = 0;
    client.disconnect();
    const refused = await pay(app, { requestState: state, inputResponses: answers });
    expect(refused.error).toMatchObject({ code: -32603, data: { reason: 'request_state_store', retryable: true } });
    expect(refused.error.message).toMatch(
      /^requestState could not be checked as unused \(Redis is not connected.*nothing ran\. Retry the same request shortly\.$/,
    );
    expect(paid).toBe(0);
    await app.close();
  });
});
