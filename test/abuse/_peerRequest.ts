import { Agent, request, type IncomingMessage } from 'node:http';

/** One keep-alive agent per local source address: 127.0.0.2, 127.0.0.3 … are distinct peers on Linux. */
const agents = new Map<string, Agent>();
const agentFor = (peer: string): Agent => {
  let agent = agents.get(peer);
  if (agent === undefined)
    agents.set(peer, (agent = new Agent({ keepAlive: true, localAddress: peer, maxSockets: 64 })));
  return agent;
};

/** Ends every agent's idle sockets (after a test). */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** A POST's answer: status, headers, the whole body, and the time to the last byte. */
export interface PeerAnswer {
  readonly status: number;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
  readonly ms: number;
}

const jsonHeaders = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** POSTs `body` (JSON, or a prepared string) to `url` from the source address `peer` and reads the whole answer. */
export function postFrom(
  peer: string,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<PeerAnswer> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: agentFor(peer), headers: { ...jsonHeaders, ...headers } },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => void (text += c.toString('utf8')));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text, ms: performance.now() - t0 }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(typeof body === 'string' ? body : JSON.stringify(body));
  });
}

/**
 * POSTs `body` from `peer` on a connection of its own and resolves with the response as soon as its headers
 * arrive, the body left open (a stream): the caller ends it with `res.destroy()`.
 */
export function openFrom(
  peer: string,
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent: false, localAddress: peer, headers: { ...jsonHeaders, ...headers } },
      resolve,
    );
    req.on('error', reject);
    req.end(body);
  });
}

const MODERN_META = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
  'io.modelcontextprotocol/clientInfo': { name: 'abuse', version: '1' },
};

/** A 2026-07-28 request: its headers and its body (with the `_meta` envelope). */
export function modernRequest(
  method: string,
  params: Record<string, unknown> = {},
  id = 1,
): { headers: Record<string, string>; body: string } {
  return {
    headers: { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: MODERN_META } }),
  };
}

/**
 * Calls `probe` every `everyMs` until `stop()` is called; resolves every probe's time (ms), status and, given
 * `progress` (how many requests the abusive peers have had answered so far), `during`: how many of those were
 * answered while the probe waited.
 */
export function probeEvery(
  everyMs: number,
  probe: () => Promise<PeerAnswer>,
  progress: () => number = () => 0,
): { stop: () => Promise<Array<{ ms: number; status: number; during: number }>> } {
  const seen: Array<{ ms: number; status: number; during: number }> = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const before = progress();
      const answer = await probe().catch(() => ({ ms: Number.POSITIVE_INFINITY, status: 0 }));
      seen.push({ ms: answer.ms, status: answer.status, during: progress() - before });
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return seen;
    },
  };
}
