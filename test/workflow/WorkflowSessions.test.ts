import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  MemoryFsmStore,
  StateMachineGate,
  WorkflowStateError,
  type FsmConfig,
  type FsmSnapshot,
  type FsmStateStore,
} from '../../src/index.js';
import { WorkflowSessions } from '../../src/advanced/index.js';
import { createClock } from '../../src/testing/index.js';
import { chain, checkout, engines } from '../fsm/fixtures.js';

type Result = { isError?: boolean; value?: number };
const ok = async (): Promise<Result> => ({});
const failed = async (): Promise<Result> => ({ isError: true });
const tick = () => new Promise<void>((r) => setImmediate(r));

/** The seed checkout, with its tools bound, over one engine. */
function checkoutGate(engine: 'builtin' | 'xstate', config: FsmConfig = checkout): StateMachineGate {
  return new StateMachineGate(config, { engine })
    .bindTool('cart.add_item', ['empty', 'has_items'], 'ADD_ITEM')
    .bindTool('cart.checkout', ['has_items'], 'CHECKOUT')
    .bindTool('cart.pay', ['payment'], 'PAY')
    .bindTool('cart.peek', ['has_items']);
}

afterEach(() => {
  vi.useRealTimers();
});

describe.each(engines)('WorkflowSessions (%s engine)', (engine) => {
  it('keeps each key in its own state', async () => {
    const sessions = new WorkflowSessions(checkoutGate(engine));
    const ran = await sessions.run('alice', 'cart.add_item', ok);
    expect(ran).toEqual({
      outcome: 'ran',
      result: {},
      state: 'has_items',
      transition: { changed: true, previousState: 'empty', currentState: 'has_items' },
    });
    expect((await sessions.snapshot('alice')).state).toBe('has_items');
    expect((await sessions.snapshot('bob')).state).toBe('empty');
    expect(await sessions.visible('alice', ['cart.view', 'cart.add_item', 'cart.checkout', 'cart.pay'])).toEqual([
      'cart.view',
      'cart.add_item',
      'cart.checkout',
    ]);
    expect(await sessions.visible('bob', ['cart.view', 'cart.add_item', 'cart.checkout', 'cart.pay'])).toEqual([
      'cart.view',
      'cart.add_item',
    ]);
    sessions.dispose();
  });

  it('refuses a tool outside its states without running it', async () => {
    const sessions = new WorkflowSessions(checkoutGate(engine));
    const fn = vi.fn(ok);
    expect(await sessions.run('k', 'cart.pay', fn)).toEqual({
      outcome: 'refused',
      state: 'empty',
      allowed: ['cart.add_item'],
    });
    expect(fn).not.toHaveBeenCalled();
  });

  it('runs unbound tools directly, in any state', async () => {
    const sessions = new WorkflowSessions(checkoutGate(engine));
    expect(await sessions.run('k', 'cart.view', async (): Promise<Result> => ({ value: 1 }))).toEqual({
      outcome: 'ran',
      result: { value: 1 },
    });
    expect(sessions.size).toBe(0);
  });

  it('turns a synchronous throw of an unbound tool into a rejection', async () => {
    const sessions = new WorkflowSessions(checkoutGate(engine));
    const boom = (() => {
      throw new Error('boom');
    }) as () => Promise<Result>;
    await expect(sessions.run('k', 'cart.view', boom)).rejects.toThrow('boom');
    await expect(sessions.run('k', 'cart.add_item', boom)).rejects.toThrow('boom');
    expect(await sessions.run('k', 'cart.add_item', ok)).toMatchObject({ state: 'has_items' });
    sessions.dispose();
  });

  it('sends no event after an error result, nor for a tool without an event', async () => {
    vi.useFakeTimers();
    const onListChanged = vi.fn();
    const sessions = new WorkflowSessions(checkoutGate(engine), { onListChanged, debounceMs: 0 });
    expect(await sessions.run('k', 'cart.add_item', failed)).toEqual({
      outcome: 'ran',
      result: { isError: true },
      state: 'empty',
    });
    await sessions.run('k', 'cart.add_item', ok);
    expect(await sessions.run('k', 'cart.peek', ok)).toEqual({ outcome: 'ran', result: {}, state: 'has_items' });
    await vi.runAllTimersAsync();
    expect(onListChanged).toHaveBeenCalledTimes(1);
  });

  it('reports an unchanged transition without notifying', async () => {
    vi.useFakeTimers();
    const onListChanged = vi.fn();
    const sessions = new WorkflowSessions(checkoutGate(engine), { onListChanged, debounceMs: 0 });
    await sessions.run('k', 'cart.add_item', ok);
    await vi.runAllTimersAsync();
    const again = await sessions.run('k', 'cart.add_item', ok);
    expect(again).toMatchObject({
      state: 'has_items',
      transition: { changed: false, previousState: 'has_items', currentState: 'has_items' },
    });
    await vi.runAllTimersAsync();
    expect(onListChanged).toHaveBeenCalledTimes(1);
  });

  describe('list_changed debounce (trailing edge)', () => {
    it('turns a burst of transitions into exactly one call, after the last one', async () => {
      const clock = createClock();
      const onListChanged = vi.fn();
      const sessions = new WorkflowSessions(checkoutGate(engine), { onListChanged, now: clock.now });
      await sessions.run('k', 'cart.add_item', ok);
      clock.advance(30);
      await sessions.run('k', 'cart.checkout', ok);
      clock.advance(30);
      await sessions.run('k', 'cart.pay', ok);
      clock.advance(49);
      expect(onListChanged).not.toHaveBeenCalled();
      clock.advance(1);
      expect(onListChanged).toHaveBeenCalledTimes(1);
      expect(onListChanged).toHaveBeenCalledWith('k');
      clock.advance(1_000);
      expect(onListChanged).toHaveBeenCalledTimes(1);
      expect(sessions.size).toBe(1); // the memory state only; the timer is gone
    });

    it('sends one call for a single transition, and never zero', async () => {
      const clock = createClock();
      const onListChanged = vi.fn();
      const sessions = new WorkflowSessions(checkoutGate(engine), { onListChanged, debounceMs: 200, now: clock.now });
      await sessions.run('k', 'cart.add_item', ok);
      clock.advance(199);
      expect(onListChanged).not.toHaveBeenCalled();
      clock.advance(1);
      expect(onListChanged).toHaveBeenCalledTimes(1);
    });

    it('debounces each key on its own', async () => {
      const clock = createClock();
      const onListChanged = vi.fn();
      const sessions = new WorkflowSessions(checkoutGate(engine), { onListChanged, now: clock.now });
      await sessions.run('a', 'cart.add_item', ok);
      await sessions.run('b', 'cart.add_item', ok);
      await sessions.run('a', 'cart.checkout', ok);
      clock.advance(50);
      expect(onListChanged.mock.calls.map((c) => c[0]).sort()).toEqual(['a', 'b']);
    });

    it('reports a failing notifier to onError', async () => {
      const clock = createClock();
      const onError = vi.fn();
      const sessions = new WorkflowSessions(checkoutGate(engine), {
        onError,
        onListChanged: () => Promise.reject(new Error('closed')),
        now: clock.now,
      });
      await sessions.run('k', 'cart.add_item', ok);
      await clock.advanceAsync(50);
      expect(onError).toHaveBeenCalledWith(new Error('closed'));
    });

    it('restarts the one pending timer of a key instead of starting one per transition', async () => {
      const clock = createClock();
      const onListChanged = vi.fn();
      const gate = new StateMachineGate(
        { initial: 'open', states: { open: { on: { FLIP: 'shut' } }, shut: { on: { FLIP: 'open' } } } },
        { engine },
      ).bindTool('flip', ['open', 'shut'], 'FLIP');
      const sessions = new WorkflowSessions(gate, { onListChanged, now: clock.now });
      for (let i = 0; i < 20; i++) await sessions.run('k', 'flip', ok);
      expect(clock.pending).toBe(1);
      clock.advance(49);
      expect(onListChanged).not.toHaveBeenCalled();
      clock.advance(1);
      expect(onListChanged).toHaveBeenCalledTimes(1);
      // The next burst gets a timer of its own.
      expect(clock.pending).toBe(0);
      await sessions.run('k', 'flip', ok);
      expect(clock.pending).toBe(1);
      clock.advance(50);
      expect(onListChanged).toHaveBeenCalledTimes(2);
    });

    it('cancels the pending call when the key is released', async () => {
      const clock = createClock();
      const onListChanged = vi.fn();
      const sessions = new WorkflowSessions(checkoutGate(engine), { onListChanged, now: clock.now });
      await sessions.run('k', 'cart.add_item', ok);
      sessions.release('k');
      clock.advance(100);
      expect(onListChanged).not.toHaveBeenCalled();
      expect(sessions.size).toBe(0);
      expect(clock.pending).toBe(0);
    });
  });

  describe('concurrency on one key', () => {
    it('runs a tool that leaves its state exactly once among 100 concurrent calls', async () => {
      const sessions = new WorkflowSessions(checkoutGate(engine));
      await sessions.run('k', 'cart.add_item', ok);
      let runs = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, () =>
          sessions.run('k', 'cart.checkout', async () => {
            runs++;
            await tick();
            return {};
          }),
        ),
      );
      expect(runs).toBe(1);
      expect(outcomes.filter((o) => o.outcome === 'ran')).toHaveLength(1);
      expect(outcomes.filter((o) => o.outcome === 'refused')).toEqual(
        Array.from({ length: 99 }, () => ({ outcome: 'refused', state: 'payment', allowed: ['cart.pay'] })),
      );
    });

    it('loses no run of a counting tool in a self-loop', async () => {
      const gate = new StateMachineGate(
        { initial: 'open', states: { open: { on: { COUNT: 'open' } } } },
        { engine },
      ).bindTool('counter.add', ['open'], 'COUNT');
      const sessions = new WorkflowSessions(gate);
      let count = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 100 }, () =>
          sessions.run('k', 'counter.add', async (): Promise<Result> => {
            const seen = count;
            await tick();
            count = seen + 1;
            return { value: count };
          }),
        ),
      );
      expect(count).toBe(100);
      expect(outcomes.every((o) => o.outcome === 'ran')).toBe(true);
    });

    it('loses no transition: 100 concurrent NEXT calls walk a 100-step chain, each version saved once', async () => {
      const gate = new StateMachineGate(chain(100), { engine }).bindTool(
        'step',
        Object.keys(chain(100).states),
        'NEXT',
      );
      const store = new MemoryFsmStore();
      const sessions = new WorkflowSessions(gate, { store });
      const outcomes = await Promise.all(Array.from({ length: 100 }, () => sessions.run('k', 'step', ok)));
      expect(outcomes.map((o) => (o.outcome === 'ran' ? o.state : 'refused'))).toEqual(
        Array.from({ length: 100 }, (_, i) => `s${i + 1}`),
      );
      expect(await store.load('k')).toMatchObject({ state: 's100', version: 100 });
      sessions.dispose();
    });

    it('starts an uncontended run at once, without an asynchronous hop (no store)', () => {
      const sessions = new WorkflowSessions(checkoutGate(engine));
      const fn = vi.fn(ok);
      const pending = sessions.run('k', 'cart.add_item', fn);
      expect(fn).toHaveBeenCalledTimes(1);
      return expect(pending).resolves.toMatchObject({ outcome: 'ran', state: 'has_items' });
    });

    it('hands the lock to waiting runs one at a time, in arrival order', async () => {
      const gate = new StateMachineGate(
        { initial: 'open', states: { open: { on: { COUNT: 'open' } } } },
        { engine },
      ).bindTool('counter.add', ['open'], 'COUNT');
      const sessions = new WorkflowSessions(gate);
      const order: number[] = [];
      let inside = 0;
      let most = 0;
      const outcomes = await Promise.all(
        Array.from({ length: 64 }, (_, i) =>
          sessions.run('k', 'counter.add', async (): Promise<Result> => {
            most = Math.max(most, ++inside);
            order.push(i);
            await tick();
            inside--;
            return { value: i };
          }),
        ),
      );
      expect(most).toBe(1);
      expect(order).toEqual(Array.from({ length: 64 }, (_, i) => i));
      expect(outcomes.map((o) => (o.outcome === 'ran' ? o.result.value : -1))).toEqual(order);
      expect(sessions.size).toBe(0);
    });

    it('serializes calls of bound tools without an event too: they see the state the earlier calls left', async () => {
      const gate = new StateMachineGate(
        { initial: 'a', states: { a: { on: { GO: 'b' } }, b: { on: { GO: 'a' } } } },
        { engine },
      )
        .bindTool('flip', ['a', 'b'], 'GO')
        .bindTool('look', ['a', 'b'])
        .bindTool('edit', ['a']);
      const sessions = new WorkflowSessions(gate);
      let inside = 0;
      let most = 0;
      const slow = async (): Promise<Result> => {
        most = Math.max(most, ++inside);
        await tick();
        inside--;
        return {};
      };
      const edit = vi.fn(slow);
      const outcomes = await Promise.all([
        sessions.run('k', 'flip', slow),
        sessions.run('k', 'look', slow),
        sessions.run('k', 'edit', edit),
        sessions.run('k', 'flip', slow),
        sessions.run('k', 'look', slow),
      ]);
      expect(most).toBe(1);
      expect(outcomes.map((o) => [o.outcome, 'state' in o ? o.state : undefined])).toEqual([
        ['ran', 'b'],
        ['ran', 'b'],
        ['refused', 'b'],
        ['ran', 'a'],
        ['ran', 'a'],
      ]);
      expect(edit).not.toHaveBeenCalled();
    });

    it('settles 10,000 runs queued behind a slow one (refused without running) without growing the stack', async () => {
      const sessions = new WorkflowSessions(checkoutGate(engine));
      let release!: () => void;
      const slow = sessions.run('k', 'cart.add_item', () => new Promise<Result>((r) => (release = () => r({}))));
      const fn = vi.fn(ok);
      const queued = Array.from({ length: 10_000 }, () => sessions.run('k', 'cart.pay', fn));
      await tick();
      release();
      await slow;
      const outcomes = await Promise.all(queued);
      expect(fn).not.toHaveBeenCalled();
      expect(outcomes.every((o) => o.outcome === 'refused' && o.state === 'has_items')).toBe(true);
      sessions.dispose();
    });

    it('forgets a released key, and deletes it from the store, only after the runs queued on it have settled', async () => {
      const store = new MemoryFsmStore();
      const sessions = new WorkflowSessions(checkoutGate(engine), { store, deleteOnRelease: true });
      let release!: () => void;
      const slow = sessions.run('k', 'cart.add_item', () => new Promise<Result>((r) => (release = () => r({}))));
      const next = sessions.run('k', 'cart.checkout', ok);
      await tick();
      sessions.release('k');
      expect(await store.load('k')).toBeUndefined(); // nothing saved yet, and nothing deleted ahead of the runs
      release();
      expect(await slow).toMatchObject({ state: 'has_items' });
      expect(await next).toMatchObject({ state: 'payment' });
      await tick();
      expect(await store.load('k')).toBeUndefined();
      expect(sessions.size).toBe(0);
    });

    it('serializes per key only: a slow call on one key does not block another', async () => {
      const sessions = new WorkflowSessions(checkoutGate(engine));
      let release!: () => void;
      const slow = sessions.run('a', 'cart.add_item', () => new Promise<Result>((r) => (release = () => r({}))));
      await tick();
      expect(await sessions.run('b', 'cart.add_item', ok)).toMatchObject({ state: 'has_items' });
      release();
      expect(await slow).toMatchObject({ state: 'has_items' });
      sessions.dispose();
    });
  });

  describe('with a store', () => {
    it('loads before and saves after each changing transition, with versions', async () => {
      const store = new MemoryFsmStore();
      const sessions = new WorkflowSessions(checkoutGate(engine), { store, now: () => 42 });
      await sessions.run('k', 'cart.add_item', ok);
      await sessions.run('k', 'cart.add_item', ok);
      await sessions.run('k', 'cart.checkout', ok);
      expect(await store.load('k')).toEqual({ state: 'payment', updatedAt: 42, version: 2 });
      const other = new WorkflowSessions(checkoutGate(engine), { store });
      expect(await other.visible('k', ['cart.pay', 'cart.add_item'])).toEqual(['cart.pay']);
      expect(sessions.size).toBe(1); // the pending notification, nothing else
      sessions.release('k');
      expect(sessions.size).toBe(0);
    });

    it('falls back to save() when the store has no compareAndSet, and treats a null load as nothing stored', async () => {
      const saved: Array<[string, FsmSnapshot]> = [];
      const store: FsmStateStore = {
        load: async () => null as unknown as undefined,
        save: async (key, snap) => void saved.push([key, snap]),
      };
      const sessions = new WorkflowSessions(checkoutGate(engine), { store, now: () => 1 });
      expect(await sessions.run('k', 'cart.add_item', ok)).toMatchObject({ state: 'has_items' });
      expect(saved).toEqual([['k', { state: 'has_items', updatedAt: 1, version: 1 }]]);
      sessions.dispose();
    });

    it('throws a WorkflowStateError when the store cannot load, without running the tool', async () => {
      const store: FsmStateStore = { load: () => Promise.reject(new Error('redis down')), save: async () => {} };
      const sessions = new WorkflowSessions(checkoutGate(engine), { store });
      const fn = vi.fn(ok);
      const error = await sessions.run('k', 'cart.add_item', fn).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WorkflowStateError);
      expect(error).toMatchObject({
        code: 'FSM_STORE_LOAD',
        message: 'the workflow state store failed to load (redis down)',
        data: { key: 'k' },
      });
      expect(fn).not.toHaveBeenCalled();
      await expect(sessions.visible('k', ['cart.add_item'])).rejects.toBeInstanceOf(WorkflowStateError);
      // The lock is released: the key works again once the store recovers.
      store.load = async () => undefined;
      expect(await sessions.run('k', 'cart.add_item', fn)).toMatchObject({ outcome: 'ran' });
      sessions.dispose();
    });

    it('throws a WorkflowStateError for a stored state the machine does not have', async () => {
      const store = new MemoryFsmStore();
      await store.save('k', { state: 'shipped', updatedAt: 0 });
      const sessions = new WorkflowSessions(checkoutGate(engine), { store });
      await expect(sessions.snapshot('k')).rejects.toMatchObject({
        code: 'FSM_STORE_STATE',
        message: 'the stored workflow state "shipped" is not a state of the machine',
      });
    });

    it('keeps the previous state and reports persistError when save fails', async () => {
      vi.useFakeTimers();
      const store = new MemoryFsmStore();
      store.compareAndSet = () => Promise.reject(new Error('disk full'));
      const onListChanged = vi.fn();
      const sessions = new WorkflowSessions(checkoutGate(engine), { store, onListChanged, debounceMs: 0 });
      const fn = vi.fn(ok);
      const outcome = await sessions.run('k', 'cart.add_item', fn);
      expect(fn).toHaveBeenCalledTimes(1);
      expect(outcome).toEqual({
        outcome: 'ran',
        result: {},
        state: 'empty',
        transition: { changed: false, previousState: 'empty', currentState: 'empty' },
        persistError: new Error('disk full'),
      });
      expect((await sessions.snapshot('k')).state).toBe('empty');
      expect(await sessions.visible('k', ['cart.checkout'])).toEqual([]);
      await vi.runAllTimersAsync();
      expect(onListChanged).not.toHaveBeenCalled();
    });

    it('reports a compare-and-set conflict as persistError: another process moved the state first', async () => {
      const store = new MemoryFsmStore();
      // A store with compare-and-set but no lock or lease: two runs overlap, the second save loses.
      const unlocked: FsmStateStore = {
        load: (k) => store.load(k),
        save: (k, s) => store.save(k, s),
        compareAndSet: (k, v, s) => store.compareAndSet(k, v, s),
      };
      const one = new WorkflowSessions(checkoutGate(engine), { store: unlocked });
      const two = new WorkflowSessions(checkoutGate(engine), { store: unlocked });
      let release!: () => void;
      const slow = one.run('k', 'cart.add_item', () => new Promise<Result>((r) => (release = () => r({}))));
      await tick();
      expect(await two.run('k', 'cart.add_item', ok)).toMatchObject({ state: 'has_items' });
      release();
      const outcome = await slow;
      expect(outcome).toMatchObject({ outcome: 'ran', state: 'empty', transition: { changed: false } });
      expect(outcome.outcome === 'ran' && outcome.persistError).toMatchObject({
        name: 'WorkflowStateError',
        code: 'FSM_STORE_CONFLICT',
        message: 'the workflow state changed concurrently in another process',
      });
      expect(await store.load('k')).toMatchObject({ state: 'has_items', version: 1 });
      one.dispose();
      two.dispose();
    });
  });

  describe('with a store that has leases (acquire)', () => {
    it('lets a run on another WorkflowSessions over the same store wait for the lease, then see the new state', async () => {
      const store = new MemoryFsmStore();
      const one = new WorkflowSessions(checkoutGate(engine), { store });
      const two = new WorkflowSessions(checkoutGate(engine), { store });
      let release!: () => void;
      const slow = one.run('k', 'cart.add_item', () => new Promise<Result>((r) => (release = () => r({}))));
      await tick();
      const second = two.run('k', 'cart.checkout', ok);
      await tick();
      release();
      expect(await slow).toMatchObject({ outcome: 'ran', transition: { changed: true, currentState: 'has_items' } });
      expect(await second).toMatchObject({
        outcome: 'ran',
        transition: { changed: true, previousState: 'has_items', currentState: 'payment' },
      });
      expect(await store.load('k')).toMatchObject({ state: 'payment', version: 2 });
      one.dispose();
      two.dispose();
    });

    it('admit turns a call away under the lease without running it, and keepAlive slides expiresAt', async () => {
      const store = new MemoryFsmStore();
      let now = 1_000;
      const sessions = new WorkflowSessions(checkoutGate(engine), { store, ttlMs: 500, now: () => now });
      let ran = 0;
      const run = () => (ran++, Promise.resolve({}));
      const rejected = await sessions.run('k', 'cart.add_item', run, {
        admit: (stored) => (stored === undefined ? 'unknown' : undefined),
      });
      expect(rejected).toEqual({ outcome: 'rejected', reason: 'unknown' });
      expect(ran).toBe(0);
      await sessions.run('k', 'cart.add_item', run);
      expect(await store.load('k')).toMatchObject({ state: 'has_items', version: 1, expiresAt: 1_500 });
      now = 1_200;
      const kept = await sessions.run('k', 'cart.add_item', run, { keepAlive: () => true });
      expect(kept).toMatchObject({ outcome: 'ran', state: 'has_items', transition: { changed: false } });
      expect(await store.load('k')).toMatchObject({ state: 'has_items', version: 1, expiresAt: 1_700 });
      now = 1_800;
      // Past expiresAt the instance counts as gone: admit sees undefined.
      expect(
        await sessions.run('k', 'cart.add_item', run, {
          admit: (stored) => (stored === undefined ? 'expired' : undefined),
        }),
      ).toEqual({ outcome: 'rejected', reason: 'expired' });
      expect(ran).toBe(2);
      sessions.dispose();
    });
  });

  describe('release', () => {
    it('keeps the store by default, and deletes the key with deleteOnRelease', async () => {
      const store = new MemoryFsmStore();
      const keep = new WorkflowSessions(checkoutGate(engine), { store });
      await keep.run('a', 'cart.add_item', ok);
      keep.release('a');
      await tick();
      expect(await store.load('a')).toMatchObject({ state: 'has_items' });

      const onError = vi.fn();
      const drop = new WorkflowSessions(checkoutGate(engine), { store, deleteOnRelease: true, onError });
      await drop.run('b', 'cart.add_item', ok);
      drop.release('b');
      await tick();
      expect(await store.load('b')).toBeUndefined();
      store.delete = () => Promise.reject(new Error('redis down'));
      drop.release('a');
      await tick();
      expect(onError).toHaveBeenCalledWith(new Error('redis down'));
      keep.dispose();
      drop.dispose();
    });

    it('leaves size 0 after 10,000 keys are used and released', async () => {
      const sessions = new WorkflowSessions(checkoutGate(engine));
      for (let i = 0; i < 10_000; i++) {
        await sessions.run(`k${i}`, 'cart.add_item', ok);
        await sessions.visible(`k${i}`, ['cart.pay']);
      }
      expect(sessions.size).toBe(10_000);
      for (let i = 0; i < 10_000; i++) sessions.release(`k${i}`);
      expect(sessions.size).toBe(0);
    });

    it('forgets a key released while a call is still running', async () => {
      const sessions = new WorkflowSessions(checkoutGate(engine));
      let release!: () => void;
      const running = sessions.run('k', 'cart.add_item', () => new Promise<Result>((r) => (release = () => r({}))));
      await tick();
      sessions.release('k');
      release();
      expect(await running).toMatchObject({ state: 'has_items' });
      await tick();
      expect(sessions.size).toBe(0);
    });
  });
});
