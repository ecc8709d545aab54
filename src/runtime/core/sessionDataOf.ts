import type { HandlerExtra } from '../../protocol/types.js';
import { SessionDataError } from '../../errors/SessionDataError.js';
import { budgetOwner } from '../../principal/budgetOwner.js';
import { ledgerHolder } from '../../principal/ledgerHolder.js';
import { principalOf } from '../../principal/principalOf.js';
import { sessionDataFor, type SessionData, type SessionDataBackend } from '../../session/sessionData.js';

/** The caps `extra.session` writes obey: the size of one key's data, and how long a workflow instance's data lives. */
export interface SessionDataParts {
  readonly maxBytes?: number | undefined;
  /** The workflow's idle TTL: an instance's data lives that long after its last write. */
  readonly workflowTtlMs?: number | undefined;
}

/**
 * Whose data `extra.session` is: the legacy session (`sessionKey`), else the modern workflow instance, else
 * the authenticated principal; an anonymous modern call outside a workflow gets data that refuses with
 * what to do. Every write counts against the caller's budget owner (its principal, or its peer).
 */
export function sessionDataOf(
  backend: SessionDataBackend,
  extra: HandlerExtra,
  sessionKey: string | undefined,
  parts: SessionDataParts = {},
): SessionData {
  const { maxBytes, workflowTtlMs } = parts;
  const owner = budgetOwner({ sessionKey, extra });
  const holder = ledgerHolder({ sessionKey, extra });
  if (sessionKey !== undefined) return sessionDataFor(backend, `s:${sessionKey}`, { maxBytes, owner, holder });
  if (extra.workflow !== undefined)
    return sessionDataFor(backend, `w:${JSON.stringify([extra.workflow.machine, extra.workflow.key])}`, {
      maxBytes,
      owner,
      holder,
      ttlMs: workflowTtlMs,
    });
  const principal = principalOf(extra.authInfo);
  if (principal.kind !== 'anonymous') return sessionDataFor(backend, principal.key, { maxBytes, owner, holder });
  return UNKEYED;
}

/** `extra.session` of a request with nothing to key data by (an anonymous modern call outside a workflow). */
function unkeyedSessionData(): SessionData {
  const refuse = async (): Promise<never> => {
    throw new SessionDataError(
      'SESSION_DATA_NO_KEY',
      'This call has no session, workflow instance or authenticated principal to keep data for: authenticate the client (its data is then kept per principal) or call a workflow-bound tool with its handle.',
    );
  };
  return Object.freeze({ key: '', get: refuse, set: refuse, update: refuse, delete: refuse });
}

const UNKEYED = unkeyedSessionData();
