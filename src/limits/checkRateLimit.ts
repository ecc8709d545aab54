import { DefinitionError } from '../errors/FusionError.js';
import type { RateLimit } from './types.js';

/** Throws a {@link DefinitionError} naming `owner` unless `limit` has a positive integer `max` and a positive `windowMs`. */
export function checkRateLimit(limit: RateLimit, owner: string): RateLimit {
  const ok =
    typeof limit === 'object' &&
    limit !== null &&
    Number.isInteger(limit.max) &&
    limit.max > 0 &&
    Number.isFinite(limit.windowMs) &&
    limit.windowMs > 0;
  if (!ok) {
    throw new DefinitionError(
      'RATE_LIMIT',
      `${owner} has rate limit ${JSON.stringify(limit)}; give { max, windowMs } with a positive whole max and a positive window in milliseconds, e.g. { max: 60, windowMs: 60_000 }.`,
      { owner },
    );
  }
  return Object.freeze({ max: limit.max, windowMs: limit.windowMs });
}
