import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../../src/index.js';
import { ListenRecordings } from '../../../src/server/listen/ListenRecordings.js';
import { createClock } from '../../../src/testing/index.js';

/** An SDK-like listen answer: an open SSE stream whose cancellation (the recording stopped) is observable. */
function sdkListen() {
  const state = { cancelled: false };
  const body = new ReadableStream<Uint8Array>({
    cancel: () => {
      state.cancelled = true;
    },
  });
  return { state, response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }) };
}

/** Records one listen stream for `principal`, then drops its client: the recording lingers. */
async function droppedStream(recordings: ListenRecordings, principal: string) {
  const sdk = sdkListen();
  const body = { jsonrpc: '2.0', id: 1, method: 'subscriptions/listen' };
  const out = await recordings.record(sdk.response, { principal, holder: { principal }, body, hold: undefined });
  const reader = out.body!.getReader();
  const priming = new TextDecoder().decode((await reader.read()).value);
  await reader.cancel();
  return { sdk, lastEventId: /^id: (.*)$/m.exec(priming)![1]! };
}

describe('ListenRecordings', () => {
  it('caps lingering recordings per principal: one principal dropping streams ends only its own oldest', async () => {
    const recordings = new ListenRecordings(
      { store: new MemoryEventStore(), retryMs: 10, lingerMs: 60_000 },
      { total: 10, perPrincipal: 2 },
    );
    const bob = await droppedStream(recordings, 'user:bob');
    const alice = [];
    for (let i = 0; i < 4; i++) alice.push(await droppedStream(recordings, 'user:alice'));
    expect(alice.map((s) => s.sdk.state.cancelled)).toEqual([true, true, false, false]);
    expect(bob.sdk.state.cancelled).toBe(false);
    const resumeAs = (principal: string, lastEventId: string) =>
      recordings.find(
        lastEventId.split('#')[0],
        { principal, holder: { principal } },
        new Request('http://x/mcp'),
        () => {
          throw new Error('no relisten expected');
        },
      );
    expect(await resumeAs('user:bob', bob.lastEventId)).toBeDefined();
    expect(await resumeAs('user:alice', alice[3]!.lastEventId)).toBeDefined();
    // Nobody resumes another principal's stream.
    expect(await resumeAs('user:alice', bob.lastEventId)).toBeUndefined();
  });

  it('caps lingering recordings in total, oldest first', async () => {
    const recordings = new ListenRecordings(
      { store: new MemoryEventStore(), retryMs: 10, lingerMs: 60_000 },
      { total: 3, perPrincipal: 3 },
    );
    const streams = [];
    for (const who of ['a', 'b', 'c', 'd']) streams.push(await droppedStream(recordings, `user:${who}`));
    expect(streams.map((s) => s.sdk.state.cancelled)).toEqual([true, false, false, false]);
  });

  it('a dropped stream records for lingerMs of the app clock, then stops', async () => {
    const clock = createClock();
    const recordings = new ListenRecordings(
      { store: new MemoryEventStore(), retryMs: 10, lingerMs: 60_000, clock },
      { total: 3, perPrincipal: 3 },
    );
    const dropped = await droppedStream(recordings, 'user:a');
    clock.advance(59_999);
    expect(dropped.sdk.state.cancelled).toBe(false);
    clock.advance(1);
    expect(dropped.sdk.state.cancelled).toBe(true);
    expect(clock.pending).toBe(0);
  });
});
