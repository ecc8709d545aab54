import type { FsmLease, FsmStateStore } from '../fsm/FsmStateStore.js';
import type { FsmSnapshot } from '../fsm/types.js';

/** Builds the error a failed lease becomes (the caller's named error). */
type Fail = (code: 'FSM_STORE_LOCK' | 'FSM_STORE_LOAD', message: string) => Error;

const reason = (error: unknown): string => (error as Error)?.message ?? String(error);

/**
 * A lease on `key` in `store`: its own `acquire` (one operation), or one built from `lock` (when it has
 * one), `load`, and `compareAndSet` or `save` on the way out. Lock failures become `FSM_STORE_LOCK`, read
 * failures `FSM_STORE_LOAD`; release failures go to `onError`.
 */
export async function storeLease(
  store: FsmStateStore,
  key: string,
  waitMs: number,
  onError: (error: unknown) => void,
  fail: Fail,
): Promise<FsmLease> {
  const lockFailed = (error: unknown) =>
    fail('FSM_STORE_LOCK', `the workflow state store could not lock the workflow (${reason(error)})`);
  const loadFailed = (error: unknown) =>
    fail('FSM_STORE_LOAD', `the workflow state store failed to load (${reason(error)})`);
  if (store.acquire !== undefined) {
    try {
      return await store.acquire(key, { waitMs });
    } catch (error) {
      throw /held the lock/.test(reason(error)) ? lockFailed(error) : loadFailed(error);
    }
  }
  let release: () => Promise<void> = async () => {};
  if (store.lock !== undefined) {
    try {
      release = await store.lock(key, { waitMs });
    } catch (error) {
      throw lockFailed(error);
    }
  }
  let snapshot: FsmSnapshot | undefined;
  try {
    // `?? undefined`: many stores answer a missing key with null (`JSON.parse(await redis.get(k))`).
    snapshot = (await store.load(key)) ?? undefined;
  } catch (error) {
    await release().catch(onError);
    throw loadFailed(error);
  }
  let ended = false;
  return {
    snapshot,
    end: async (next) => {
      if (ended) return 'released';
      ended = true;
      try {
        if (next === undefined) return 'released';
        if (store.compareAndSet !== undefined)
          return (await store.compareAndSet(key, snapshot?.version, next)) ? 'saved' : 'conflict';
        await store.save(key, next);
        return 'saved';
      } finally {
        await release().catch(onError);
      }
    },
  };
}
