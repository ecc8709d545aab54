// What a response means to a client, reduced to what both servers must agree on.

/** A JSON-RPC message as the equivalence suite compares it. */
export type Message = Record<string, unknown>;

/** The outcome of one request: status, body kind, session issued, and the JSON-RPC messages. */
export interface Outcome {
  readonly status: number;
  /** `json`, `sse` or `none` (an empty body): the stream kind, not the exact header. */
  readonly body: 'json' | 'sse' | 'none' | 'other';
  readonly sessionIssued: boolean;
  readonly messages: readonly Message[];
}

/** Reads the outcome; an open SSE stream (a standalone GET) is cancelled after its head. */
export async function outcomeOf(response: Response, method: string): Promise<Outcome> {
  const type = response.headers.get('content-type') ?? '';
  const sessionIssued = response.headers.get('mcp-session-id') !== null;
  if (method === 'GET' && response.ok) {
    await response.body?.cancel();
    return {
      status: response.status,
      body: type.includes('text/event-stream') ? 'sse' : 'other',
      sessionIssued,
      messages: [],
    };
  }
  const text = await response.text();
  if (text === '') return { status: response.status, body: 'none', sessionIssued, messages: [] };
  if (type.includes('text/event-stream')) {
    const messages = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim())
      .filter((data) => data !== '')
      .map((data) => JSON.parse(data) as Message);
    return { status: response.status, body: 'sse', sessionIssued, messages };
  }
  if (type.includes('application/json'))
    return { status: response.status, body: 'json', sessionIssued, messages: [JSON.parse(text) as Message].flat() };
  return { status: response.status, body: 'other', sessionIssued, messages: [{ text }] };
}
