import { describe, expect, it } from 'vitest';
import { createFusionApp, initFusion } from '../../src/index.js';
import { v2FetchClient } from '../_helpers/clients.js';
import { until } from '../_helpers/waitFor.js';
import { createClock, createTestClient } from '../../src/testing/index.js';

/** A promise and its resolver: a handler tells the test that it started. */
function signal(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

// One `clock` option (its `now`) reaches the runtime's timers: nothing here waits for real time.
describe('a test clock drives the timers of a served registry', () => {
  it('times a tool out when the clock passes its timeout, not before', async () => {
    const clock = createClock();
    const started = signal();
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .query('slow.wait')
        .timeout(600_000)
        .handle(() => {
          started.resolve();
          return new Promise<string>(() => {});
        }),
    );
    await using t = await createTestClient(registry, { clock });
    const call = t.call('slow.wait');
    await started.promise;
    clock.advance(599_999);
    expect(clock.pending, 'the deadline is still armed a millisecond before').toBe(1);
    clock.advance(1);
    const outcome = await call;
    expect(outcome.isError).toBe(true);
    expect(outcome.result._meta).toEqual({ 'fusion/timeout': { ms: 600_000 } });
  });

  it('sends tools/list_changed once the debounce passes on the clock (a minute: real timers would miss the 2 s wait)', async () => {
    const clock = createClock();
    const f = initFusion();
    const gate = f.fsm({
      id: 'trip',
      initial: 'planning',
      states: { planning: { on: { BOOK: 'booked' } }, booked: {} },
    });
    const registry = f.registry().registerAll(
      f
        .action('trip.book')
        .bindState('planning', 'BOOK')
        .handle(() => 'booked'),
    );
    await using t = await createTestClient(registry, { fsm: gate, clock, listChangedDebounceMs: 60_000 });
    await t.call('trip.book');
    expect(await t.state()).toBe('booked');
    clock.advance(59_999);
    expect(t.listChangedCount).toBe(0);
    const next = t.nextListChanged();
    clock.advance(1);
    await next;
    expect(t.listChangedCount).toBe(1);
  });

  it('waits drainMs of the clock for a running call on close, then aborts it', async () => {
    const clock = createClock();
    const started = signal();
    let aborted = false;
    const f = initFusion();
    const registry = f.registry().registerAll(
      f
        .query('slow.wait')
        .timeout(600_000)
        .handle(
          (_i, _c, extra) =>
            new Promise<string>((resolve) => {
              extra.signal.addEventListener('abort', () => ((aborted = true), resolve('stopped')));
              started.resolve();
            }),
        ),
    );
    const app = createFusionApp(registry, { clock, drainMs: 10_000 });
    const client = await v2FetchClient(app, 'auto');
    const call = client.callTool({ name: 'slow.wait', arguments: {} }).catch(() => undefined);
    await started.promise;
    const armed = clock.pending;
    const closed = app.close();
    await until(() => clock.pending > armed, 'the drain deadline to be armed');
    await clock.advanceAsync(9_999);
    expect(aborted).toBe(false);
    await clock.advanceAsync(1);
    expect(aborted).toBe(true);
    await closed;
    await call;
    await client.close();
  });
});
