import { SessionDataError } from '../errors/SessionDataError.js';
import type { Holder } from '../ledger/types.js';
import type { SessionDataBackend } from './SessionDataBackend.js';

/** What one key's data is checked against: its size cap, and the budget of its owner on the backend. */
export interface DataLimits {
  readonly key: string;
  readonly maxBytes: number;
  readonly owner: string | undefined;
  /** Whose bytes they are on the held-bytes ledger. */
  readonly holder?: Holder | undefined;
  readonly backend: Pick<SessionDataBackend, 'exceeds'>;
}

/** `data` (about to be stored after a write of `name`) when it fits the size cap and the owner's budget; a named error otherwise. */
export function checkDataLimits(
  data: Record<string, unknown>,
  name: string,
  limits: DataLimits,
): Record<string, unknown> {
  const { key, maxBytes, owner, holder, backend } = limits;
  const size = new TextEncoder().encode(JSON.stringify(data)).length;
  if (size > maxBytes) {
    throw new SessionDataError(
      'SESSION_DATA_TOO_LARGE',
      `Session data of "${key}" would be ${size} bytes with "${name}", over the cap of ${maxBytes}; store less (or a reference to data kept elsewhere), or delete values no longer needed.`,
      { key, name, size, maxBytes },
    );
  }
  const over = owner === undefined ? undefined : backend.exceeds?.(key, owner, size, holder);
  if (over !== undefined) {
    const text =
      over.message !== undefined
        ? `Session data "${name}" was not stored: ${over.message}`
        : over.budget === 'principal'
          ? `Session data "${name}" was not stored: your data would pass its budget of ${over.max} bytes for one caller (sessions and workflow instances together); delete values no longer needed or finish open workflows, then try again.`
          : `Session data "${name}" was not stored: the server holds its most session data (${over.max} bytes) for all clients; store less, or try again once older data expires.`;
    throw new SessionDataError('SESSION_DATA_BUDGET', text, { key, name, size, budget: over.budget, max: over.max });
  }
  return data;
}
