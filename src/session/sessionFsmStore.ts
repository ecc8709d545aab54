import type { FsmStateStore } from '../fsm/FsmStateStore.js';
import type { FsmSnapshot } from '../fsm/types.js';
import type { SessionManager } from './SessionManager.js';

/**
 * An {@link FsmStateStore} that keeps each legacy session's workflow snapshot inside its session record,
 * so the state lives exactly as long as the session, follows it across idle/resume and restarts, and
 * is removed with it.
 */
export function sessionFsmStore(sessions: SessionManager): FsmStateStore {
  const read = async (id: string): Promise<FsmSnapshot | undefined> =>
    (sessions.get(id) ?? (await sessions.store.get(id)))?.fsm?.workflow;
  const write = async (id: string, snapshot: FsmSnapshot): Promise<void> => {
    const record = sessions.get(id) ?? (await sessions.store.get(id));
    if (record === undefined) throw new Error(`session "${id}" no longer exists`);
    record.fsm = { ...record.fsm, workflow: { ...snapshot } };
    await sessions.save(record);
  };
  return {
    load: read,
    save: write,
    async compareAndSet(id, expectedVersion, snapshot) {
      if ((await read(id))?.version !== expectedVersion) return false;
      await write(id, snapshot);
      return true;
    },
  };
}
