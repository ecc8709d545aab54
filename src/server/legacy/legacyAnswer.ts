import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { stringifyMessage } from '../../_internal/fixedJson.js';
import { jsonAnswer } from '../http/jsonAnswer.js';

const encoder = new TextEncoder();

/**
 * The one-piece answer of a legacy POST: one JSON-RPC message as `application/json` (a {@link jsonAnswer}: no
 * stream; the node adapter writes it in one piece with its `Content-Length`).
 */
export function legacyJsonAnswer(message: JSONRPCMessage, sessionId: string): Response {
  return jsonAnswer(stringifyMessage(message), 200, {
    'content-type': 'application/json',
    'mcp-session-id': sessionId,
  });
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
