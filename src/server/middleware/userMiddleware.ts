import type { OperatorLog } from '../../logging/OperatorLog.js';
import { jsonRpcIdOf } from '../../protocol/jsonRpcId.js';
import { httpError } from '../http/httpErrors.js';
import type { Answer, FrontContext, HttpMiddleware, Next } from '../httpMiddleware.js';

/**
 * The `use` option's middleware `index` behind an error boundary: when it throws (or its answer rejects),
 * one `error` record names it and the request, and the client gets `500` with a JSON-RPC `-32603` error
 * carrying the request's id. Errors from further down the chain (`next`) pass through it unchanged.
 */
export function userMiddleware(middleware: HttpMiddleware, index: number, log: OperatorLog): HttpMiddleware {
  const label = middleware.name === '' ? `use[${index}]` : `use[${index}] ${middleware.name}`;
  return (c, next) => {
    const downstream = new WeakSet<object>();
    const passOn: Next = (inner: FrontContext): Answer => {
      const mark = (error: unknown): never => {
        if (typeof error === 'object' && error !== null) downstream.add(error);
        throw error;
      };
      try {
        const answer = next(inner);
        return answer instanceof Promise ? answer.catch(mark) : answer;
      } catch (error) {
        return mark(error);
      }
    };
    const failed = (error: unknown): Response => {
      if (typeof error === 'object' && error !== null && downstream.has(error)) throw error;
      const url = new URL(c.request.url);
      log.error('HTTP middleware threw', { middleware: label, method: c.request.method, path: url.pathname }, error);
      return httpError(
        'internal',
        `The server's HTTP middleware ${label} failed; the request was not served. Its operator log has the error.`,
        jsonRpcIdOf(c.body),
      );
    };
    try {
      const answer = middleware(c, passOn);
      return answer instanceof Promise ? answer.catch(failed) : answer;
    } catch (error) {
      return failed(error);
    }
  };
}
