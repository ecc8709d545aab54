import type { OperatorLog } from '../../logging/OperatorLog.js';
import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import type { SessionManager } from '../../session/SessionManager.js';
import { httpError } from '../http/httpErrors.js';
import type { ResolvedHttpLimits } from '../limits.js';
import { peerFallback } from '../../principal/requestPrincipal.js';

const PEER = peerFallback('');

/**
 * Keeps the session budgets before a new session opens, per principal (or peer) first, then in total: past a
 * cap, a session in that scope is closed to make room — the oldest never-used one, else the least recently
 * used (in total: of the owner holding the most sessions). `429` (principal) or `503` (server) only when there
 * is none to close; `undefined` when the new session fits. A closed session leaves the budget at once (the
 * store delete follows); its client gets 404 and initializes again.
 */
export function sessionRoom(
  manager: SessionManager,
  limits: ResolvedHttpLimits,
  request: { owner: string | undefined; body: unknown; log: OperatorLog | undefined },
): Response | undefined {
  const { maxSessionsPerPrincipal: perOwner, maxSessions: total } = limits;
  const { owner, body, log } = request;
  const evict = (id: string): void => void manager.destroy(id, 'evicted').catch(() => {});
  if (owner !== undefined && manager.countFor(owner) >= perOwner) {
    const victim = manager.evictionCandidate(owner);
    if (victim === undefined) {
      log?.refusal('sessions_per_principal', 'session budget refused an initialize', { owner, limit: perOwner });
      return httpError(
        'tooManySessions',
        `Too Many Requests: this client already holds ${perOwner} open sessions${owner.startsWith(PEER) ? ' (without authentication, every session from its network address counts)' : ''}. Close sessions it no longer uses (HTTP DELETE with their Mcp-Session-Id) or wait for them to expire, then initialize again.`,
        jsonRpcIdOf(body),
      );
    }
    log?.refusal('sessions_per_principal', 'session budget evicted the least recently used session', {
      owner,
      limit: perOwner,
      session: victim,
    });
    evict(victim);
  }
  if (manager.count >= total) {
    const victim = manager.evictionCandidate();
    if (victim === undefined) {
      log?.refusal('sessions', 'session budget refused an initialize', { limit: total });
      return httpError(
        'sessionsFull',
        `Service Unavailable: this server holds its maximum of ${total} sessions, all in use. Retry initialize later or on another instance.`,
        jsonRpcIdOf(body),
      );
    }
    log?.refusal('sessions', 'session budget evicted the least recently used session', {
      limit: total,
      session: victim,
    });
    evict(victim);
  }
  return undefined;
}
