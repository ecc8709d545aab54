import type { JSONRPCMessage } from '@modelcontextprotocol/server';

const encoder = new TextEncoder();
/** Answers whose body is complete when made (nothing more will be written to them). */
const complete = new WeakSet<Response>();

/** True for an answer made complete by {@link jsonAnswer}: its call has ended, it has no stream to watch. */
export function isCompleteAnswer(response: Response): boolean {
  return complete.has(response);
}

/**
 * The one-piece answer of a legacy POST: one JSON-RPC message as `application/json` with its `Content-Length`
 * (no stream). Every JSON answer of the session transport is made here, so the HTTP entry can swap it for a
 * lighter one.
 */
export function jsonAnswer(message: JSONRPCMessage, sessionId: string): Response {
  const body = encoder.encode(JSON.stringify(message));
  const response = new Response(body, {
    status: 200,
    headers: {
      'content-type': 'application/json',
      'content-length': String(body.byteLength),
      'mcp-session-id': sessionId,
    },
  });
  complete.add(response);
  return response;
}

/** The SSE answer of a legacy POST or resumed stream (the SDK transport's headers, byte for byte). */
export function sseAnswer(body: ReadableStream<Uint8Array>, sessionId: string): Response {
  return new Response(body, {
    status: 200,
    headers: {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache, no-transform',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
      'mcp-session-id': sessionId,
    },
  });
}

/** One SSE message event, as the SDK transport writes it (`event: message`, the id when stored). */
export function messageFrame(message: JSONRPCMessage | object, eventId: string | undefined): Uint8Array {
  const id = eventId === undefined ? '' : `id: ${eventId}\n`;
  return encoder.encode(`event: message\n${id}data: ${JSON.stringify(message)}\n\n`);
}

/** Bytes of a text frame (a priming event). */
export function frameBytes(frame: string): Uint8Array {
  return encoder.encode(frame);
}
