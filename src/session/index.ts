export { SessionManager, type SessionManagerOptions } from './SessionManager.js';
export { MemorySessionStore } from './MemorySessionStore.js';
export { sessionFsmStore } from './sessionFsmStore.js';
export type { SessionStore } from './SessionStore.js';
export type { SessionEvent, SessionPhase, SessionRecord, SessionTimeouts } from './types.js';
export type { SessionBus, SessionNotification } from './SessionBus.js';
export { MemoryEventStore, type MemoryEventStoreOptions } from './MemoryEventStore.js';
export type { EventStore, EventStoreLimits, ReplayResult, StoredEvent } from './EventStore.js';
export { StreamHolds, type EventOwner } from './StreamHolds.js';
