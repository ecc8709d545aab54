import { httpError } from './httpErrors.js';
import { takeNodeBody } from './nodeRequest.js';

/**
 * Reads a POST body within `limit` bytes and parses it as JSON: once, from the Node stream for a request of
 * the node adapter ({@link takeNodeBody}), from the web stream otherwise; `parsed`, a body the host already
 * parsed, is taken as it is (after the type and declared length checks).
 * Answers 415 (not JSON), 413 (too large) or 400 with `-32700` (malformed) as a `Response`.
 */
export async function readJsonBody(
  request: Request,
  limit: number,
  parsed?: unknown,
): Promise<{ body: unknown } | { response: Response }> {
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\b/i.test(type)) {
    return {
      response: httpError(
        'unsupportedMediaType',
        'Unsupported Media Type: send the JSON-RPC message with Content-Type: application/json.',
      ),
    };
  }
  const declared = Number(request.headers.get('content-length') ?? NaN);
  if (declared > limit) return { response: tooLarge(limit) };
  if (parsed !== undefined) return { body: parsed };
  const node = takeNodeBody(request, limit);
  const bytes = node === undefined ? await readWebBody(request, limit) : await node;
  if ('tooLarge' in bytes) return { response: tooLarge(limit) };
  try {
    return { body: JSON.parse(bytes.bytes.toString('utf8')) };
  } catch (error) {
    return {
      response: httpError('parseError', `Parse error: the body is not valid JSON (${(error as Error).message}).`),
    };
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
  return httpError('payloadTooLarge', `Payload Too Large: the request body exceeds ${limit} bytes.`);
}
