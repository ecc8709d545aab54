import type { ByteLedger, Hold } from '../../ledger/ByteLedger.js';
import type { Holder, LedgerRefusal } from '../../ledger/types.js';

/** The ledger's count of one request body as it is read: grown chunk by chunk, released once the request is done. */
export interface BodyHold {
  /** The refusal a body of `bytes` (declared, not read yet) would get now; holds nothing. */
  check(bytes: number): LedgerRefusal | undefined;
  /** Counts `bytes` read so far; a refusal (nothing more counted) when that passes a budget. */
  grow(bytes: number): LedgerRefusal | undefined;
  /** Stops counting (the parsed body was handed on and the request answered, or the body was refused). */
  release(): void;
}

const held = new WeakMap<Request, BodyHold>();

/**
 * Ends the body hold of `request` now, because what was read is held under another kind from here on (a listen
 * stream holds its whole request): the same bytes are not counted twice. Nothing when the body is not held.
 */
export function handOverBody(request: Request): void {
  held.get(request)?.release();
}

/** A {@link BodyHold} of kind `body` for `holder` on `ledger`, for `request`; the hold is taken with the first chunk. */
export function bodyHold(ledger: ByteLedger, holder: Holder, request: Request): BodyHold {
  let hold: Hold | undefined;
  const body: BodyHold = {
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
  held.set(request, body);
  return body;
}
