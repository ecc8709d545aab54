import type { IncomingMessage } from 'node:http';
import type { LedgerRefusal } from '../../ledger/types.js';

const STATE = Symbol('mcp-fusion.nodeRequest');

/** What a {@link nodeRequest} keeps: the Node request, and what was built from it on first use. */
interface NodeRequestState {
  readonly incoming: IncomingMessage;
  readonly method: string;
  readonly url: string;
  headers: Headers | undefined;
  controller: AbortController | undefined;
  aborted: boolean;
  /** Told when the client goes away, without a signal ({@link onClientGone}). */
  listeners: Array<() => void> | undefined;
  real: Request | undefined;
  bodyTaken: boolean;
}

type NodeRequest = Request & { [STATE]: NodeRequestState };

function stateOf(request: unknown): NodeRequestState | undefined {
  return typeof request === 'object' && request !== null ? (request as Partial<NodeRequest>)[STATE] : undefined;
}

function headersOf(state: NodeRequestState): Headers {
  if (state.headers === undefined) {
    const headers = new Headers();
    const raw = state.incoming.headers;
    for (const name in raw) {
      const value = raw[name];
      if (value === undefined || name.charCodeAt(0) === 58 /* ':' */) continue;
      if (typeof value === 'string') headers.append(name, value);
      else for (const item of value) headers.append(name, item);
    }
    state.headers = headers;
  }
  return state.headers;
}

function signalOf(state: NodeRequestState): AbortSignal {
  if (state.controller === undefined) {
    state.controller = new AbortController();
    if (state.aborted) state.controller.abort();
  }
  return state.controller.signal;
}

/** The full web `Request`, built only when something reads a member beyond method, url, headers and signal. */
function realOf(state: NodeRequestState): Request {
  // The body belongs to the app (read once, by readJsonBody): the full request carries none.
  state.real ??= new Request(state.url, { method: state.method, headers: headersOf(state), signal: signalOf(state) });
  return state.real;
}

const prototype: object = Object.create(Request.prototype, {
  method: {
    get(this: NodeRequest) {
      return this[STATE].method;
    },
  },
  url: {
    get(this: NodeRequest) {
      return this[STATE].url;
    },
  },
  headers: {
    get(this: NodeRequest) {
      return headersOf(this[STATE]);
    },
  },
  signal: {
    get(this: NodeRequest) {
      return signalOf(this[STATE]);
    },
  },
  [Symbol.for('nodejs.util.inspect.custom')]: {
    value(this: NodeRequest) {
      return `Request (from node:http) ${this.method} ${this.url}`;
    },
  },
});
// Every other member of Request (body mixin, clone, cache, …) answers from the full request.
for (const [name, descriptor] of Object.entries(Object.getOwnPropertyDescriptors(Request.prototype))) {
  if (name === 'constructor' || Object.prototype.hasOwnProperty.call(prototype, name)) continue;
  if (descriptor.get !== undefined) {
    Object.defineProperty(prototype, name, {
      get(this: NodeRequest) {
        return Reflect.get(realOf(this[STATE]), name);
      },
    });
  } else if (typeof descriptor.value === 'function') {
    Object.defineProperty(prototype, name, {
      value(this: NodeRequest, ...args: unknown[]) {
        const real = realOf(this[STATE]);
        return (Reflect.get(real, name) as (...a: unknown[]) => unknown).apply(real, args);
      },
    });
  }
}

/**
 * A web `Request` view of a Node request, for `startServer`'s adapter: `method`, `url` and `headers` come
 * straight from the `IncomingMessage` (headers built on first read), the `signal` only exists once read,
 * and the body stays on the Node stream for {@link takeNodeBody}: it is read once, by the app. Any other
 * member builds the full `Request` on first use (without a body: the app owns it). `instanceof Request` holds.
 */
export function nodeRequest(incoming: IncomingMessage, url: string): Request {
  const request = Object.create(prototype) as NodeRequest;
  request[STATE] = {
    incoming,
    method: (incoming.method ?? 'GET').toUpperCase(),
    url,
    headers: undefined,
    controller: undefined,
    aborted: false,
    listeners: undefined,
    real: undefined,
    bodyTaken: false,
  };
  return request;
}

/** Aborts the request's signal (now if it was read, or as soon as it is): the client went away. */
export function abortNodeRequest(request: Request): void {
  const state = stateOf(request);
  if (state === undefined || state.aborted) return;
  state.aborted = true;
  state.controller?.abort();
  const listeners = state.listeners;
  state.listeners = undefined;
  if (listeners !== undefined) for (const listener of listeners) listener();
}

