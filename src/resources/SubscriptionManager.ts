import { JsonRpcCode, WireError } from '../errors/WireError.js';
import { contentMessages as messages } from '../protocol/contentMessages.js';

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
  /** The budget owner (principal or peer) of each session that holds subscriptions, and each owner's count. */
  readonly #ownerOf = new Map<string, string>();
  readonly #byOwner = new Map<string, number>();
  readonly #exists: (uri: string) => boolean;
  readonly #idleMs: number;
  readonly #now: () => number;
  #size = 0;

  constructor(options: SubscriptionOptions) {
    this.#exists = options.exists;
    this.#idleMs = options.idleMs ?? 30 * 60_000;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Subscribes `session` to `uri`, counted for `owner` (the session's principal or peer; the session itself
   * by default); throws a {@link WireError} for a malformed or unknown URI.
   */
  subscribe(session: string, uri: unknown, owner: string = session): void {
    const canonical = canonicalUri(uri);
    if (!this.#exists(canonical))
      throw new WireError(JsonRpcCode.ResourceNotFound, messages.subscribeNotFound(canonical), { uri: canonical });
    let uris = this.#bySession.get(session);
    if (uris === undefined) {
      this.#bySession.set(session, (uris = new Map()));
      this.#ownerOf.set(session, owner);
    }
    if (!uris.has(canonical)) {
      this.#size++;
      const holder = this.#ownerOf.get(session)!;
      this.#byOwner.set(holder, (this.#byOwner.get(holder) ?? 0) + 1);
    }
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

  /** Number of subscriptions all sessions of `owner` hold together (O(1)). */
  countForOwner(owner: string): number {
    return this.#byOwner.get(owner) ?? 0;
  }

  /** Removes one subscription; unknown ones are ignored (idempotent). */
  unsubscribe(session: string, uri: unknown): void {
    const canonical = canonicalUri(uri);
    const uris = this.#bySession.get(session);
    if (uris?.delete(canonical) !== true) return;
    this.#size--;
    const owner = this.#ownerOf.get(session)!;
    const left = this.#byOwner.get(owner)! - 1;
    if (left === 0) this.#byOwner.delete(owner);
    else this.#byOwner.set(owner, left);
    if (uris.size === 0) {
      this.#bySession.delete(session);
      this.#ownerOf.delete(session);
    }
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
    for (const uri of [...(this.#bySession.get(session)?.keys() ?? [])]) this.unsubscribe(session, uri);
  }

  /** Drops subscriptions idle longer than `idleMs` (a full pass: the sweeper's timer runs it, never a request). */
  sweep(): void {
    const limit = this.#now() - this.#idleMs;
    for (const [session, uris] of [...this.#bySession]) {
      for (const [uri, last] of [...uris]) if (last <= limit) this.unsubscribe(session, uri);
    }
  }

  /** Number of (session, URI) subscriptions (O(1)). */
  get size(): number {
    return this.#size;
  }
}

/**
 * The canonical form of a resource URI, or a {@link WireError} `-32602`: it must parse as a URI and
 * may not contain `..` or `.` path segments (raw or percent-encoded).
 */
export function canonicalUri(uri: unknown): string {
  if (typeof uri !== 'string' || uri.length === 0 || uri.length > 2048) {
    throw new WireError(
      JsonRpcCode.InvalidParams,
      'Invalid resource URI: give the URI of a listed resource as a non-empty string.',
    );
  }
  let decoded: string;
  try {
    decoded = decodeURIComponent(uri);
  } catch {
    throw new WireError(
      JsonRpcCode.InvalidParams,
      `Invalid resource URI "${uri}": it has a malformed percent-encoding.`,
    );
  }
  if (!/^[A-Za-z][A-Za-z0-9+.-]*:/.test(uri) || decoded.split(/[\\/]/).some((seg) => seg === '..' || seg === '.')) {
    throw new WireError(
      JsonRpcCode.InvalidParams,
      `Invalid resource URI "${uri}": use the canonical URI of a listed resource (a scheme, and no "." or ".." path segments).`,
    );
  }
  return uri;
}
