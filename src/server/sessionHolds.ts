import type { ByteLedger, Hold } from '../ledger/ByteLedger.js';
import type { Holder } from '../ledger/types.js';
import type { JsonRpcId } from '../protocol/jsonRpcId.js';
import { heldBytesRefused } from './httpErrors.js';

/**
 * The ledger's holds of what legacy sessions keep of their `initialize` (protocol version, client info,
 * capabilities; kind `session`): taken when a session opens, released when it ends. Without a ledger, nothing.
 */
export class SessionHolds {
  readonly #ledger: ByteLedger | undefined;
  readonly #holds = new Map<string, Hold>();

  constructor(ledger: ByteLedger | undefined) {
    this.#ledger = ledger;
  }

  /** Holds `kept` (serialized) for session `id`, or answers the ledger's refusal (429/503) to request `requestId`. */
  take(id: string, holder: Holder, kept: object, requestId: JsonRpcId): Response | undefined {
    if (this.#ledger === undefined) return undefined;
    const hold = this.#ledger.take('session', holder, Buffer.byteLength(JSON.stringify(kept)));
    if ('budget' in hold) return heldBytesRefused(hold, requestId);
    this.#holds.set(id, hold);
    return undefined;
  }

  /** The session ended (or never opened): its hold ends. */
  release(id: string): void {
    this.#holds.get(id)?.release();
    this.#holds.delete(id);
  }

  /** Sessions held. */
  get size(): number {
    return this.#holds.size;
  }
}
