import { JsonRpcCode } from '../errors/WireError.js';

/** True for a modern `subscriptions/listen` request body. */
export function isListen(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { method?: unknown }).method === 'subscriptions/listen';
}

/**
 * Caps the open `subscriptions/listen` streams per principal (the SDK caps them only per handler): one
 * more is refused with a JSON-RPC error, and a stream counts until its response body ends or is cancelled.
 */
export class ListenStreams {
  readonly #open = new Map<string, number>();
  readonly #max: number;

  constructor(max: number) {
    this.#max = max;
  }

  /** Reserves a stream for the caller; `null` when the caller is at the cap. */
  open(authInfo: unknown): string | null {
    const auth = authInfo as { clientId?: string; extra?: { sub?: string } } | undefined;
    const principal = auth?.extra?.sub ?? auth?.clientId ?? 'anonymous';
    const count = this.#open.get(principal) ?? 0;
    if (count >= this.#max) return null;
    this.#open.set(principal, count + 1);
    return principal;
  }

  /** The JSON-RPC refusal of a stream over the cap. */
  refusal(body: unknown): Response {
    const id = (body as { id?: string | number }).id ?? null;
    return Response.json(
      { jsonrpc: '2.0', id, error: { code: JsonRpcCode.InvalidRequest, message: `Too many open subscription streams: this client already holds ${this.#max}. Close one (or reuse one stream with a wider filter) and listen again.` } },
      { status: 429 },
    );
  }

  /** Releases the reservation when the stream's body ends, errors or is cancelled (or at once if it has none). */
  track(response: Response, principal: string): Response {
    let released = false;
    const release = (): void => {
      if (released) return;
      released = true;
      const left = (this.#open.get(principal) ?? 1) - 1;
      if (left <= 0) this.#open.delete(principal);
      else this.#open.set(principal, left);
    };
    if (response.body === null || !response.ok) {
      release();
      return response;
    }
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (done) {
            release();
            controller.close();
          } else controller.enqueue(value);
        } catch (error) {
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

  /** Open streams per principal (for tests and metrics). */
  countFor(principal: string): number {
    return this.#open.get(principal) ?? 0;
  }
}
