// Where mcp-fusion answers differently from the plain SDK on purpose, each with the reason. Everything not
// listed here must be the SDK's answer exactly: status, body kind, session issued, every message byte for byte.
import type { Case } from './_requests.js';
import { MODERN } from './_requests.js';
import type { Outcome } from './_outcome.js';

/**
 * Refusals in mcp-fusion's own words (docs/errors.md: a named error says what was wrong and how to fix it),
 * written by its HTTP front or its session router before any fast path runs. `code: true`: the code comes
 * from the front's one status↔code table (src/server/http/httpErrors.ts) where the SDK's transport says -32000.
 */
const OWN_WORDS: ReadonlyArray<{ pattern: RegExp; front: boolean; why: string; id?: true }> = [
  { pattern: /^Parse error: the body is not valid JSON/, front: true, why: 'jsonBody names the parser error' },
  { pattern: /^Unsupported Media Type: send the JSON-RPC/, front: true, why: 'jsonBody, before either era' },
  {
    pattern: /^Bad Request: no valid Mcp-Session-Id header\./,
    front: false,
    why: 'the session router (the SDK has none)',
  },
  {
    pattern: /^Session not found: it expired or was closed/,
    front: false,
    why: 'the session router (the SDK has none)',
  },
  // The SDK example's router says "no session" to an initialize it does not take; the router names the field
  // (LegacySessions: "say which field, not 'send initialize first'"), as Invalid Params for the request's id.
  { pattern: /^Invalid initialize: /, front: false, why: 'the session router names the bad field', id: true },
];

const ownOf = (outcome: Outcome) =>
  outcome.messages.map((m) => {
    const text = (m.error as { message?: unknown } | undefined)?.message;
    return typeof text === 'string' ? OWN_WORDS.find((w) => w.pattern.test(text)) : undefined;
  });

/** The two outcomes made comparable (the documented exceptions taken out), or the reason they differ legitimately. */
export function comparable(c: Case, fusion: Outcome, sdk: Outcome): { fusion: Outcome; sdk: Outcome } {
  const own = ownOf(fusion);
  // The front (content type, JSON syntax) runs before any era or session check: a request wrong in two ways is
  // refused for the front's fault, the SDK may name the other (406 Accept, 404 session) first. Both refuse.
  if (own[0]?.front === true && fusion.status !== sdk.status && sdk.status >= 400)
    return { fusion: refusalOnly(fusion), sdk: refusalOnly(sdk) };
  // A 2026-07-28 GET or DELETE: the front answers 405 (Allow: POST; the era has no stream or session, see
  // middleware/modernStreamless.ts); the SDK's isLegacyRequest sends every GET and DELETE to the legacy leg.
  if (c.httpMethod !== 'POST' && c.headers['mcp-protocol-version'] === MODERN && fusion.status === 405)
    return { fusion: refusalOnly(fusion), sdk: sdk.status >= 400 ? refusalOnly(sdk) : sdk };
  const strip = (outcome: Outcome): Outcome => ({
    ...outcome,
    // A lone legacy response is one JSON body (SessionTransport/CallAnswer); the SDK streams it as one SSE
    // event. Both are the Streamable HTTP answer to a client accepting both; the messages must be the same.
    body: legacyLone(c, fusion, sdk) ? 'json' : outcome.body,
    messages: outcome.messages.map((m, i) => {
      const error = m.error as object | undefined;
      return own[i] !== undefined && error !== undefined
        ? {
            ...m,
            error: { code: '(own)', message: `(own words: ${own[i]!.why})` },
            ...(own[i]!.id === true ? { id: '(own)' } : {}),
          }
        : m;
    }),
  });
  return { fusion: strip(fusion), sdk: strip(sdk) };
}

function legacyLone(c: Case, fusion: Outcome, sdk: Outcome): boolean {
  return (
    c.httpMethod === 'POST' &&
    c.headers['mcp-protocol-version'] !== MODERN &&
    fusion.status === sdk.status &&
    fusion.body === 'json' &&
    sdk.body === 'sse' &&
    fusion.messages.length === 1
  );
}

function refusalOnly(outcome: Outcome): Outcome {
  return { status: 400, body: outcome.body, sessionIssued: outcome.sessionIssued, messages: [{ refused: true }] };
}
