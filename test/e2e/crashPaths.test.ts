import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion, type FusionApp, type HandlerExtra } from '../../src/index.js';
import { openSession, post, request } from '../_helpers/raw.js';

const f = initFusion();
const ask = (message: string) =>
  inputRequired.elicit({
    message,
    requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  });
/** Two rounds through a gated registry: a bound tool (its transition fires on the final result only) and an unbound one. */
function gatedApp(): FusionApp {
  const flow = f.fsm({
    id: 'job',
    initial: 'new',
    states: { new: { on: { START: 'running' } }, running: { on: { STOP: 'new' } } },
  });
  const answer = (extra: HandlerExtra) =>
    (extra.inputResponses as Record<string, { content?: { name?: string } }> | undefined)?.who?.content?.name;
  const start = f
    .mutation('job.start')
    .describe('Starts a job after asking who')
    .bindState('new', 'START')
    .handle(async (_i, _c, extra) => {
      const who = answer(extra);
      return who === undefined ? inputRequired({ inputRequests: { who: ask('Who?') } }) : `started by ${who}`;
    });
  const free = f
    .query('hello')
    .describe('Greets after asking who')
    .handle(async (_i, _c, extra) => {
      const who = answer(extra);
      return who === undefined ? inputRequired({ inputRequests: { who: ask('Who?') } }) : `hello ${who}`;
    });
  const stop = f
    .mutation('job.stop')
    .describe('Stops')
    .bindState('running', 'STOP')
    .handle(() => 'stopped');
  return createFusionApp(f.registry().registerAll(start, free, stop), { fsm: flow });
}

async function clientOf(app: FusionApp, mode: 'legacy' | 'auto'): Promise<Client & AsyncDisposable> {
  const c = new Client(
    { name: 'test', version: '1.0.0' },
    {
      capabilities: { elicitation: {} },
      ...(mode === 'auto' ? { versionNegotiation: { mode: 'auto' as const } } : {}),
    },
  );
  c.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name: 'Ada' } }));
  await c.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const r = new Request(url, init);
        r.headers.set('host', '127.0.0.1');
        return app.fetch(r);
      },
    }),
  );
  return Object.assign(c, { [Symbol.asyncDispose]: () => c.close() });
}

describe('input_required through a registry with an fsm (was -32603 "reading \'some\'")', () => {
  it.each(['legacy', 'auto'] as const)(
    'completes bound and unbound tools in %s mode, transitioning once',
    async (mode) => {
      const app = gatedApp();
      await using client = await clientOf(app, mode);
      expect(await client.callTool({ name: 'hello', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'hello Ada' }],
      });
      const started = await client.callTool({ name: 'job.start', arguments: {} });
      expect(started.isError).not.toBe(true);
      expect((started.content as Array<{ text: string }>)[0]!.text).toBe('started by Ada');
      if (mode === 'legacy') {
        // The session moved to "running" once: job.start is gone, job.stop is there.
        expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['hello', 'job.stop']);
      } else {
        expect(started._meta?.['fusion/workflow']).toMatchObject({ state: 'running' });
      }
      await app.close();
    },
  );
});

describe('arguments and resources at their documented limits', () => {
  const reg = () =>
    f.registry().registerAll(
      f
        .query('echo')
        .describe('Echoes x')
        .withString('x', 'Any text')
        .handle((input) => input.x),
      f
        .resource('test://a')
        .describe('A')
        .handle(() => 'a'),
    );

  it('refuses a __proto__ argument key as an unknown field instead of dropping it', async () => {
    const app = createFusionApp(reg());
    const sid = await openSession(app);
    const res = await post(
      app,
      JSON.parse(
        '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","arguments":{"x":"1","__proto__":{"polluted":true}}}}',
      ),
      sid,
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      jsonrpc: '2.0',
      id: 5,
      error: {
        code: -32602,
        message:
          'Invalid arguments for tool "echo": __proto__ is not an accepted field (unknown field). Remove it and call the tool again.',
      },
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await app.close();
  });

  it('refuses a resources/read URI over 2,048 characters, and answers an unknown resource -32602 with data.uri', async () => {
    const app = createFusionApp(reg());
    const sid = await openSession(app);
    const long = await request(app, sid, 1, 'resources/read', { uri: `test://${'a'.repeat(2_100)}` });
    expect(long.message.error).toEqual({
      code: -32602,
      message:
        'Invalid resource URI: it is 2107 characters long, over the limit of 2048. Read a resource listed by resources/list or resources/templates/list.',
    });
    const unknown = await request(app, sid, 2, 'resources/read', { uri: 'test://nope' });
    expect(unknown.message.error).toMatchObject({ code: -32602, data: { uri: 'test://nope' } });
    await app.close();
  });
});
