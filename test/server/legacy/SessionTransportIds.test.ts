import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/index.js';
import { messagesOf, openSession, post as rawPost, type RawApp } from '../../_helpers/raw.js';
import { call, heldCalls, textOf } from '../_heldCalls.js';

const held = heldCalls();
let server: Awaited<ReturnType<typeof startServer>>;
/** Real HTTP: the helpers' requests, sent to the server's URL. */
const app: RawApp = { fetch: (request) => fetch(new Request(server.url, request)) };
const post = (body: unknown, sid?: string) => rawPost(app, body, sid);

beforeAll(async () => {
  server = await startServer(held.registry, { port: 0 });
});
afterAll(() => server.close());

describe('legacy session: a request id still running', () => {
  it('refuses a second request with that id at once, and the first answers on its own POST', async () => {
    const sid = await openSession(app);
    const first = post(call(7, 'hold', 'first'), sid);
    await held.started('first');

    const second = await post(call(7, 'hold', 'second'), sid);
    expect(second.status).toBe(200);
    expect(second.headers.get('content-type')).toBe('application/json');
    expect(await second.json()).toMatchInlineSnapshot(`
      {
        "error": {
          "code": -32600,
          "message": "Request id 7 is already in use by a request still running in this session; send each request with a new id.",
        },
        "id": 7,
        "jsonrpc": "2.0",
      }
    `);
    expect(held.ran('second')).toBe(false);

    held.release('first');
    const answers = await messagesOf(await first);
    expect(answers).toHaveLength(1);
    expect(answers[0].id).toBe(7);
    expect(textOf(answers[0])).toBe('held first');

    const again = await messagesOf(await post(call(7, 'echo', 'again'), sid));
    expect(again.map((m) => [m.id, textOf(m)])).toEqual([[7, 'echo again']]);
  });

  it('still cancels the first request after refusing the second, and frees the id', async () => {
    const sid = await openSession(app);
    const first = post(call('job', 'hold', 'to-cancel'), sid);
    await held.started('to-cancel');
    const second = await messagesOf(await post(call('job', 'echo', 'twin'), sid));
    expect(second[0].error).toMatchObject({ code: -32600, message: expect.stringContaining('Request id "job"') });

    const cancel = await post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'job' } }, sid);
    expect(cancel.status).toBe(202);
    await held.aborted('to-cancel');
    expect(await messagesOf(await first)).toEqual([]);

    const again = await messagesOf(await post(call('job', 'echo', 'after cancel'), sid));
    expect(again.map((m) => [m.id, textOf(m)])).toEqual([['job', 'echo after cancel']]);
  });

  it('keeps ids apart by type and by session', async () => {
    const [sid, other] = [await openSession(app), await openSession(app)];
    const first = post(call(21, 'hold', 'typed'), sid);
    await held.started('typed');
    const asString = await messagesOf(await post(call('21', 'echo', 'string id'), sid));
    expect(asString.map((m) => [m.id, textOf(m)])).toEqual([['21', 'echo string id']]);
    const elsewhere = await messagesOf(await post(call(21, 'echo', 'other session'), other));
    expect(elsewhere.map((m) => [m.id, textOf(m)])).toEqual([[21, 'echo other session']]);
    held.release('typed');
    expect((await messagesOf(await first)).map(textOf)).toEqual(['held typed']);
  });

  it('refuses only the batch member that reuses the id of a running call', async () => {
    const sid = await openSession(app);
    const first = post(call(31, 'hold', 'beside-batch'), sid);
    await held.started('beside-batch');
    const batch = await messagesOf(await post([call(31, 'echo', 'dup'), call(32, 'echo', 'fresh')], sid));
    expect(batch.map((m) => [m.id, m.error?.code ?? textOf(m)])).toEqual([
      [31, -32600],
      [32, 'echo fresh'],
    ]);
    held.release('beside-batch');
    expect((await messagesOf(await first)).map((m) => [m.id, textOf(m)])).toEqual([[31, 'held beside-batch']]);
  });

  it('refuses a lone request reusing the id of a batch member still running', async () => {
    const sid = await openSession(app);
    const batch = await post([call(41, 'hold', 'in-batch')], sid);
    await held.started('in-batch');
    const lone = await messagesOf(await post(call(41, 'echo', 'lone'), sid));
    expect(lone.map((m) => [m.id, m.error?.code])).toEqual([[41, -32600]]);
    held.release('in-batch');
    expect((await messagesOf(batch)).map((m) => [m.id, textOf(m)])).toEqual([[41, 'held in-batch']]);
    const again = await messagesOf(await post(call(41, 'echo', 'after batch'), sid));
    expect(again.map((m) => [m.id, textOf(m)])).toEqual([[41, 'echo after batch']]);
  });
});
