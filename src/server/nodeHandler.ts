import type { IncomingMessage, ServerResponse } from 'node:http';
import { JsonRpcCode } from '../errors/WireError.js';
import type { FusionApp } from './createFusionApp.js';
import { jsonRpcErrorResponse } from './httpErrors.js';
import { abortNodeRequest, nodeRequest } from './nodeRequest.js';
import { requestUrl } from './urlPath.js';
import { writeNodeResponse } from './writeNodeResponse.js';

/**
 * Serves one `node:http` request with the app: a {@link nodeRequest} view of it (the body is read once, by
 * the app, straight from the socket), then {@link writeNodeResponse}. The request's signal aborts and an
 * open response body is cancelled when the client goes away first. `req.auth` (set by auth middleware) is
 * passed through as `authInfo`; the socket's remote address as `peer`.
 */
export async function serveNodeRequest(app: Pick<FusionApp, 'fetch'>, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const request = nodeRequest(req, requestUrl(req.headers.host ?? 'localhost', req.url ?? '/'));
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  res.once('close', () => {
    if (!res.writableFinished) abortNodeRequest(request);
    resolveClosed();
  });
  const authInfo = (req as { auth?: unknown }).auth;
  const peer = req.socket.remoteAddress;
  let response: Response;
  try {
    response = await app.fetch(request, { ...(authInfo !== undefined ? { authInfo } : {}), ...(peer !== undefined ? { peer } : {}) });
  } catch {
    response = jsonRpcErrorResponse(500, JsonRpcCode.InternalError, 'Internal server error');
  }
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  try {
    await writeNodeResponse(response, req, res, closed);
  } catch {
    // The answer's body failed before its first byte was read: a 500 if nothing went out yet, else cut.
    if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: JsonRpcCode.InternalError, message: 'Internal server error' }, id: null }));
    else res.destroy();
  }
}
