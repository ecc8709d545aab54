import { isRefusal, type ByteLedger, type Hold } from '../ledger/ByteLedger.js';
import { refusalError } from '../ledger/refusalError.js';
import type { Holder } from '../ledger/types.js';
import type { TaskOutcome } from './transitions.js';

/** JSON bytes of a value a task keeps (its arguments, its stored record). */
export const heldBytesOf = (value: unknown): number => Buffer.byteLength(JSON.stringify(value ?? null));

/**
 * A new task's hold on the runtime's ledger (kind `task`): its arguments (kept while the work runs), until
 * its record expires (`expiresAt`: the store drops it on its own). Arguments that do not fit throw the
 * ledger's JSON-RPC error and no task is made.
 * @see docs/security.md#the-ledger
 */
export function holdTaskArguments(
  ledger: ByteLedger,
  holder: Holder,
  spec: { tool: string; arguments?: unknown },
  expiresAt: number,
): Hold {
  const hold = ledger.take('task', holder, heldBytesOf(spec.arguments) + heldBytesOf(spec.tool), { expiresAt });
  if (isRefusal(hold)) throw refusalError(hold);
  return hold;
}

/**
 * The outcome a task will store, counted on its hold instead of its arguments: a result (or error) that does
 * not fit the holder's budgets ends the task `failed` with the ledger's text (the client reads why).
 */
export function chargedOutcome(hold: Hold | undefined, outcome: TaskOutcome): TaskOutcome {
  if (hold === undefined || hold.released) return outcome;
  const refused = hold.resize(heldBytesOf(outcome));
  if (refused === undefined) return outcome;
  const { status, retryAfterSeconds, budget, kind, message } = refused;
  const data = { status, retryAfterSeconds, budget, kind };
  const failed: TaskOutcome = {
    status: 'failed',
    error: { code: refusalError(refused).code, message, data },
    statusMessage: message,
  };
  // Shrinking always fits; a failure larger than the arguments counted stays at what was counted.
  hold.resize(Math.min(hold.bytes, heldBytesOf(failed)));
  return failed;
}

/** Once a task's record is terminal (or gone): its hold counts the record as stored, no more than before. */
export function settleHold(hold: Hold | undefined, stored: unknown): void {
  if (hold === undefined || hold.released) return;
  if (stored === undefined) hold.release();
  else hold.resize(Math.min(hold.bytes, heldBytesOf(stored)));
}
