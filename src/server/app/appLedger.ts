import { systemClock } from '../../_internal/clock.js';
import { ByteLedger } from '../../ledger/ByteLedger.js';
import type { HttpOptions } from '../types.js';

/**
 * The app's one ledger of held bytes: the `heldBytes` option when it is a ledger (shared with other apps),
 * else one made from its limits on the app's clock. The app hands it to its runtime, so every store of both
 * counts in it.
 */
export function appLedger(options: Pick<HttpOptions<unknown>, 'heldBytes' | 'clock'>): ByteLedger {
  const held = options.heldBytes;
  return held instanceof ByteLedger ? held : new ByteLedger(held, options.clock ?? systemClock);
}

/** Bytes of a parsed JSON message as it came (re-serialized: the bytes a request of it held). */
export function jsonBytes(message: unknown): number {
  return Buffer.byteLength(JSON.stringify(message) ?? '');
}
