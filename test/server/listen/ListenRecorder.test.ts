import { describe, expect, it } from 'vitest';
import { MemoryEventStore } from '../../../src/index.js';
import { ListenRecorder } from '../../../src/server/listen/ListenRecorder.js';
import { createClock } from '../../../src/testing/index.js';

const encoder = new TextEncoder();

function update(uri: string): string {
  const message = { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri } };
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** An SDK-like listen answer whose frames the test writes, and ends. */
function sdkListen() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    response: new Response(body, { headers: { 'content-type': 'text/event-stream' } }),
    write: (frame: string) => controller.enqueue(encoder.encode(frame)),
    end: () => controller.close(),
  };
}

/** Reads SSE frames from a response body until one carries `uri`; the event ids read, in order. */
async function readUntil(reader: ReadableStreamDefaultReader<Uint8Array>, uri: string): Promise<string[]> {
  const decoder = new TextDecoder();
  let text = '';
  while (!text.includes(uri)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return [...text.matchAll(/^id: (.*)$/gm)].map((m) => m[1]!);
}

describe('ListenRecorder', () => {
  it('goes on storing what the SDK writes once the client dropped (lingering): the events a resume needs are stored', async () => {
    const store = new MemoryEventStore();
    let idle!: () => void;
    const ended = new Promise<void>((resolve) => (idle = resolve));
    const recorder = new ListenRecorder('l:test/one', {
      store,
      retryMs: 10,
      lingerMs: 60_000,
      clock: createClock(),
      listenId: 1,
      onIdle: () => idle(),
    });
    const sdk = sdkListen();
    const out = await recorder.start(sdk.response);
    const reader = out.body!.getReader();
    sdk.write(update('test://r1'));
    const ids = await readUntil(reader, 'test://r1');
    expect(ids).toHaveLength(2); // the priming event, then r1
    // The client's connection drops, and the recorder notices before the next event arrives.
    await reader.cancel();
    expect(recorder.lingering).toBe(true);
    sdk.write(update('test://r2'));
    sdk.write(update('test://r3'));
    sdk.end(); // the recorder has read every frame once it goes idle
    await ended;
    const replay = await store.after(ids[1]!);
    expect(replay.found && replay.events.map((e) => (e.message as { params: { uri: string } }).params.uri)).toEqual([
      'test://r2',
      'test://r3',
    ]);
  });
});
