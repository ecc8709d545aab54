import { describe, expect, it } from 'vitest';
import type { ToolResponse } from '../../../src/protocol/types.js';
import { Deadlines } from '../../../src/runtime/core/Deadlines.js';
import { WireError } from '../../../src/errors/WireError.js';
import type { SignalSource } from '../../../src/runtime/core/CallExtra.js';
import { createClock } from '../../../src/testing/index.js';

/** A request without a signal of its own. */
const NONE = { requestSignal: undefined };
const text = (t: string): ToolResponse => ({ content: [{ type: 'text', text: t }] });
const textOf = (r: ToolResponse): string => (r.content[0] as { text: string }).text;

/** A handler that resolves when told to, and exposes the signal it was given. */
function pending(): {
  fn: (running: SignalSource) => Promise<ToolResponse>;
  finish: (t: string) => void;
  running: () => SignalSource;
} {
  let finish!: (t: string) => void;
  let running: SignalSource | undefined;
  const fn = (r: SignalSource): Promise<ToolResponse> => {
    running = r;
    return new Promise((resolve) => (finish = (t) => resolve(text(t))));
  };
  return { fn, finish: (t) => finish(t), running: () => running! };
}

// Deadlines read the time and arm their timer on the clock they are given: a test clock, moved by hand.
describe('Deadlines', () => {
  it('times out only the calls that are due, in order, with the timeout result; the others keep running', async () => {
    const clock = createClock(0);
    const deadlines = new Deadlines(clock);
    const slow = pending();
    const fast = pending();
    const other = pending();
    const started = clock.now();
    const first = deadlines.run('a.slow', 40, NONE, slow.fn);
    await clock.advanceAsync(15);
    const second = deadlines.run('a.fast', 40, NONE, fast.fn);
    const third = deadlines.run('a.other', 1_000, NONE, other.fn);
    fast.finish('fast done');
    expect(textOf(await second)).toBe('fast done');
    await clock.advanceAsync(24);
    expect(slow.running().signal.aborted, 'not due yet at 39 ms').toBe(false);
    await clock.advanceAsync(1);
    const timedOut = await first;
    expect(timedOut.isError).toBe(true);
    expect(timedOut._meta).toEqual({ 'fusion/timeout': { ms: 40 } });
    expect(textOf(timedOut)).toContain('a.slow');
    expect(clock.now() - started).toBe(40);
    expect(slow.running().signal.aborted, "the timed-out handler's signal aborts").toBe(true);
    slow.finish('too late');
    other.finish('other done');
    expect(textOf(await third), 'a call of another length is not touched').toBe('other done');
  });

  it('re-arms for the next due call of the same length after a timeout', async () => {
    const clock = createClock(0);
    const deadlines = new Deadlines(clock);
    const a = pending();
    const b = pending();
    const first = deadlines.run('t.a', 30, NONE, a.fn);
    await clock.advanceAsync(10);
    const second = deadlines.run('t.b', 30, NONE, b.fn);
    await clock.advanceAsync(20);
    expect((await first).isError).toBe(true);
    expect(b.running().signal.aborted, 'the later call is not due yet').toBe(false);
    await clock.advanceAsync(10);
    expect((await second).isError, 'the later call times out on its own deadline').toBe(true);
    expect(textOf(await second)).toContain('t.b');
  });

  it("aborts the handler's signal when the request's signal aborts, and on abortAll", async () => {
    const deadlines = new Deadlines();
    const parent = new AbortController();
    const cancelled = pending();
    const run = deadlines.run('c.cancel', 10_000, { requestSignal: parent.signal }, cancelled.fn);
    const signal = cancelled.running().signal;
    expect(signal.aborted).toBe(false);
    parent.abort(new Error('client cancelled'));
    expect(signal.aborted).toBe(true);
    expect((signal.reason as Error).message).toBe('client cancelled');
    cancelled.finish('stopped');
    // A result after the cancellation is dropped: the call counts as failed (no transition, no invalidation).
    const dropped = await run;
    expect(dropped.isError).toBe(true);
    expect(textOf(dropped)).toMatchInlineSnapshot(
      `"Tool "c.cancel" was cancelled before it finished; its result was dropped. Its effects may be partial: check the current state before retrying."`,
    );

    const running = pending();
    const second = deadlines.run('c.drain', 10_000, NONE, running.fn);
    deadlines.abortAll(new Error('server shutting down'));
    expect(running.running().signal.aborted, 'a signal first read after abortAll is aborted too').toBe(true);
    running.finish('drained');
    expect(textOf(await second)).toBe('drained');
  });

  it('rejects with a WireError the handler threw (a protocol error the client gets as such)', async () => {
    const deadlines = new Deadlines();
    await expect(
      deadlines.run('w.err', 1_000, NONE, async () => Promise.reject(new WireError(-32603, 'engine down'))),
    ).rejects.toMatchObject({ code: -32603, message: 'engine down' });
  });

  it('turns a thrown or rejected handler into one isError result', async () => {
    const deadlines = new Deadlines();
    const thrown = await deadlines.run('e.sync', 1_000, NONE, () => {
      throw new Error('boom');
    });
    expect(thrown.isError).toBe(true);
    expect(textOf(thrown)).toBe('boom');
    const rejected = await deadlines.run('e.async', 1_000, NONE, async () => {
      throw new Error('later boom');
    });
    expect(textOf(rejected)).toBe('later boom');
  });
});
