import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { replayTranscript, TranscriptMismatchError, type Transcript } from '../../src/testing/index.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { consoleRequest, consoleStream } from '../console/stream.js';
import { gate, options, registry } from '../console/fixture.js';

/** Records one session through a dev console and exports it, as the page's export link does. */
async function record(calls: string[]): Promise<Transcript> {
  const app = createFusionApp(registry, { ...options, devConsole: { token: 't' } });
  try {
    const stream = await consoleStream(app, 't');
    await using client = await v2FetchClient(app);
    let session = '';
    for (const name of calls) {
      await client.callTool({ name, arguments: {} });
      const result = await stream.next((e) => e.type === 'result');
      session = (result as { sessionId: string }).sessionId;
    }
    await stream.close();
    return (await (
      await app.fetch(consoleRequest(`/console/transcript?key=${session}`, 't'), { peer: '127.0.0.1' })
    ).json()) as Transcript;
  } finally {
    await app.close();
  }
}

describe('replayTranscript', () => {
  it('replays a recorded session green: results, refusals, State Sync and the tools listed after each step', async () => {
    const transcript = await record(['cart.add', 'cart.add', 'sprints.create', 'cart.pay']);
    expect(transcript.steps.map((s) => [s.tool, s.refused, s.visible?.length])).toEqual([
      ['cart.add', false, 5],
      ['cart.add', true, 5],
      ['sprints.create', false, 5],
      ['cart.pay', false, 3],
    ]);
    expect(await replayTranscript(registry, transcript, { fsm: gate })).toEqual({ steps: 4 });
  });

  it('names the first step that went another way', async () => {
    const transcript = await record(['cart.add', 'sprints.create']);
    // The same tools under a registry whose sprints.create no longer invalidates anything.
    const f = initFusion();
    const changed = f.registry();
    const fsm = f.fsm(gate.config);
    changed.registerAll(
      f
        .action('cart.add')
        .bindState('empty', 'ADD')
        .handle(() => 'added one item'),
      f
        .action('cart.pay')
        .bindState('full', 'PAY')
        .handle(() => 'paid'),
      f
        .action('cart.clear')
        .bindState('full', 'CLEAR')
        .handle(() => 'cleared'),
      f.action('sprints.create').handle(() => 'created sprint 7'),
      f.query('sprints.list').handle(() => ['sprint 7']),
      f.action('boom').handle(() => 'fine'),
    );
    const replay = replayTranscript(changed, transcript, { fsm });
    await expect(replay).rejects.toBeInstanceOf(TranscriptMismatchError);
    await expect(replay).rejects.toThrowErrorMatchingInlineSnapshot(
      `[TranscriptMismatchError: Step 2 of 2 (sprints.create): the recorded session read State Sync ["[System: Cache invalidated for sprints.* — caused by sprints.create]"], the replay got []. The registry or its options changed since the recording, or the replay needs the options the server ran with.]`,
    );
    await expect(replayTranscript(registry, { steps: [] } as never)).rejects.toThrow(/not an mcp-fusion transcript/);
  });
});