/**
 * Calls `listener` once when the client goes away, as an abort listener on `request.signal` would, but for a
 * {@link nodeRequest} without making its signal (no `AbortController` per request). Returns what stops
 * listening, or `undefined` when the request is aborted already (nothing is registered).
 */
export function onClientGone(request: Request, listener: () => void): (() => void) | undefined {
  const state = stateOf(request);
  if (state === undefined) {
    const { signal } = request;
    if (signal.aborted) return undefined;
    signal.addEventListener('abort', listener, { once: true });
    return () => signal.removeEventListener('abort', listener);
  }
  if (state.aborted) return undefined;
  (state.listeners ??= []).push(listener);
  return () => {
    const index = state.listeners?.indexOf(listener) ?? -1;
    if (index >= 0) state.listeners!.splice(index, 1);
  };
}

/** The outcome of reading a Node request body within a limit (and the ledger's budgets: `refused`). */
export type NodeBody = { bytes: Buffer } | { tooLarge: true } | { refused: LedgerRefusal };

/** Counts a body's bytes read so far (the ledger's `BodyHold`); a refusal stops the reading. */
export type BodyGauge = (bytesSoFar: number) => LedgerRefusal | undefined;

/**
 * Reads the body of a {@link nodeRequest} straight from its Node stream, stopping past `limit` bytes
 * (`tooLarge`) or when `gauge` refuses the bytes so far (`refused`); the rest then flows by discarded, up to
 * `drain` bytes of the body in all. `undefined` for any other request (read it as a web stream), or if it
 * was already taken.
 */
export function takeNodeBody(
  request: Request,
  limit: number,
  gauge?: BodyGauge,
  drain = limit,
): Promise<NodeBody> | undefined {
  const state = stateOf(request);
  if (state === undefined || state.bodyTaken) return undefined;
  state.bodyTaken = true;
  return readIncoming(state.incoming, limit, gauge, drain);
}

/** Node requests whose body is discarded as it comes (refused by the ledger): their connection may stay open. */
const discarding = new WeakSet<IncomingMessage>();

/**
 * Lets the rest of a refused body flow by without keeping a byte, up to `allowance` more bytes (past them the
 * socket is destroyed: a client that keeps sending after its answer has had time to read it). The connection
 * is not closed on it: closing a socket with unread bytes resets it, and the reset would drop the refusal
 * before the client reads it.
 */
function discard(incoming: IncomingMessage, allowance: number): void {
  discarding.add(incoming);
  let left = allowance;
  incoming.on('data', (chunk: Buffer) => {
    left -= chunk.byteLength;
    if (left < 0) incoming.socket?.destroy();
  });
  incoming.resume();
}

/**
 * Discards the unread body of a {@link nodeRequest} refused before reading it (too large, or by the ledger),
 * at most `allowance` bytes of it (nothing for another request).
 */
export function discardNodeBody(request: Request, allowance: number): void {
  const state = stateOf(request);
  if (state === undefined || state.bodyTaken) return;
  state.bodyTaken = true;
  discard(state.incoming, allowance);
}

/** True when `incoming`'s body is being discarded ({@link discardNodeBody}): its answer need not close the connection. */
export function isDiscarding(incoming: IncomingMessage): boolean {
  return discarding.has(incoming);
}

function readIncoming(
  incoming: IncomingMessage,
  limit: number,
  gauge: BodyGauge | undefined,
  drain: number,
): Promise<NodeBody> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = (): void => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.byteLength;
      // Past the limit, or counted past the ledger's budget before it is kept: the buffering stops here and the
      // rest flows by discarded (bounded), so that the answer is not reset away.
      const refused = size > limit ? undefined : gauge?.(size);
      if (size > limit || refused !== undefined) {
        done();
        discard(incoming, Math.max(0, drain - size));
        resolve(refused === undefined ? { tooLarge: true } : { refused });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      done();
      resolve({ bytes: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size) });
    };
    const onError = (error: Error): void => {
      done();
      reject(error);
    };
    const onClose = (): void => {
      done();
      reject(new Error('The client closed the connection before the request body was complete.'));
    };
    if (incoming.readableEnded) {
      resolve({ bytes: Buffer.alloc(0) });
      return;
    }
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}
