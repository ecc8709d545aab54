import type { SessionEvent, SessionRecord } from '../session/types.js';

/**
 * Turns the lifecycle of the HTTP app's legacy sessions into `mcp.server.session.duration`: a session is
 * timed from its record's creation (so a session restored after an idle period, on another instance or
 * after a restart, is still one session) to the moment it closes, whatever closed it (DELETE, expiry,
 * eviction). A shutdown ends no session: its record stays for the next process to resume.
 */
export function sessionDurations(
  recordOf: (id: string) => SessionRecord | undefined,
  ended: (seconds: number, protocolVersion: string) => void,
): (event: SessionEvent) => void {
  const live = new Map<string, { readonly createdAt: number; readonly protocolVersion: string }>();
  return (event) => {
    if (event.to === 'closed') {
      const session = live.get(event.id);
      live.delete(event.id);
      if (session !== undefined) ended(Math.max(0, event.at - session.createdAt) / 1000, session.protocolVersion);
    } else if (event.to === 'destroyed') live.delete(event.id);
    else if (!live.has(event.id)) {
      const record = recordOf(event.id);
      if (record !== undefined)
        live.set(event.id, { createdAt: record.createdAt, protocolVersion: record.protocolVersion });
    }
  };
}
