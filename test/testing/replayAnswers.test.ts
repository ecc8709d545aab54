import { describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { createFusionApp, initFusion, type FusionApp } from '../../src/index.js';
import { replayTranscript, TranscriptMismatchError, type Transcript } from '../../src/testing/index.js';
import { consoleRequest, consoleStream } from '../console/stream.js';
import { gate, options, registry as cart } from '../console/fixture.js';

const f = initFusion();
const anything = { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any;

/** A legacy client of `app` in process that answers elicitations with `name` and can send raw requests. */
async function clientOf(app: FusionApp, name: string) {
  const client = new Client({ name: 'test', version: '1' }, { capabilities: { elicitation: {} } });
  client.setRequestHandler('elicitation/create', async () => ({ action: 'accept', content: { name } }));
  await client.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        return app.fetch(request);
      },
    }),
  );
  return Object.assign(client, {
    request2: (method: string, params: Record<string, unknown>): Promise<any> =>
      client.request({ method, params } as any, anything),
    [Symbol.asyncDispose]: () => client.close(),
  });
}

const exported = async (app: FusionApp, key: string): Promise<Transcript> =>
  (await (
    await app.fetch(consoleRequest(`/console/transcript?key=${key}`, 't'), { peer: '127.0.0.1' })
  ).json()) as Transcript;

const greeter = () =>
  f.registry().registerAll(
    f
      .action('greet')
      .invalidates('people.*')
      .handle(async (_input, _ctx, extra) => {
        const answer = (await extra.elicit({
          message: 'Your name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        })) as { content: { name: string } };
        return `hello ${answer.content.name}`;
      }),
    f.query('people.list').handle(() => ['Ada']),
  );

describe('transcripts that replay or say why not', () => {
  it('records what the client answered to an elicitation and replays the session with the same answer', async () => {
    const registry = greeter();
    const app = createFusionApp(registry, { devConsole: { token: 't' } });
    try {
      const stream = await consoleStream(app, 't');
      await using client = await clientOf(app, 'Ada');
      const result = await client.callTool({ name: 'greet', arguments: {} });
      expect((result.content as Array<{ text: string }>).map((b) => b.text)).toContain('hello Ada');
      const seen = (await stream.next((e) => e.type === 'result')) as { sessionId: string };
      await stream.close();
      const transcript = await exported(app, seen.sessionId);
      expect(transcript.incomplete).toBeUndefined();
      expect(transcript.steps.map((s) => [s.tool, s.isError, s.answers])).toEqual([
        ['greet', false, [{ method: 'elicitation/create', result: { action: 'accept', content: { name: 'Ada' } } }]],
      ]);
      expect(await replayTranscript(registry, transcript)).toEqual({ steps: 1 });

      // Without the recorded answer, the replay says that the answer is what is missing.
      const { answers: _, ...bare } = transcript.steps[0]!;
      const replay = replayTranscript(registry, { ...transcript, steps: [bare] });
      await expect(replay).rejects.toBeInstanceOf(TranscriptMismatchError);
      await expect(replay).rejects.toThrow(
        /Step 1 of 1 \(greet\): the recorded session read a result, the replay got an error: .*The handler asked the client \(elicitation\/create\) and the transcript recorded no answer/,
      );
      await expect(replay).rejects.not.toThrow(/registry or its options changed/);
    } finally {
      await app.close();
    }
  });

  it('refuses an export that lost calls to the buffer, naming how many and what to raise', async () => {
    const app = createFusionApp(cart, { ...options, devConsole: { token: 't', maxEvents: 6 } });
    try {
      const stream = await consoleStream(app, 't');
      await using client = await clientOf(app, 'x');
      let session = '';
      for (let i = 0; i < 8; i++) {
        await client.callTool({ name: 'sprints.list', arguments: {} });
        session = ((await stream.next((e) => e.type === 'result')) as { sessionId: string }).sessionId;
      }
      await stream.close();
      const transcript = await exported(app, session);
      expect(transcript.steps.length).toBeLessThan(8);
      expect(transcript.incomplete).toBe(
        `${8 - transcript.steps.length} of its 8 calls were pushed out of the console's buffer before the export (raise devConsole.maxEvents or maxBytes, or export sooner): the transcript starts mid-session`,
      );
      const replay = replayTranscript(cart, transcript, { fsm: gate });
      await expect(replay).rejects.toBeInstanceOf(TranscriptMismatchError);
      await expect(replay).rejects.toThrow(
        /is incomplete and cannot replay as the session it claims to be: \d of its 8/,
      );
    } finally {
      await app.close();
    }
  });

  it('refuses an empty transcript with a clear message', async () => {
    const app = createFusionApp(cart, { ...options, devConsole: { token: 't' } });
    try {
      const transcript = await exported(app, 'no-such-session');
      expect(transcript.steps).toEqual([]);
      await expect(replayTranscript(cart, transcript, { fsm: gate })).rejects.toThrow(
        'The transcript of "no-such-session" has no step, so a replay would prove nothing: export the session after its calls, while the console still holds them.',
      );
    } finally {
      await app.close();
    }
  });

  it('records a task the client cancelled as a cancellation and replays it as one', async () => {
    let runs = 0;
    const registry = f.registry().registerAll(
      f
        .action('export')
        .task({ pollIntervalMs: 10 })
        .handle(async (_input, _ctx, extra) => {
          runs++;
          await new Promise((resolve) => extra.signal.addEventListener('abort', resolve, { once: true }));
          return 'stopped';
        }),
    );
    const app = createFusionApp(registry, { devConsole: { token: 't' } });
    try {
      const stream = await consoleStream(app, 't');
      await using client = await clientOf(app, 'x');
      const { task } = await client.request2('tools/call', { name: 'export', arguments: {}, task: {} });
      await stream.next((e) => e.type === 'task' && e.status === 'working');
      expect(await client.request2('tasks/cancel', { taskId: task.taskId })).toMatchObject({ status: 'cancelled' });
      const seen = (await stream.next((e) => e.type === 'result')) as { sessionId: string };
      await stream.close();
      const transcript = await exported(app, seen.sessionId);
      expect(transcript.steps.map((s) => [s.tool, s.cancelled])).toEqual([['export', true]]);
      expect(await replayTranscript(registry, transcript)).toEqual({ steps: 1 });
      expect(runs).toBeGreaterThanOrEqual(1);
      // Replayed against a tool that no longer runs as a task, the step says so.
      const plain = f.registry().registerAll(f.action('export').handle(() => 'done at once'));
      await expect(replayTranscript(plain, transcript)).rejects.toThrow(
        /Step 1 of 1 \(export, a task the client cancelled\): the recorded session read a task it cancelled, the replay got /,
      );
    } finally {
      await app.close();
    }
  });
});
