import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  PROTOCOL_VERSION_META_KEY,
  ProtocolError,
} from '@modelcontextprotocol/client';
import type { TaskChannel } from './taskChannel.js';
import { TaskHelperError } from './taskErrors.js';
import { isObject } from './taskSnapshot.js';

const MODERN = '2026-07-28';
const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The request field each method's `Mcp-Name` header repeats (SEP-2243). */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** Options of {@link modernTaskEndpoint}. */
export interface ModernTaskEndpointOptions {
  /** Sends a request: `fetch` by default; `(request) => app.fetch(request)` (`createFusionApp`) stays in process. */
  fetch?: (request: Request) => Promise<Response>;
  /** Headers added to every request (`Authorization: Bearer …` behind authentication). */
  headers?: Readonly<Record<string, string>>;
  /** The `clientInfo` of the request envelope. */
  clientInfo?: { name: string; version: string };
}

/**
 * A 2026-07-28 {@link TaskChannel} to an HTTP endpoint (`srv.url`), for the task helpers. The SDK v2 `Client`
 * cannot read the Tasks extension's results, so each request is one JSON-RPC POST with what the revision
 * needs: the `Mcp-Protocol-Version`, `Mcp-Method` and `Mcp-Name` headers, and a `_meta` envelope whose client
 * capabilities declare the `io.modelcontextprotocol/tasks` extension. JSON and SSE answers are read alike.
 * @example
 * const tasks = modernTaskEndpoint(srv.url);
 * const task = await callToolAsTask(tasks, 'reports.generate', { sprint_id: 'S1' });
 * @see docs/tasks.md
 */
export function modernTaskEndpoint(url: string | URL, options: ModernTaskEndpointOptions = {}): TaskChannel {
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const clientInfo = options.clientInfo ?? { name: 'mcp-fusion-test', version: '1.0.0' };
  let lastId = 0;
  return {
    era: 'modern',
    async request(method, params) {
      const id = `task-${++lastId}`;
      const _meta = {
        ...(params._meta as Record<string, unknown> | undefined),
        [PROTOCOL_VERSION_META_KEY]: MODERN,
        [CLIENT_INFO_META_KEY]: clientInfo,
        [CLIENT_CAPABILITIES_META_KEY]: { extensions: { [TASKS_EXTENSION]: {} } },
      };
      const field = NAME_FIELD[method];
      const name = field === undefined ? undefined : params[field];
      const response = await send(
        new Request(url, {
          method: 'POST',
          headers: {
            // fetch sets Host itself; an app's fetch (in process) reads it from here.
            host: new URL(url).host,
            ...options.headers,
            'content-type': 'application/json',
            accept: 'application/json, text/event-stream',
            'mcp-protocol-version': MODERN,
            'mcp-method': method,
            ...(typeof name === 'string' ? { 'mcp-name': headerValue(name) } : {}),
          },
          body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta } }),
        }),
      );
      const answer = await readAnswer(response, id, method);
      if (isObject(answer.error)) {
        const { code, message, data } = answer.error as { code: number; message: string; data?: unknown };
        throw ProtocolError.fromError(code, message, data);
      }
      if (!isObject(answer.result)) throw unreadable(method, response.status, JSON.stringify(answer));
      return answer.result;
    },
  };
}

/** The JSON-RPC answer with id `id`, from a JSON body or an SSE stream. */
async function readAnswer(response: Response, id: string, method: string): Promise<Record<string, unknown>> {
  const text = await response.text();
  const sse = (response.headers.get('content-type') ?? '').includes('text/event-stream');
  const messages = sse ? sseMessages(text) : [parse(text)];
  const answer = messages.find((m) => isObject(m) && m.id === id);
  if (!isObject(answer)) throw unreadable(method, response.status, text);
  return answer;
}

/** The JSON payloads of the `data:` lines of each SSE event. */
function sseMessages(text: string): unknown[] {
  return text.split(/\r?\n\r?\n/).map((event) =>
    parse(
      event
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n'),
    ),
  );
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function unreadable(method: string, status: number, body: string): TaskHelperError {
  return new TaskHelperError(
    'TASK_ENDPOINT_ANSWER',
    `${method}: the endpoint answered HTTP ${status} with no answer to this request (${body.slice(0, 200)}); check the URL (the MCP endpoint, …/mcp) and the headers it needs.`,
    { method, status },
  );
}

/** A header value as SEP-2243 encodes it: plain printable ASCII as is, anything else `=?base64?…?=`. */
function headerValue(value: string): string {
  const plain =
    value.length > 0 &&
    value === value.trim() &&
    /^[\x20-\x7e\t]*$/.test(value) &&
    !(value.startsWith('=?base64?') && value.endsWith('?='));
  if (plain) return value;
  let binary = '';
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}
