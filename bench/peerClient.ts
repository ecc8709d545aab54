/**
 * The client side of the peers benchmark: one keep-alive client speaking raw JSON-RPC over node:http
 * (bench/httpPost.ts), in either era, sending a mix of `tools/call` and `tools/list` and checking every answer.
 * A failed request is counted, never thrown, so that one contender's errors do not stop the run.
 */
import type { Agent } from 'node:http';
import { callArgs, ECHO } from './fixtures.js';
import type { Era } from './http.js';
import { post, type Reply } from './httpPost.js';

/** What one contender's clients did in one slice. */
export interface Tally {
  /** Requests answered as expected. */
  ok: number;
  /** Requests that failed: transport error, HTTP status other than 200, or a wrong answer. */
  errors: number;
  /** The first failure, for the report. */
  firstError?: string;
}

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'bench', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};

/** The JSON-RPC answer to request `id` in a reply (JSON body or SSE stream). */
const answerOf = (reply: Reply, id: number): any => reply.messages.find((m) => m.id === id);

/**
 * Opens one client (a legacy session: initialize, initialized; or nothing on the modern era) and returns its
 * step (`port`: one server, or the instances to take turns over): the next request of the mix, every `listEvery`-th a `tools/list` (of all `n` tools, following
 * `nextCursor` if the server pages), the others a `tools/call` of the echo tool. `agent()` is the connection
 * pool of the moment (a fresh one per slice). Throws only when the session cannot be opened.
 */
export async function openMixClient(
  agent: () => Agent,
  port: number | readonly number[],
  era: Era,
  n: number,
  listEvery: number,
  tally: () => Tally,
): Promise<() => Promise<void>> {
  // Several instances (a list of ports): each request goes to the next, as a load balancer without affinity.
  const ports = typeof port === 'number' ? [port] : port;
  let turn = Math.floor(Math.random() * ports.length);
  const next = (): number => ports[turn++ % ports.length]!;
  let headers: Record<string, string> = { 'mcp-protocol-version': '2026-07-28' };
  if (era === 'legacy') {
    const init = await post(
      agent(),
      next(),
      {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } },
      },
      {},
    );
    const result = answerOf(init, 0)?.result;
    if (init.status !== 200 || result === undefined)
      throw new Error(`initialize failed: HTTP ${init.status} ${JSON.stringify(init.messages).slice(0, 200)}`);
    const sid = init.headers['mcp-session-id'];
    headers = {
      'mcp-protocol-version': String(result.protocolVersion),
      ...(typeof sid === 'string' ? { 'mcp-session-id': sid } : {}),
    };
    await post(agent(), next(), { jsonrpc: '2.0', method: 'notifications/initialized' }, headers);
  }
  const meta = era === 'modern' ? { _meta: ENVELOPE } : {};
  const callHeaders =
    era === 'modern' ? { ...headers, 'mcp-method': 'tools/call', 'mcp-name': callArgs.name } : headers;
  const listHeaders = era === 'modern' ? { ...headers, 'mcp-method': 'tools/list' } : headers;
  let id = 0;
  let sent = 0;
  const call = async (): Promise<string | undefined> => {
    const reply = await post(
      agent(),
      next(),
      { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { ...callArgs, ...meta } },
      callHeaders,
    );
    if (reply.status === 200 && answerOf(reply, id)?.result?.content?.[0]?.text === ECHO) return undefined;
    return `tools/call: HTTP ${reply.status} ${JSON.stringify(reply.messages).slice(0, 200)}`;
  };
  const list = async (): Promise<string | undefined> => {
    let count = 0;
    let cursor: string | undefined;
    do {
      const params = { ...meta, ...(cursor === undefined ? {} : { cursor }) };
      const reply = await post(
        agent(),
        next(),
        { jsonrpc: '2.0', id: ++id, method: 'tools/list', params },
        listHeaders,
      );
      const result = answerOf(reply, id)?.result;
      if (reply.status !== 200 || !Array.isArray(result?.tools))
        return `tools/list: HTTP ${reply.status} ${JSON.stringify(reply.messages).slice(0, 200)}`;
      count += result.tools.length;
      cursor = typeof result.nextCursor === 'string' ? result.nextCursor : undefined;
    } while (cursor !== undefined);
    return count === n ? undefined : `tools/list: ${count} tools instead of ${n}`;
  };
  return async () => {
    const t = tally();
    let failure: string | undefined;
    try {
      failure = ++sent % listEvery === 0 ? await list() : await call();
    } catch (e) {
      failure = `${sent % listEvery === 0 ? 'tools/list' : 'tools/call'}: ${(e as Error).message}`;
    }
    if (failure === undefined) t.ok++;
    else {
      t.errors++;
      t.firstError ??= failure;
    }
  };
}
