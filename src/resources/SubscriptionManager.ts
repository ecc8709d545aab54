import { JsonRpcCode, WireError } from '../errors/WireError.js';

/** Options of {@link SubscriptionManager}. */
export interface SubscriptionOptions {
  /** True when `uri` names a registered resource or matches a template. */
  exists: (uri: string) => boolean;
  /** A subscription with no update for this long is dropped (30 min). */
  idleMs?: number;
  now?: () => number;
}

/**
 * Legacy `resources/subscribe` bookkeeping: one subscription per (session, URI), idempotent, validated
 * (canonical form, no traversal, an existing resource), expiring when idle, released with the session.
 * @see docs/protocol-lifecycle.md
 */
export class SubscriptionManager {
  readonly #bySession = new Map<string, Map<string, number>>();
  readonly #byUri = new Map<string, Set<string>>();
  readonly #exists: (uri: string) => boolean;
  readonly #idleMs: number;
  readonly #now: () => number;

  constructor(options: SubscriptionOptions) {
    this.#exists = options.exists;
    this.#idleMs = options.idleMs ?? 30 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /** Subscribes `session` to `uri`; throws a {@link WireError} for a malformed or unknown URI. */
  subscribe(session: string, uri: unknown): void {
    const canonical = canonicalUri(uri);
    if (!this.#exists(canonical)) throw new WireError(JsonRpcCode.ResourceNotFound, `Resource not found: ${canonical}. Call resources/list or resources/templates/list for the URIs you can subscribe to.`, { uri: canonical });
    let uris = this.#bySession.get(session);
    if (uris === undefined) this.#bySession.set(session, (uris = new Map()));
    uris.set(canonical, this.#now());
    let sessions = this.#byUri.get(canonical);
    if (sessions === undefined) this.#byUri.set(canonical, (sessions = new Set()));
    sessions.add(session);
  }

  /** True when `session` is subscribed to the canonical `uri`. */
  has(session: string, uri: string): boolean {
    return this.#bySession.get(session)?.has(uri) === true;
  }

  /** Number of URIs `session` is subscribed to. */
  countFor(session: string): number {
    return this.#bySession.get(session)?.size ?? 0;
  }

  /** Removes one subscription; unknown ones are ignored (idempotent). */
  unsubscribe(session: string, uri: unknown): void {
    const canonical = canonicalUri(uri);
    this.#bySession.get(session)?.delete(canonical);
    if (this.#bySession.get(session)?.size === 0) this.#bySession.delete(session);
    const sessions = this.#byUri.get(canonical);
    sessions?.delete(session);
    if (sessions?.size === 0) this.#byUri.delete(canonical);
  }

  /** The sessions subscribed to `uri` now; marks their subscriptions as used. */
  subscribers(uri: string): string[] {
    const sessions = [...(this.#byUri.get(uri) ?? [])];
    const now = this.#now();
    for (const s of sessions) this.#bySession.get(s)?.set(uri, now);
    return sessions;
  }

  /** Drops every subscription of a closed session. */
  releaseSession(session: string): void {
    for (const uri of this.#bySession.get(session)?.keys() ?? []) this.unsubscribe(session, uri);
    this.#bySession.delete(session);
  }

  /** Drops subscriptions idle longer than `idleMs`. */
  sweep(): void {
    const limit = this.#now() - this.#idleMs;
    for (const [session, uris] of [...this.#bySession]) {
      for (const [uri, last] of [...uris]) if (last <= limit) this.unsubscribe(session, uri);
    }
  }

  /** Number of (session, URI) subscriptions. */
  get size(): number {
    let n = 0;
    for (const uris of this.#bySession.values()) n += uris.size;
    return n;
  }
}

/**
 * The canonical form of a resource URI, or a {@link WireError} `-32602`: it must parse as a URI and
 * may not contain `..` or `.` path segments (raw or percent-encoded).
 */
export function canonicalUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2048) {
    throw new WireError(JsonRpcCode.InvalidParams, 'Invalid resource URI: give the URI of a listed resource as a non-empty string.');
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    throw new WireError(JsonRpcCode.InvalidParams, `Invalid resource URI "${uri}": it has a malformed percent-encoding.`);
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) || decoded.split(/[\\/]/).some((seg) => seg === '..' || seg === '.')) {
    throw new WireError(JsonRpcCode.InvalidParams, `Invalid resource URI "${uri}": use the canonical URI of a listed resource (a scheme, and no "." or ".." path segments).`);
  }
  return uri;
}
