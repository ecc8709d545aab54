import { describe, expect, it } from 'vitest';
import { systemClock } from '../../../src/_internal/clock.js';
import { MemoryEventStore } from '../../../src/index.js';
import { CallAnswer, type CallAnswerContext } from '../../../src/server/legacy/CallAnswer.js';
import { SessionEvents } from '../../../src/server/legacy/SessionEvents.js';

function context(store: MemoryEventStore, streams: Map<string, CallAnswer>): CallAnswerContext {
  return {
    sessionId: 's1',
    events: new SessionEvents(store, 's1'),
    retryMs: 20,
    clock: systemClock,
    keepAliveMs: 15_000,
    onStream: (id, call) => void streams.set(id, call),
    onStreamEnd: (id) => void streams.delete(id),
  };
}

const progress = {
  jsonrpc: '2.0' as const,
  method: 'notifications/progress',
  params: { progressToken: 1, progress: 1 },
};
const result = { jsonrpc: '2.0' as const, id: 3, result: { content: [] } };

describe('CallAnswer', () => {
  it('keeps a message sent right before the response (in the same turn) ahead of it, on a stream', async () => {
    const streams = new Map<string, CallAnswer>();
    const call = new CallAnswer(context(new MemoryEventStore(), streams), true);
    void call.send(progress, false);
    await call.send(result, true);
    const res = await call.response;
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const data = (await res.text())
      .split('\n')
      .filter((l) => l.startsWith('data: ') && l !== 'data: ')
      .map((l) => JSON.parse(l.slice(6)) as unknown);
    expect(data).toEqual([progress, result]);
    expect(streams.size).toBe(0);
  });

  it('answers a lone response as JSON and stores nothing', async () => {
    const store = new MemoryEventStore();
    const call = new CallAnswer(context(store, new Map()), true);
    await call.send(result, true);
    const res = await call.response;
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual(result);
    expect(store.streams).toBe(0);
  });
});
