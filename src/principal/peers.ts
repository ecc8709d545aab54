/**
 * The network peer of an HTTP request, as the app's HTTP entry resolved it (`peerKey`: the socket's address,
 * or the forwarded one behind a trusted proxy; never a header an untrusted client set). The app records it
 * for each request it serves; the anonymous principal of the request is keyed by it.
 */
const peers = new WeakMap<object, string>();

/** Records the peer key of `request` (called by the HTTP entry before the request is served); `undefined` clears it. */
export function rememberPeer(request: Request, peer: string | undefined): void {
  if (typeof peer === 'string' && peer.length > 0) peers.set(request, peer);
  else peers.delete(request);
}

/** The peer key recorded for `request` (a `Request`, or an SDK handler context carrying `http.req`). */
export function peerOf(requestOrContext: unknown): string | undefined {
  if (typeof requestOrContext !== 'object' || requestOrContext === null) return undefined;
  const direct = peers.get(requestOrContext);
  if (direct !== undefined) return direct;
  const req =
    (requestOrContext as { http?: { req?: unknown }; requestInfo?: unknown }).http?.req ??
    (requestOrContext as { requestInfo?: unknown }).requestInfo;
  return typeof req === 'object' && req !== null ? peers.get(req) : undefined;
}
