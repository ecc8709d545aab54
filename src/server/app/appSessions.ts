import { nowOf } from '../../_internal/clock.js';
import { MemoryFsmStore } from '../../fsm/MemoryFsmStore.js';
import type { OperatorLog } from '../../logging/OperatorLog.js';
import { warnOf } from '../../logging/warnOf.js';
import type { EventStore } from '../../session/EventStore.js';
import { MemoryEventStore } from '../../session/MemoryEventStore.js';
import type { SessionBus } from '../../session/SessionBus.js';
import { SessionManager } from '../../session/SessionManager.js';
import { storeSessionData, type SessionDataBackend } from '../../session/sessionData.js';
import { sessionFsmStore } from '../../session/sessionFsmStore.js';
import type { SessionEvent } from '../../session/types.js';
import { keyedSessionBus } from '../legacy/keyedSessionBus.js';
import type { HttpOptions } from '../types.js';

/** Resumable SSE streams: where their events wait, and the reconnection delay suggested to clients. */
export interface AppEvents {
  readonly store: EventStore;
  readonly retryMs: number;
}

/** The session side of an app: its sessions, their data and events, and the options the runtime is built from. */
export interface AppSessions<Ctx> {
  readonly manager: SessionManager;
  readonly sessionData: SessionDataBackend;
  /** Undefined with `eventStore: false`. */
  readonly events: AppEvents | undefined;
  /** The session bus between instances, keyed when streams are resumable. */
  readonly sessionBus: SessionBus | undefined;
  /** `options` with the session data, the session bus and the workflow stores the sessions imply. */
  readonly options: HttpOptions<Ctx>;
}

/** What the rest of the app hears of the sessions. */
export interface AppSessionHooks {
  /** Every lifecycle event (after which the `onSessionEvent` option hears it). */
  event(event: SessionEvent): void;
  /** A session left memory (`idle`) or ended (`destroyed`); its data and workflow state go after this. */
  released(id: string, phase: 'idle' | 'destroyed'): void;
}

/**
 * Builds the session side of an app from its options: the {@link SessionManager}, the handler data
 * (`extra.session`) kept beside the session records, the event store of resumable streams, the session bus,
 * and, without an explicit `fsmStore`, legacy workflow state kept in the session record. Warns once about a
 * session bus whose events or workflow state stay in this process.
 */
export function appSessions<Ctx>(
  options: HttpOptions<Ctx>,
  log: OperatorLog,
  hooks: AppSessionHooks,
): AppSessions<Ctx> {
  const now = options.clock !== undefined ? { now: nowOf(options.clock) } : {};
  const storeFailed = (message: string, session: string) => (error: unknown) => log.error(message, { session }, error);
  const manager = new SessionManager({
    ...(options.sessionStore !== undefined ? { store: options.sessionStore } : {}),
    ...(options.sessionTimeouts !== undefined ? { timeouts: options.sessionTimeouts } : {}),
    onEvent: (event) => {
      hooks.event(event);
      options.onSessionEvent?.(event);
    },
    ...now,
    onError: (error) => log.error('session store failed', {}, error),
    onRelease: (id, phase) => {
      hooks.released(id, phase);
      if (phase === 'destroyed')
        void options.fsmStore
          ?.delete?.(id)
          .catch(storeFailed('workflow state store failed: an ended session’s state could not be deleted', id));
      if (phase === 'destroyed')
        void sessionData
          .delete(`s:${id}`)
          .catch(storeFailed('session store failed: an ended session’s data could not be deleted', id));
    },
  });
  // Handler data (extra.session) lives in the session store beside the session records, for as long as a session may.
  const sessionData =
    options.sessionData ??
    storeSessionData(manager.store, manager.timeouts.ttlMs, {
      ...now,
      ...(options.sessionDataLimits !== undefined ? { limits: options.sessionDataLimits } : {}),
    });
  const events =
    options.eventStore === false
      ? undefined
      : { store: options.eventStore ?? new MemoryEventStore(now), retryMs: options.sseRetryMs ?? 1000 };
  const rawSessionBus = options.sessionBus ?? options.bus?.sessions;
  // With resumable streams, every session notification carries its identity, so instances store it once.
  const sessionBus =
    rawSessionBus !== undefined && events !== undefined ? keyedSessionBus(rawSessionBus) : rawSessionBus;
  if (rawSessionBus !== undefined && options.eventStore === undefined) {
    warnOf(options)(
      '[mcp-fusion] several instances share sessions (a session bus is set) but the events kept for resuming SSE streams live in this process: a client reconnecting to another instance cannot resume. Pass eventStore (e.g. new RedisEventStore({ client })), or eventStore: false.',
    );
  }
  if (sessionBus !== undefined && options.fsm !== undefined && options.fsmStore === undefined) {
    warnOf(options)(
      '[mcp-fusion] several instances share sessions (a session bus is set) but legacy workflow state lives in each session record, which is not atomic across processes; pass fsmStore (e.g. new RedisFsmStore({ client })) as well.',
    );
  }
  // Without an explicit store, workflow state lives in the session record: it follows the session
  // through idle and resume, and goes away with it.
  const stores =
    options.fsm !== undefined && options.fsmStore === undefined
      ? {
          ...options,
          fsmStore: sessionFsmStore(manager),
          workflowStore: options.workflowStore ?? new MemoryFsmStore(now),
        }
      : options;
  return {
    manager,
    sessionData,
    events,
    sessionBus,
    options: { ...stores, sessionData, ...(sessionBus !== undefined ? { sessionBus } : {}) },
  };
}
