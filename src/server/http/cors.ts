/** Request headers an MCP client sends, allowed on a CORS preflight (plus any `Mcp-Param-*` header). */
const ALLOWED_HEADERS = [
  'content-type',
  'accept',
  'authorization',
  'mcp-session-id',
  'mcp-protocol-version',
  'last-event-id',
  'mcp-method',
  'mcp-name',
];
/** Response headers a browser client must be able to read. */
const EXPOSED_HEADERS = 'Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate, Retry-After';

/**
 * The answer to a CORS preflight (`OPTIONS`) from an allowed origin: `204` allowing the MCP methods and
 * request headers. Requested headers outside the MCP set are not echoed, so the browser refuses them.
 */
export function preflightResponse(request: Request): Response {
  const requested = (request.headers.get('access-control-request-headers') ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter((h) => h !== '' && (ALLOWED_HEADERS.includes(h) || /^mcp-param-[a-z0-9-]+$/.test(h)));
  const allow = [...new Set([...ALLOWED_HEADERS, ...requested])].join(', ');
  return new Response(null, {
    status: 204,
    headers: {
      ...corsHeaders(request),
      'Access-Control-Allow-Methods': 'POST, GET, DELETE, OPTIONS',
      'Access-Control-Allow-Headers': allow,
      'Access-Control-Max-Age': '600',
    },
  });
}

/** CORS headers for a response to a browser request (one with `Origin`, already checked against the allowed origins). */
export function corsHeaders(request: Request): Record<string, string> {
  const origin = request.headers.get('origin');
  if (origin === null) return {};
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': EXPOSED_HEADERS, Vary: 'Origin' };
}

/** `response` with the CORS headers of `request` added (a new Response when its headers are immutable). */
export function withCors(request: Request, response: Response): Response {
  const cors = corsHeaders(request);
  if (Object.keys(cors).length === 0) return response;
  try {
    for (const [k, v] of Object.entries(cors)) response.headers.set(k, v);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    for (const [k, v] of Object.entries(cors)) headers.set(k, v);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
