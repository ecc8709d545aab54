import type { ToolResponse } from '../protocol/types.js';
import type { RefusalReason, RequestTrace } from './types.js';

/** Tells the request's span (when traced) why the call was refused, and passes the refusal on unchanged. */
export function traceRefusal(
  trace: RequestTrace | undefined,
  refusal: ToolResponse,
  reason: RefusalReason,
): ToolResponse {
  if (trace !== undefined) {
    const block = refusal.content?.find((b) => b.type === 'text') as { text?: string } | undefined;
    trace.refusal(reason, block?.text ?? '');
  }
  return refusal;
}
