// Generated HTTP requests for the equivalence suite: valid and malformed, both eras.
import fc from 'fast-check';

export const MODERN = '2026-07-28';
export const LEGACY = '2025-11-25';

/** Which session id a request carries: the live one, one never issued, or none. */
export type SessionChoice = 'live' | 'unknown' | 'none';

/** One generated request, before the live session id is known. */
export interface Case {
  readonly httpMethod: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly session: SessionChoice;
  /** The body text (absent for GET and DELETE). */
  readonly body: string | undefined;
}

export const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': MODERN,
  'io.modelcontextprotocol/clientInfo': { name: 'equivalence', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

const METHODS = [
  ...Array<string>(5).fill('tools/call'),
  ...Array<string>(3).fill('tools/list'),
  'ping',
  'ping',
  'initialize',
  'server/discover',
  'prompts/list',
  'resources/list',
  'resources/read',
  'completion/complete',
  'logging/setLevel',
  'no/such/method',
  'notifications/initialized',
  'notifications/cancelled',
  'tasks/get',
];

const id = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 0, max: 1000 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 6 }) },
);
const badId = fc.constantFrom<unknown>(null, 1.5, true, {}, [], 2 ** 60);

const toolName = fc.oneof(
  { weight: 6, arbitrary: fc.constant('echo.say') },
  fc.constantFrom('no.such', '', 'echo.say '.repeat(3), 'x'.repeat(300)),
);
const args = fc.oneof(
  { weight: 8, arbitrary: fc.record({ text: fc.string({ maxLength: 12 }) }) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>({}, { text: 7 }, [], 'x', null, { text: 'a', extra: 1 }) },
  // An oversize field: far past every name and envelope bound, within the body limit.
  { weight: 1, arbitrary: fc.constant({ text: 'x'.repeat(70_000) }) },
);

/** A `_meta` beside the era's own: a progress token, a trace key, a partial or malformed envelope. */
const extraMeta = fc.oneof(
  fc.record(
    {
      'io.modelcontextprotocol/protocolVersion': fc.constantFrom<unknown>(MODERN, LEGACY, 'next', 7),
      'io.modelcontextprotocol/clientInfo': fc.constantFrom<unknown>({ name: 'a', version: '1' }, {}, 'x'),
      'io.modelcontextprotocol/clientCapabilities': fc.constantFrom<unknown>({}, [], null),
      'io.modelcontextprotocol/logLevel': fc.constantFrom<unknown>('debug', 'loud'),
      progressToken: fc.constantFrom<unknown>('p', 3, 1.5, null),
      traceparent: fc.constant('00-1-2-01'),
    },
    { requiredKeys: [] },
  ),
  fc.constantFrom<unknown>({ progressToken: 'p' }, { progressToken: 4 }, [], 'meta', null),
);

/** Params fit for the method (a tool call's name and arguments, an uri, a task id, none). */
function paramsFor(method: string, p: { name: string; args: unknown }): Record<string, unknown> | undefined {
  switch (method) {
    case 'tools/call':
      return { name: p.name, arguments: p.args };
    case 'resources/read':
      return { uri: 'fusion://x' };
    case 'tasks/get':
      return { taskId: 't1' };
    case 'initialize':
      return { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'eq', version: '1' } };
    case 'logging/setLevel':
      return { level: 'debug' };
    case 'notifications/cancelled':
      return { requestId: 1 };
    default:
      return p.args === null ? undefined : {};
  }
}

const MESSAGE_FAULTS = ['none', 'jsonrpc', 'id', 'noId', 'extraKey', 'params', 'meta', 'initialize'] as const;

/** One JSON-RPC message: well formed (mostly), or wrong in one place. */
export const message = fc
  .record({
    method: fc.constantFrom(...METHODS),
    id,
    badId,
    name: toolName,
    args,
    fault: fc.oneof({ weight: 14, arbitrary: fc.constant('none' as const) }, fc.constantFrom(...MESSAGE_FAULTS)),
    jsonrpc: fc.constantFrom<unknown>('1.0', undefined, 2),
    extraKey: fc.constantFrom('result', 'error', 'foo'),
    badParams: fc.constantFrom<unknown>('params', [], null, 3),
    meta: extraMeta,
    initialize: fc.constantFrom<unknown>({ protocolVersion: LEGACY, capabilities: {} }, {}, { protocolVersion: 7 }),
  })
  .map((m) => {
    const out: Record<string, unknown> = { jsonrpc: '2.0' };
    if (m.fault === 'jsonrpc') {
      if (m.jsonrpc === undefined) delete out.jsonrpc;
      else out.jsonrpc = m.jsonrpc;
    }
    const notification = m.method.startsWith('notifications/');
    if (notification === (m.fault === 'noId')) out.id = m.fault === 'id' ? m.badId : m.id;
    out.method = m.method;
    const params = paramsFor(m.method, m);
    if (params !== undefined) out.params = params;
    if (m.fault === 'params') out.params = m.badParams;
    if (m.fault === 'meta') out.params = { ...params, _meta: m.meta };
    if (m.fault === 'initialize' && m.method === 'initialize') out.params = m.initialize;
    if (m.fault === 'extraKey') out[m.extraKey] = 1;
    return out;
  });

