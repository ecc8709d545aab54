import { factsOf, requestAttributes, type AttributeMap } from './requestAttributes.js';

/** What the span of a request refused at the HTTP front says. */
export interface RefusedRequest {
  readonly name: string;
  readonly span: AttributeMap;
  /** The operation metric's attributes; undefined when the MCP method is unknown (a body never read). */
  readonly metric: AttributeMap | undefined;
  /** `error.type`: the OAuth error code of the challenge (`invalid_token`, `insufficient_scope`), else the HTTP status. */
  readonly errorType: string;
  /** The caller's `params._meta`, for its trace context. */
  readonly meta: unknown;
}

const HTTP_STATUS = 'http.response.status_code';

/**
 * Names and attributes the span of a request the HTTP front answered itself (401 without a valid token,
 * 403 scope challenge): after the MCP request when the body was read or the 2026-07-28 `Mcp-Method` and
 * `Mcp-Name` headers name it, else `unauthenticated` (a 401 is answered before the body is read) or `refused`.
 */
export function refusedRequest(request: Request, body: unknown, response: Response): RefusedRequest {
  const message = firstRequest(body);
  const method = message?.method ?? request.headers.get('mcp-method') ?? undefined;
  const params = message?.params ?? nameParams(request.headers.get('mcp-name'));
  const errorType =
    /error="([^"]+)"/.exec(response.headers.get('www-authenticate') ?? '')?.[1] ?? String(response.status);
  if (method === undefined) {
    return {
      name: response.status === 401 ? 'unauthenticated' : 'refused',
      span: { [HTTP_STATUS]: response.status },
      metric: undefined,
      errorType,
      meta: undefined,
    };
  }
  const ctx = {
    sessionId: request.headers.get('mcp-session-id') ?? undefined,
    mcpReq: { id: message?.id, envelope: params?._meta },
    http: { req: request },
  };
  const { name, span, metric } = requestAttributes(
    method,
    params,
    factsOf(ctx, () => request.headers.get('mcp-protocol-version') ?? undefined),
  );
  span[HTTP_STATUS] = response.status;
  return { name, span, metric, errorType, meta: params?._meta };
}

function firstRequest(
  body: unknown,
): { method: string; params: Record<string, unknown> | undefined; id: unknown } | undefined {
  for (const message of Array.isArray(body) ? body : [body]) {
    const m = message as { method?: unknown; params?: unknown; id?: unknown } | null;
    if (typeof m?.method === 'string' && m.id !== undefined)
      return {
        method: m.method,
        params: typeof m.params === 'object' && m.params !== null ? (m.params as Record<string, unknown>) : undefined,
        id: m.id,
      };
  }
  return undefined;
}

function nameParams(name: string | null): Record<string, unknown> | undefined {
  return name === null ? undefined : { name };
}
