import { JsonRpcCode } from '../errors/WireError.js';
import { principalOf } from '../principal/principalOf.js';

/** True for a modern `subscriptions/listen` request body. */
export function isListen(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

/** Limits of {@link ListenStreams}. */
export interface ListenLimits {
  /** Open streams per principal: a verified user or client, or the peer address of an anonymous caller. */
  readonly perPrincipal: number;
  /** Open streams on this process for everyone. */
  readonly total: number;
  /** A stream is ended after this long (the client listens again). */
  readonly maxLifetimeMs: number;
}

/** A reserved stream slot, or why there is none. */
export type ListenSlot = { readonly principal: string } | { readonly full: 'principal' | 'total' };

/**
 * Caps the open `subscriptions/listen` streams (the SDK caps them only per handler) per principal and in
 * total, and ends each one after a maximum lifetime. A stream counts until its response body ends, errors,
 * is cancelled or reaches its lifetime.
 */
export class ListenStreams {
  readonly #open = new Map<string, number>();
  readonly #limits: ListenLimits;
  readonly #closers = new Set<() => void>();
  #total = 0;

  constructor(limits: ListenLimits) {
    this.#limits = limits;
  }

  /** Reserves a stream for the caller (`peer`: the remote address, the key of anonymous callers). */
  open(authInfo: unknown, peer: string | undefined): ListenSlot {
    const principal = principalOf(authInfo, peer === undefined ? undefined : `peer:${peer}`).key;
    const count = this.#open.get(principal) ?? 0;
    if (count >= this.#limits.perPrincipal) return { full: 'principal' };
    if (this.#total >= this.#limits.total) return { full: 'total' };
    this.#open.set(principal, count + 1);
    this.#total++;
    return { principal };
  }

  /** The JSON-RPC refusal of a stream over a cap: `429` (this principal) or `503` (this server), with `Retry-After`. */
  refusal(body: unknown, full: 'principal' | 'total'): Response {
    const id = (body as { id?: string | number }).id ?? null;
    const message =
      full === 'principal'
        ? `Too many open subscription streams: this client already holds ${this.#limits.perPrincipal}. Close one (or reuse one stream with a wider filter) and listen again.`
        : `Service Unavailable: this server holds its maximum of ${this.#limits.total} subscription streams. Listen again later or on another instance.`;
    return Response.json({ jsonrpc: '2.0', id, error: { code: full === 'principal' ? JsonRpcCode.InvalidRequest : JsonRpcCode.InternalError, message } }, { status: full === 'principal' ? 429 : 503, headers: { 'Retry-After': full === 'principal' ? '5' : '30' } });
  }

  /** Releases the reservation when the stream's body ends, errors, is cancelled or outlives its lifetime. */
  track(response: Response, principal: string): Response {
    let released = false;
    const lifetime: { timer?: ReturnType<typeof setTimeout> } = {};
    const release = (): void => {
      if (released) return;
      released = true;
      if (lifetime.timer !== undefined) clearTimeout(lifetime.timer);
      this.#closers.delete(end);
      this.#total--;
      const left = (this.#open.get(principal) ?? 1) - 1;
      if (left <= 0) this.#open.delete(principal);
      else this.#open.set(principal, left);
    };
    if (response.body === null || !response.ok) {
      release();
      return response;
    }
    const reader = response.body.getReader();
    let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
    const end = (): void => {
      release();
      void reader.cancel('listen stream lifetime reached').catch(() => {});
      try {
        controllerRef?.close();
      } catch {
        // Already closed.
      }
    };
    this.#closers.add(end);
    lifetime.timer = setTimeout(end, this.#limits.maxLifetimeMs);
    lifetime.timer.unref?.();
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controllerRef = controller;
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (released) return;
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
          if (released) return;
          release();
          controller.error(error);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    });
    return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
  }

  /** Ends every open stream (shutdown). */
  closeAll(): void {
    for (const end of [...this.#closers]) end();
  }

  /** Open streams per principal key (for tests and metrics). */
  countFor(principal: string): number {
    return this.#open.get(principal) ?? 0;
  }

  /** Open streams on this process. */
  get size(): number {
    return this.#total;
  }
}