/** One thing wrong, or nothing (most often): what a malformed request gets wrong. */
const FAULTS = [
  'none',
  'none',
  'none',
  'none',
  'none',
  'accept',
  'contentType',
  'session',
  'version',
  'mcpMethod',
  'mcpName',
  'httpMethod',
] as const;

/**
 * A request shaped for an era (legacy: a live session, no envelope; modern: the standard headers and the
 * envelope, no session), or a free mix of both, with at most one header gone wrong: most cases reach the
 * fast paths, the rest probe each refusal on its own.
 */
export const requestCase: fc.Arbitrary<Case> = fc
  .record({
    era: fc.constantFrom('legacy', 'legacy', 'modern', 'modern', 'mixed'),
    fault: fc.constantFrom(...FAULTS),
    message,
    batch: fc.array(message, { maxLength: 3 }),
    shape: fc.nat(19),
    odd: fc.constantFrom('{', 'null', '42', '"x"', '{"jsonrpc":"2.0"}', '', 'not json'),
    httpMethod: fc.constantFrom('GET', 'DELETE'),
    accept: fc.constantFrom(undefined, 'application/json', 'text/event-stream', '*/*', 'text/html'),
    contentType: fc.constantFrom('application/json; charset=utf-8', 'text/plain', undefined),
    session: fc.constantFrom<SessionChoice>('live', 'unknown', 'none'),
    version: fc.constantFrom(undefined, LEGACY, MODERN, '2025-06-18', '2024-11-05', 'next'),
    legacyVersion: fc.constantFrom(LEGACY, LEGACY, '2025-06-18', undefined),
  })
  .map((c) => {
    const modern = c.era === 'modern' || (c.era === 'mixed' && c.shape % 2 === 0);
    const m = { ...c.message };
    if (c.era === 'modern' && !('params' in m)) m.params = {};
    // The envelope on modern (with the message's own _meta keys over it at times), none added on legacy.
    if (c.era === 'modern' && typeof m.params === 'object' && m.params !== null && !Array.isArray(m.params)) {
      const params = { ...(m.params as Record<string, unknown>) };
      params._meta = { ...ENVELOPE, ...(c.shape >= 14 ? (params._meta as object) : {}) };
      m.params = params;
    }
    const bodyText = c.shape === 19 ? c.odd : c.shape === 18 ? JSON.stringify(c.batch) : JSON.stringify(m);
    const fault = c.fault;
    const headers: Record<string, string> = { host: '127.0.0.1' };
    const accept = fault === 'accept' ? c.accept : 'application/json, text/event-stream';
    if (accept !== undefined) headers.accept = accept;
    const version = fault === 'version' ? c.version : modern ? MODERN : c.legacyVersion;
    if (version !== undefined) headers['mcp-protocol-version'] = version;
    const session: SessionChoice = fault === 'session' ? c.session : modern ? 'none' : 'live';
    if (fault === 'httpMethod') return { httpMethod: c.httpMethod, headers, session, body: undefined };
    const contentType = fault === 'contentType' ? c.contentType : 'application/json';
    if (contentType !== undefined) headers['content-type'] = contentType;
    const method = typeof m.method === 'string' ? m.method : undefined;
    if (modern !== (fault === 'mcpMethod') && method !== undefined) headers['mcp-method'] = method;
    if (fault === 'mcpMethod' && modern) headers['mcp-method'] = c.shape % 3 === 0 ? 'tools/list' : method + 'x';
    const params = m.params as Record<string, unknown> | undefined;
    const name = typeof params === 'object' && params !== null ? (params.name ?? params.uri) : undefined;
    if (modern !== (fault === 'mcpName') && typeof name === 'string') headers['mcp-name'] = name;
    if (fault === 'mcpName' && modern && typeof name === 'string') {
      headers['mcp-name'] =
        c.shape % 2 === 0
          ? `=?base64?${Buffer.from(name).toString('base64')}?=`
          : c.shape % 3 === 0
            ? ''
            : 'other.tool';
    }
    return { httpMethod: 'POST', headers, session, body: bodyText };
  });

/** The request of `c` on a server whose live session is `live`. */
export function requestOf(c: Case, live: string | undefined): Request {
  const headers = { ...c.headers };
  if (c.session === 'live' && live !== undefined) headers['mcp-session-id'] = live;
  if (c.session === 'unknown') headers['mcp-session-id'] = '00000000-0000-4000-8000-000000000000';
  const init: RequestInit = { method: c.httpMethod, headers };
  if (c.body !== undefined) init.body = c.body;
  return new Request('http://127.0.0.1/mcp', init);
}
