/** One request as it passes the HTTP front: the request, who sent it, and what the middlewares learnt. */
export interface FrontContext {
  readonly request: Request;
  /** The remote address of the connection, when the host knows it (`startServer` and `.node` pass the socket's). */
  readonly peer: string | undefined;
  /**
   * Who the network peer is (`peerKey`: the socket's IPv4 address or IPv6 prefix, or the forwarded address
   * behind a trusted proxy): the key of an anonymous principal and of every per-peer budget.
   */
  readonly peerKey: string | undefined;
  /** The caller's verified token: the host's (`fetch` option), replaced by `authenticate`'s when auth is on. */
  authInfo: unknown;
  /** The JSON body of a POST: parsed by `jsonBody`, or already parsed by the host (`parsedBody`). */
  body: unknown;
}

/** An answer, now or later. */
export type Answer = Response | Promise<Response>;

/** The rest of the chain after a middleware (the eras at its end). */
export type Next = (c: FrontContext) => Answer;

/**
 * One concern of the HTTP front, in Hono's shape: answer the request itself (a refusal, a document) or
 * pass it on with `next(c)`, and maybe change the answer that comes back.
 */
export type HttpMiddleware = (c: FrontContext, next: Next) => Answer;
