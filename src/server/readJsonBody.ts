import { JsonRpcCode } from '../errors/WireError.js';
import { jsonRpcErrorResponse } from './httpErrors.js';
import { takeNodeBody } from './nodeRequest.js';

/**
 * Reads a POST body within `limit` bytes and parses it as JSON: once, from the Node stream for a request of
 * `startServer`'s adapter ({@link takeNodeBody}), from the web stream otherwise.
 * Answers 415 (not JSON), 413 (too large) or 400 with `-32700` (malformed) as a `Response`.
 */
export async function readJsonBody(request: Request, limit: number): Promise<{ body: unknown } | { response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return { response: jsonRpcErrorResponse(415, JsonRpcCode.InvalidRequest, 'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.') };
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) return { response: tooLarge(limit) };
  const node = takeNodeBody(request, limit);
  const bytes = node === undefined ? await readWebBody(request, limit) : await node;
  if ('tooLarge' in bytes) return { response: tooLarge(limit) };
  try {
    return { body: JSON.parse(bytes.bytes.toString('utf8')) };
  } catch (error) {
    return { response: jsonRpcErrorResponse(400, JsonRpcCode.ParseError, `Parse error: the body is not valid JSON (${(error as Error).message}).`) };
  }
}

async function readWebBody(request: Request, limit: number): Promise<{ bytes: Buffer } | { tooLarge: true }> {
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader !== undefined) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > limit) {
        await reader.cancel().catch(() => {});
        return { tooLarge: true };
      }
      chunks.push(value);
    }
  }
  return { bytes: Buffer.concat(chunks) };
}

function tooLarge(limit: number): Response {
  return jsonRpcErrorResponse(413, JsonRpcCode.InvalidRequest, `Payload Too Large: the request body exceeds ${limit} bytes.`);
}
