/**
 * Budgets of the HTTP app: everything a client can make the server hold. Defaults keep `npm start` alive on
 * a small machine (a few hundred MB); raise them for a busy server. A full per-principal budget answers
 * `429`, a full server-wide one `503`, both with `Retry-After`.
 * @see docs/security.md
 */
export interface HttpLimits {
  /**
   * Legacy sessions tracked by this process (live or idle) (1,000). When full, `initialize` closes one to make
   * room: of the owner holding the most sessions, the oldest never-used, else the least recently used.
   */
  maxSessions?: number;
  /**
   * Legacy sessions per principal, or per peer address (IPv6: per /64) for anonymous openers (100). When
   * full, that principal's oldest never-used session, else its least recently used, is closed to make room.
   */
  maxSessionsPerPrincipal?: number;
  /**
   * Size of the `initialize` params a session keeps, serialized as JSON (8 KiB: real clients send well under
   * 2 KiB); larger gets `413`. A session's memory grows with it: parsed objects cost several times their JSON.
   */
  maxInitializeBytes?: number;
  /** Nesting depth of the `initialize` params (32); deeper gets `400`. */
  maxInitializeDepth?: number;
  /** Open modern `subscriptions/listen` streams on this process, for everyone (1,024); one more gets `503`. */
  maxListenStreams?: number;
  /**
   * A `subscriptions/listen` stream ends after this long (30 min), or sooner when the bearer token that
   * opened it expires; the client listens again.
   */
  listenMaxLifetimeMs?: number;
  /** Resource URIs in one listen stream's `resourceSubscriptions` filter (1,000); more gets `400` (`-32602`). */
  maxListenFilterUris?: number;
  /** Bytes of the resource URIs in one listen stream's filter (64 KiB); more gets `400` (`-32602`). */
  maxListenFilterBytes?: number;
  /** Bytes of the filters of every open listen stream on this process (8 MiB); one more filter gets `503`. */
  maxListenFilterBytesTotal?: number;
  /**
   * Tool calls running at once on this process (1,000), each `tools/call` of a batch counted, from admission
   * until its response ends; one more gets `503`, a batch holding more calls than this `400`.
   */
  maxInFlightCalls?: number;
}

/** {@link HttpLimits} with every default filled in. */
export type ResolvedHttpLimits = Required<HttpLimits>;

/** The defaults of {@link HttpLimits}. */
export const DEFAULT_HTTP_LIMITS: ResolvedHttpLimits = Object.freeze({
  maxSessions: 1_000,
  maxSessionsPerPrincipal: 100,
  maxInitializeBytes: 8 * 1024,
  maxInitializeDepth: 32,
  maxListenStreams: 1_024,
  listenMaxLifetimeMs: 30 * 60_000,
  maxListenFilterUris: 1_000,
  maxListenFilterBytes: 64 * 1024,
  maxListenFilterBytesTotal: 8 * 1024 * 1024,
  maxInFlightCalls: 1_000,
});

/** Fills in the defaults and checks every limit is a positive integer. */
export function resolveHttpLimits(limits: HttpLimits = {}): ResolvedHttpLimits {
  const out = {
    ...DEFAULT_HTTP_LIMITS,
    ...Object.fromEntries(Object.entries(limits).filter(([, v]) => v !== undefined)),
  } as ResolvedHttpLimits;
  for (const [name, value] of Object.entries(out)) {
    if (!(Number.isInteger(value) && value > 0))
      throw new RangeError(`limits.${name} must be a positive integer (got ${String(value)}).`);
  }
  return out;
}
