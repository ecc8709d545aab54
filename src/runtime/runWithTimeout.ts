import type { ToolResponse } from '../protocol/types.js';
import { errorResult } from '../protocol/normalizeResult.js';
import { messages } from '../protocol/messages.js';

/** The abort signal of one call, created only if the handler reads it (most never do). */
export interface LazySignal {
  readonly signal: AbortSignal;
}

/**
 * Runs `fn` with a signal that aborts on timeout, when `parent` (the request's own signal) aborts, or when
 * the caller aborts it through `register` (shutdown). Resolves exactly once: with fn's result, or with a
 * timeout `isError` result (fn's later result is dropped). The controller and the parent listener are
 * created lazily, on the first read of `signal`, so a handler that ignores cancellation costs nothing.
 */
export function runWithTimeout(
  tool: string,
  ms: number,
  parent: AbortSignal | undefined,
  fn: (lazy: LazySignal) => Promise<ToolResponse>,
  register?: (abort: (reason: Error) => void) => () => void,
): Promise<ToolResponse> {
  let controller: AbortController | undefined;
  let reason: unknown;
  const onParentAbort = (): void => abort(parent?.reason);
  const abort = (why: unknown): void => {
    reason ??= why;
    controller?.abort(why);
  };
  const lazy: LazySignal = {
    get signal() {
      if (controller === undefined) {
        controller = new AbortController();
        if (reason !== undefined) controller.abort(reason);
        else if (parent?.aborted === true) controller.abort(parent.reason);
        else parent?.addEventListener('abort', onParentAbort, { once: true });
      }
      return controller.signal;
    },
  };
  const unregister = register?.(abort);
  return new Promise<ToolResponse>((resolve) => {
    const timer = setTimeout(() => {
      abort(new Error(`timed out after ${ms} ms`));
      resolve(errorResult(messages.timedOut(tool, ms), { 'fusion/timeout': { ms } }));
    }, ms);
    timer.unref?.();
    fn(lazy)
      .then(resolve, (error: unknown) => resolve(errorResult(error instanceof Error ? error.message : String(error))))
      .finally(() => {
        clearTimeout(timer);
        unregister?.();
        if (controller !== undefined) parent?.removeEventListener('abort', onParentAbort);
      });
  });
}
