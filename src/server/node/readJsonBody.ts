import type { LedgerRefusal } from '../../ledger/types.js';
import type { BodyHold } from '../http/bodyHold.js';
import { heldBytesRefused, httpError } from '../http/httpErrors.js';
import { discardNodeBody, takeNodeBody, type NodeBody } from './nodeRequest.js';

/** How much of a refused body (as a multiple of the limit) flows by discarded before its connection is closed. */
export const DRAIN_FACTOR = 4;

/**
 * Reads a POST body within `limit` bytes and parses it as JSON: once, from the Node stream for a request of
 * the node adapter ({@link takeNodeBody}), from the web stream otherwise; `parsed`, a body the host already
 * parsed, is taken as it is (after the type and declared length checks). With `hold`, the bytes are counted
 * in the ledger chunk by chunk as they arrive, and the reading stops at the first chunk past a budget.
 * Answers 415 (not JSON), 413 (too large), 429/503 (the ledger's refusal, `Retry-After`) or 400 with
 * `-32700` (malformed) as a `Response`. A body refused (413, 429/503) is not kept: its rest flows by
 * discarded, up to {@link DRAIN_FACTOR} times `limit` (beyond, the connection closes after the answer).
 */
export async function readJsonBody(
  request: Request,
  limit: number,
  parsed?: unknown,
  hold?: BodyHold,
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
  // A refused body flows by discarded while the answer goes out, up to DRAIN_FACTOR × limit (more: the answer
  // closes the connection), so that a client still sending reads its answer instead of a reset.
  const drain = DRAIN_FACTOR * limit;
  if (declared > limit) {
    if (parsed === undefined && declared <= drain) discardNodeBody(request, declared);
    return { response: tooLarge(limit) };
  }
  if (parsed !== undefined) return { body: parsed };
  const early = declared > 0 ? hold?.check(declared) : undefined;
  if (early !== undefined) {
    discardNodeBody(request, declared);
    return { response: heldBytesRefused(early) };
  }
  const gauge = hold === undefined ? undefined : (size: number) => hold.grow(size);
  const node = takeNodeBody(request, limit, gauge, drain);
  const bytes = node === undefined ? await readWebBody(request, limit, gauge) : await node;
  if ('tooLarge' in bytes) return { response: tooLarge(limit) };
  if ('refused' in bytes) return { response: heldBytesRefused(bytes.refused) };
  try {
    return { body: JSON.parse(bytes.bytes.toString('utf8')) };
  } catch (error) {
    return {
      response: httpError('parseError', `Parse error: the body is not valid JSON (${(error as Error).message}).`),
    };
  }
}

async function readWebBody(
  request: Request,
  limit: number,
  gauge: ((size: number) => LedgerRefusal | undefined) | undefined,
): Promise<NodeBody> {
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader !== undefined) {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      const refused = size > limit ? undefined : gauge?.(size);
      if (size > limit || refused !== undefined) {
        await reader.cancel().catch(() => {});
        return refused === undefined ? { tooLarge: true } : { refused };
      }
      chunks.push(value);
    }
  }
  return { bytes: Buffer.concat(chunks) };
}

function tooLarge(limit: number): Response {
  return httpError('payloadTooLarge', `Payload Too Large: the request body exceeds ${limit} bytes.`);
}
