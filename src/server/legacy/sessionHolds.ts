import type { ByteLedger, Hold } from '../../ledger/ByteLedger.js';
import type { Holder } from '../../ledger/types.js';
import type { EventOwner } from '../../session/StreamHolds.js';
import type { SessionRecord } from '../../session/types.js';
import { recordHolder } from './sessionPrincipal.js';
import type { JsonRpcId } from '../../protocol/jsonRpcId.js';
import { heldBytesRefused } from '../http/httpErrors.js';

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

  /**
   * Whose ledger budget session `id`'s stored stream events count against: the holder of its `initialize`
   * when it opened here, else its record's ({@link recordHolder}). Without a ledger, nobody's.
   */
  ownerOf(id: string, record: SessionRecord | undefined): EventOwner | undefined {
    if (this.#ledger === undefined) return undefined;
    return { ledger: this.#ledger, holder: this.#holds.get(id)?.holder ?? recordHolder(id, record) };
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
