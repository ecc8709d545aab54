import type { ByteLedger, Hold } from '../ledger/ByteLedger.js';
import type { Holder, LedgerRefusal } from '../ledger/types.js';

/** The ledger's count of one request body as it is read: grown chunk by chunk, released once the request is done. */
export interface BodyHold {
  /** The refusal a body of `bytes` (declared, not read yet) would get now; holds nothing. */
  check(bytes: number): LedgerRefusal | undefined;
  /** Counts `bytes` read so far; a refusal (nothing more counted) when that passes a budget. */
  grow(bytes: number): LedgerRefusal | undefined;
  /** Stops counting (the parsed body was handed on and the request answered, or the body was refused). */
  release(): void;
}

/** A {@link BodyHold} of kind `body` for `holder` on `ledger`; the hold is taken with the first chunk. */
export function bodyHold(ledger: ByteLedger, holder: Holder): BodyHold {
  let hold: Hold | undefined;
  return {
    check: (bytes) => ledger.check('body', holder, bytes),
    grow(bytes) {
      if (hold !== undefined) return hold.resize(bytes);
      const taken = ledger.take('body', holder, bytes);
      if ('budget' in taken) return taken;
      hold = taken;
      return undefined;
    },
    release: () => hold?.release(),
  };
}
