import { randomUUID } from 'node:crypto';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/server';

/**
 * Session-bus control message (never sent to a client): a client's answer to a server→client request
 * (`elicitation/create`, `sampling/createMessage`, `roots/list`) that was POSTed to an instance that did not
 * send the request. `params.message` is the answer as the client sent it; the instance that sent the request
 * hands it to its waiting call.
 */
export const CLIENT_ANSWER = 'fusion/client-answer';

/**
 * Session-bus control message: a server→client request bound for the session's GET stream, which another
 * instance may hold; `params.message` is the request, `params.key` its identity (stored once).
 */
export const CLIENT_REQUEST = 'fusion/client-request';

/** The session-bus message carrying a request to whichever instance holds the session's GET stream. */
export function requestOnBus(request: JSONRPCMessage): { method: string; params: Record<string, unknown> } {
  return { method: CLIENT_REQUEST, params: { message: request, key: randomUUID() } };
}

/** The session-bus message carrying a client's answer to the instance that sent its request. */
export function answerOnBus(answer: JSONRPCMessage): { method: string; params: Record<string, unknown> } {
  return { method: CLIENT_ANSWER, params: { message: answer } };
}

/**
 * The ids of one legacy session's server→client requests on one instance. The SDK numbers its requests
 * from 0 in every server, so two instances serving one session would send the same ids, and a client's
 * answer could not tell them apart: each request leaves with an id of its own (`s-<random>-<n>`), and the
 * answer comes back with the SDK's id again. An answer whose id this instance did not send belongs to
 * another instance (or to no request).
 */
export class ServerRequestIds {
  readonly #prefix = `s-${randomUUID().slice(0, 8)}-`;
  #next = 0;
  /** The SDK's id of each request waiting for its answer, by the id it left with. */
  readonly #sdkIds = new Map<string, RequestId>();
  /** The id each waiting request left with, by the SDK's id (to name it in a cancel). */
  readonly #wireIds = new Map<RequestId, string>();

  /** True when `message` is a client's answer: a response (result or error) to a request, not a request. */
  static isAnswer(message: unknown): message is JSONRPCMessage & { id: RequestId } {
    if (typeof message !== 'object' || message === null || 'method' in message) return false;
    const id = (message as { id?: unknown }).id;
    return (typeof id === 'string' || typeof id === 'number') && ('result' in message || 'error' in message);
  }

  /** The message as it leaves: a request with an id of its own; a cancel of one naming that id. */
  outgoing(message: JSONRPCMessage): JSONRPCMessage {
    if (!('method' in message)) return message;
    if ('id' in message) {
      const wire = `${this.#prefix}${++this.#next}`;
      this.#sdkIds.set(wire, message.id);
      this.#wireIds.set(message.id, wire);
      return { ...message, id: wire };
    }
    const requestId = (message.params as { requestId?: RequestId } | undefined)?.requestId;
    const wire =
      message.method === 'notifications/cancelled' && requestId !== undefined
        ? this.#wireIds.get(requestId)
        : undefined;
    if (wire === undefined) return message;
    this.#forget(wire);
    return { ...message, params: { ...message.params, requestId: wire } };
  }

  /** A client's answer with the SDK's id again, or `undefined` when it answers no request sent here. */
  incoming(answer: JSONRPCMessage & { id: RequestId }): JSONRPCMessage | undefined {
    const sdkId = typeof answer.id === 'string' ? this.#sdkIds.get(answer.id) : undefined;
    if (sdkId === undefined) return undefined;
    this.#forget(answer.id as string);
    return { ...answer, id: sdkId } as JSONRPCMessage;
  }

  /** Requests waiting for their answer. */
  get waiting(): number {
    return this.#sdkIds.size;
  }

  #forget(wire: string): void {
    const sdkId = this.#sdkIds.get(wire);
    this.#sdkIds.delete(wire);
    if (sdkId !== undefined) this.#wireIds.delete(sdkId);
  }
}
