import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type FusionApp, type HandlerExtra } from '../../src/index.js';
import { messagesOf } from '../_helpers/raw.js';

const ISS = 'https://id.example';
const user = (sub: string) => ({ token: `t-${sub}`, clientId: 'app', scopes: [], extra: { sub, iss: ISS } });
type Caller = { authInfo?: unknown; peer?: string };

/** One raw 2026-07-28 request as `caller`, resolving to its JSON-RPC response. */
async function modern(app: FusionApp, caller: Caller, params: Record<string, unknown>): Promise<any> {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': '2026-07-28',
    'io.modelcontextprotocol/clientCapabilities': { elicitation: {} },
    'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  };
  const headers = {
    host: '127.0.0.1',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2026-07-28',
    'mcp-method': 'tools/call',
    'mcp-name': String(params.name),
  };
  const body = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { ...params, _meta: meta } };
  const res = await app.fetch(
    new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: JSON.stringify(body) }),
    caller as never,
  );
  return (await messagesOf(res)).find((m) => m.id === 7);
}

const f = initFusion();
const confirm = inputRequired.elicit({
  message: 'Sure?',
  requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
});
const answers = { ok: { action: 'accept', content: { ok: true } } };
const deleted: string[] = [];
/** Two rounds per action: each seals its own step, and only a state of its own round may finish it. */
const twoRounds = (name: string) => async (_input: unknown, _ctx: unknown, extra: HandlerExtra) => {
  if (extra.requestState === undefined)
    return inputRequired({ inputRequests: { ok: confirm }, requestState: await extra.sealState({ step: name }) });
  if (name === 'confirm_delete') deleted.push('everything');
  return `${name} done`;
};
const notes = f
  .tool('notes')
  .action({ name: 'ask', readOnly: true, handler: twoRounds('ask') })
  .action({ name: 'confirm_delete', destructive: true, handler: twoRounds('confirm_delete') });
const pay = f
  .mutation('pay')
  .handle(async (_i, _c, extra: HandlerExtra) =>
    extra.requestState === undefined
      ? inputRequired({ inputRequests: { ok: confirm }, requestState: await extra.sealState({ order: 1 }) })
      : 'paid',
  );

describe('a sealed requestState is bound to the exact action that minted it', () => {
  it('refuses a state minted by action "ask" when presented to "confirm_delete" of the same grouped tool', async () => {
    const app = createFusionApp(f.registry().registerAll(notes));
    const first = await modern(app, { authInfo: user('alice') }, { name: 'notes', arguments: { action: 'ask' } });
    const state: string = first.result.requestState;
    const skipped = await modern(
      app,
      { authInfo: user('alice') },
      { name: 'notes', arguments: { action: 'confirm_delete' }, inputResponses: answers, requestState: state },
    );
    expect(skipped.error).toMatchObject({ code: -32602, data: { reason: 'invalid_request_state' } });
    expect(deleted).toEqual([]);
    // The state still finishes the round it was minted for.
    const own = await modern(
      app,
      { authInfo: user('alice') },
      { name: 'notes', arguments: { action: 'ask' }, inputResponses: answers, requestState: state },
    );
    expect(own.result.content[0].text).toBe('ask done');
    await app.close();
  });
});

describe('the used-requestState set is budgeted per principal as well as in total', () => {
  it('refuses the principal that filled its share, and still serves another principal’s multi-round request', async () => {
    const app = createFusionApp(f.registry().registerAll(pay), {
      requestState: { maxUsed: 10, maxUsedPerPrincipal: 3 },
    });
    const finish = async (who: string) => {
      const first = await modern(app, { authInfo: user(who) }, { name: 'pay', arguments: {} });
      return modern(
        app,
        { authInfo: user(who) },
        { name: 'pay', arguments: {}, inputResponses: answers, requestState: first.result.requestState },
      );
    };
    for (let i = 0; i < 3; i++) expect((await finish('mallory')).result.content[0].text).toBe('paid');
    const refused = await finish('mallory');
    expect(refused.error).toMatchObject({
      code: -32602,
      data: { reason: 'request_state_budget', scope: 'principal', max: 3 },
    });
    expect(refused.error.message).toMatch(/for this caller \(3\)/);
    expect((await finish('alice')).result.content[0].text).toBe('paid');
    await app.close();
  });
});
