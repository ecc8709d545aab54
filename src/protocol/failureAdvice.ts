/** Error codes of failures that pass: network (Node, undici) and the workflow store's load, lease and race. */
const TEMPORARY_CODES = new Set([
  'ETIMEDOUT',
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_SOCKET',
  'FSM_STORE_LOAD',
  'FSM_STORE_CONFLICT',
  'FSM_STORE_LEASE',
]);
/** `TimeoutError` (`AbortSignal.timeout`), ioredis' `MaxRetriesPerRequestError` (Redis unreachable). */
const TEMPORARY_NAMES = new Set(['TimeoutError', 'MaxRetriesPerRequestError']);
/** HTTP statuses of a dependency that may answer later. */
const TEMPORARY_STATUS = new Set([408, 429, 502, 503, 504]);
/** Errors the language raises for code that cannot work as written. */
const PROGRAMMING_ERRORS = new Set([
  'TypeError',
  'ReferenceError',
  'SyntaxError',
  'RangeError',
  'EvalError',
  'URIError',
]);

type Thrown = {
  retryable?: unknown;
  name?: unknown;
  code?: unknown;
  status?: unknown;
  statusCode?: unknown;
  message?: unknown;
  cause?: unknown;
};

/**
 * True when calling again may succeed: the error says so (`retryable: true`; `false` wins over the rest),
 * or it is a timeout, a refused or dropped connection, an unreachable store, a 408/429/502/503/504 status,
 * or has such a `cause` (`fetch failed` carries its `ECONNREFUSED` there).
 */
export function isRetryable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 3) return false;
  const e = error as Thrown;
  if (typeof e.retryable === 'boolean') return e.retryable;
  if (TEMPORARY_NAMES.has(e.name as string) || TEMPORARY_CODES.has(e.code as string)) return true;
  if (TEMPORARY_STATUS.has(e.status as number) || TEMPORARY_STATUS.has(e.statusCode as number)) return true;
  // ioredis rejects commands of a dropped connection with this plain Error and no code.
  if (e.message === 'Connection is closed.') return true;
  return isRetryable(e.cause, depth + 1);
}

/** True for the language's own errors (`TypeError`, `ReferenceError`, …): a bug in the code, not a bad call. */
export function isProgrammingError(error: unknown): boolean {
  return error instanceof Error && PROGRAMMING_ERRORS.has(error.name) && !isRetryable(error);
}

/** What failed, without a stack: `ReferenceError: db is not defined` for the language's errors, else the message. */
export function failureReason(error: unknown): string {
  if (!(error instanceof Error)) return capReason(typeof error === 'string' ? error : String(error));
  const message = capReason(error.message || error.name);
  return PROGRAMMING_ERRORS.has(error.name) ? `${error.name}: ${message}` : message;
}

/** Characters of a thrown message an agent reads: enough for any real explanation, never megabytes. */
export const MAX_REASON_CHARS = 8_192;

/** `text`, cut to {@link MAX_REASON_CHARS} with the original length named (never mid surrogate pair). */
function capReason(text: string): string {
  if (text.length <= MAX_REASON_CHARS) return text;
  let end = MAX_REASON_CHARS;
  if (/[\uD800-\uDBFF]/.test(text[end - 1]!)) end--;
  return `${text.slice(0, end)}… (cut: the message was ${text.length} characters)`;
}

/** The sentence that tells the agent whether to call again (`again`: "call \"notes.add\" again"). */
export function failureAdvice(error: unknown, again: string): string {
  return isRetryable(error)
    ? `This looks temporary: ${again} in a moment.`
    : 'This is a fault in the server, not in the request: retrying will not help. Tell the user that the server needs fixing.';
}

/**
 * The agent's text for an error a handler threw. A plain `Error` is the handler's own words and passes
 * unchanged; a temporary failure adds that calling again may help; the language's errors (a bug) say
 * that retrying will not.
 */
export function describeFailure(error: unknown, what: string, again: string): string {
  if (isProgrammingError(error))
    return `${what} failed on a fault in the server (${failureReason(error)}). ${failureAdvice(error, again)}`;
  const reason = failureReason(error);
  if (!isRetryable(error)) return reason;
  return `${/[.!?]$/.test(reason) ? reason : `${reason}.`} ${failureAdvice(error, again)}`;
}
