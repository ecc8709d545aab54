import type { ToolResponse } from '../builder/types.js';
import { errorResult } from '../builder/normalizeResult.js';
import { messages } from './messages.js';

/**
 * Runs `fn` with an AbortSignal that fires on timeout or when any parent signal aborts.
 * Resolves exactly once: with fn's result, or with a timeout `isError` result (fn's later result is dropped).
 */
export function runWithTimeout(
  tool: string,
  ms: number,
  parents: readonly AbortSignal[],
  fn: (signal: AbortSignal) => Promise<ToolResponse>,
): Promise<ToolResponse> {
  const controller = new AbortController();
  const onParentAbort = (event: Event): void => controller.abort((event.target as AbortSignal).reason);
  for (const parent of parents) {
    if (parent.aborted) controller.abort(parent.reason);
    else parent.addEventListener('abort', onParentAbort, { once: true });
  }
  return new Promise<ToolResponse>((resolve) => {
    const timer = setTimeout(() => {
      controller.abort(new Error(`timed out after ${ms} ms`));
      resolve(errorResult(messages.timedOut(tool, ms), { 'fusion/timeout': { ms } }));
    }, ms);
    timer.unref?.();
    fn(controller.signal).then(resolve, (error: unknown) => resolve(errorResult(error instanceof Error ? error.message : String(error)))).finally(() => {
      clearTimeout(timer);
      for (const parent of parents) parent.removeEventListener('abort', onParentAbort);
    });
  });
}
