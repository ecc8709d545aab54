import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { jsonAnswerText } from '../http/jsonAnswer.js';
import { isDiscarding } from './nodeRequest.js';

type Reader = ReadableStreamDefaultReader<Uint8Array>;
type Read = ReadableStreamReadResult<Uint8Array>;

const NOT_YET: unique symbol = Symbol('not yet');

/** The next chunk if the stream has it by the end of this microtask queue, else `NOT_YET` (the read stays pending). */
function readNow(pending: Promise<Read>): Promise<Read | typeof NOT_YET> {
  return Promise.race([pending, Promise.resolve().then((): typeof NOT_YET => NOT_YET)]);
}

/** The next chunk if the stream has it once the current I/O callbacks have run (one `setImmediate`), else `NOT_YET`. */
function readSoon(pending: Promise<Read>): Promise<Read | typeof NOT_YET> {
  return Promise.race([pending, new Promise<typeof NOT_YET>((resolve) => setImmediate(resolve, NOT_YET))]);
}

function headersOf(from: Headers, incoming: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  from.forEach((value, name) => {
    headers[name] = value;
  });
  if (headers['set-cookie'] !== undefined) headers['set-cookie'] = from.getSetCookie();
  // A body left unread (refused before or while reading it) is not drained: the connection ends with this answer.
  // One the ledger refused flows by discarded instead (isDiscarding): closing on unread bytes would reset the answer.
  if (!incoming.complete && !isDiscarding(incoming)) headers.connection = 'close';
  return headers;
}

/** A {@link jsonAnswer}'s own header object, copied (Node keeps the object it is given). */
function plainHeaders(from: Readonly<Record<string, string>>, incoming: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = { ...from };
  if (!incoming.complete && !isDiscarding(incoming)) headers.connection = 'close';
  return headers;
}

/**
 * Writes a web `Response` to a Node `ServerResponse`. An untouched {@link jsonAnswer} goes out as its text in
 * one `res.end` with its `Content-Length`, read from no stream. Another body that is complete at once (a JSON answer, or
 * the SSE answer of a call that finished while the request was handled) goes out in one write with a
 * `Content-Length`; a body still open after one turn of the event loop (a stream, a long call) is streamed
 * chunk by chunk with backpressure. `closed` resolves when the client goes away; the body is then cancelled.
 */
export async function writeNodeResponse(
  response: Response,
  incoming: IncomingMessage,
  res: ServerResponse,
  closed: Promise<void>,
): Promise<void> {
  const json = jsonAnswerText(response);
  if (json !== undefined) {
    const headers =
      json.headers instanceof Headers ? headersOf(json.headers, incoming) : plainHeaders(json.headers, incoming);
    headers['content-length'] = Buffer.byteLength(json.text);
    res.writeHead(json.status, headers).end(json.text);
    return;
  }
  const headers = headersOf(response.headers, incoming);
  if (response.body === null) {
    // Without a length Node would frame an empty answer as chunked.
    if (response.status >= 200 && response.status !== 204 && response.status !== 304) headers['content-length'] ??= 0;
    res.writeHead(response.status, headers).end();
    return;
  }
  const reader = response.body.getReader();
  let pending: Promise<Read> | undefined = reader.read();
  const first = await readSoon(pending);
  if (first !== NOT_YET) {
    pending = undefined;
    if (first.done) {
      headers['content-length'] ??= 0;
      res.writeHead(response.status, headers).end();
      return;
    }
    pending = reader.read();
    const second = await readNow(pending);
    if (second !== NOT_YET && second.done) {
      if (headers['content-length'] === undefined) headers['content-length'] = first.value.byteLength;
      res.writeHead(response.status, headers).end(first.value);
      return;
    }
    res.writeHead(response.status, headers);
    if (!res.write(first.value)) await drained(res, closed);
    if (second !== NOT_YET) {
      pending = undefined;
      if (!res.write(second.value)) await drained(res, closed);
    }
  } else {
    res.writeHead(response.status, headers);
    res.flushHeaders();
  }
  await stream(reader, pending, res, closed);
}

async function stream(
  reader: Reader,
  pending: Promise<Read> | undefined,
  res: ServerResponse,
  closed: Promise<void>,
): Promise<void> {
  let gone = false;
  void closed.then(() => {
    gone = true;
    reader.cancel().catch(() => {});
  });
  try {
    for (;;) {
      const next = await (pending ?? reader.read());
      pending = undefined;
      if (next.done || gone) break;
      if (!res.write(next.value)) await drained(res, closed);
    }
  } catch {
    // The body errored (or was cancelled): end what was sent.
  }
  res.end();
}

function drained(res: ServerResponse, closed: Promise<void>): Promise<void> {
  return Promise.race([new Promise<void>((resolve) => res.once('drain', resolve)), closed]);
}
