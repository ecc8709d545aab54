import type { SessionRecord } from '../../session/types.js';

/** A transport that serves web requests with a parsed body (a session's). */
interface Served {
  handleRequest(request: Request, options: { parsedBody: unknown }): Promise<Response>;
}

const HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/**
 * Brings a fresh session transport (and the server connected to it) to where the stored session was: its
 * `initialize` and `notifications/initialized` replayed from the record, their answers read and dropped.
 */
export async function replayHandshake(
  transport: Served,
  id: string,
  url: string,
  record: SessionRecord,
): Promise<void> {
  const init = {
    jsonrpc: '2.0',
    id: `restore-${id}`,
    method: 'initialize',
    params: {
      protocolVersion: record.protocolVersion,
      capabilities: record.clientCapabilities,
      clientInfo: record.clientInfo,
    },
  };
  await (
    await transport.handleRequest(new Request(url, { method: 'POST', headers: HEADERS, body: JSON.stringify(init) }), {
      parsedBody: init,
    })
  ).text();
  const done = { jsonrpc: '2.0', method: 'notifications/initialized' };
  const headers = { ...HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': record.protocolVersion };
  await (
    await transport.handleRequest(new Request(url, { method: 'POST', headers, body: JSON.stringify(done) }), {
      parsedBody: done,
    })
  ).text();
}
