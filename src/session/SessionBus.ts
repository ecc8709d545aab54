/** An MCP notification addressed to one legacy session (`notifications/tools/list_changed`, `notifications/resources/updated`…). */
export interface SessionNotification {
  method: string;
  params?: Record<string, unknown>;
}

/**
 * Carries per-session notifications between server processes. A legacy client keeps its standalone
 * GET stream open on one instance while its requests may land on any other: the instance that raises a
 * notification publishes it here, and every instance holding a live server for that session sends it
 * locally — the one with the open stream delivers it, the others drop it. `RedisEventBus` from
 * `mcp-fusion/redis` is one; without a bus, notifications go straight to the local server.
 * @see docs/scaling.md
 */
export interface SessionBus {
  /** Fire and forget: never throws; a failure to publish is reported by the bus itself. */
  publish(sessionId: string, notification: SessionNotification): void;
  /** Receives every published notification (this process's too); returns an idempotent unsubscribe. */
  subscribe(listener: (sessionId: string, notification: SessionNotification) => void): () => void;
  /**
   * Optional: this process holds a live server for `sessionId` until the function it resolves is called. A
   * bus that routes per session (sharded pub/sub on a Redis Cluster) receives a session's notifications only
   * while it is watched, and resolves once it receives them (the session is served only then); a bus with
   * one channel for every session needs no hint. Never rejects.
   */
  watch?(sessionId: string): Promise<() => void>;
}
