import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FusionApp } from './FusionApp.js';
import { httpError, writeHttpError } from '../http/httpErrors.js';
import { abortNodeRequest, nodeRequest } from '../node/nodeRequest.js';
import { requestUrl } from '../http/urlPath.js';
import { writeNodeResponse } from '../node/writeNodeResponse.js';

/** What Express and similar frameworks add to a Node request. */
interface FrameworkRequest {
  /** Express: the URL before a mount path was cut off (`app.use('/mcp', …)`). */
  originalUrl?: string;
  /** A body parsed by a middleware (`express.json()`). */
  body?: unknown;
  /** A verified token set by an auth middleware. */
  auth?: unknown;
}

/**
 * Serves one `node:http` request with the app (`app.node`): a {@link nodeRequest} view of it (the body is
 * read once, by the app, straight from the socket, unless `parsedBody` or, once the stream was read,
 * `req.body` holds it parsed), then {@link writeNodeResponse}. The request's signal aborts and an open response body is
 * cancelled when the client goes away first. `req.auth` (set by auth middleware) is passed through as
 * `authInfo`; the socket's remote address as `peer`.
 */
export async function serveNodeRequest(
  app: Pick<FusionApp, 'fetch'>,
  req: IncomingMessage,
  res: ServerResponse,
  parsedBody?: unknown,
): Promise<void> {
  const framework = req as IncomingMessage & FrameworkRequest;
  const target = framework.originalUrl ?? req.url ?? '/';
  const request = nodeRequest(req, requestUrl(req.headers.host ?? 'localhost', target));
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  res.once('close', () => {
    if (!res.writableFinished) abortNodeRequest(request);
    resolveClosed();
  });
  const authInfo = framework.auth;
  const peer = req.socket.remoteAddress;
  const body = parsedBody ?? (req.readableEnded ? framework.body : undefined);
  let response: Response;
  try {
    response = await app.fetch(request, {
      ...(authInfo !== undefined ? { authInfo } : {}),
      ...(peer !== undefined ? { peer } : {}),
      ...(body !== undefined ? { parsedBody: body } : {}),
    });
  } catch {
    response = httpError('internal', 'Internal server error');
  }
  if (res.destroyed) {
    await response.body?.cancel().catch(() => {});
    return;
  }
  try {
    await writeNodeResponse(response, req, res, closed);
  } catch {
    // The answer's body failed before its first byte was read: a 500 if nothing went out yet, else cut.
    if (!res.headersSent) writeHttpError(res, 'internal', 'Internal server error');
    else res.destroy();
  }
}
