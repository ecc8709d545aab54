import type { ToolResponse } from './types.js';
import { describeFailure } from './failureAdvice.js';

/** True for values already shaped as an MCP `CallToolResult`. */
export function isToolResponse(value: unknown): value is ToolResponse {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/**
 * Turns whatever a handler returned into a `ToolResponse`: strings become one text block,
 * results pass through, `undefined` becomes an empty text block and anything else is sent as JSON text.
 */
export function normalizeResult(value: unknown): ToolResponse {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (isToolResponse(value) || isInputRequired(value)) return value as ToolResponse;
  if (value === undefined) return { content: [{ type: 'text', text: '' }] };
  return { content: [{ type: 'text', text: safeJson(value) }] };
}

/**
 * True for a multi-round-trip `input_required` return (the SDK's `inputRequired(...)`): not a final result,
 * so it passes through unchanged and triggers no invalidation or workflow transition.
 */
export function isInputRequired(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && (value as { resultType?: unknown }).resultType === 'input_required'
  );
}

/** The `isError` result for a thrown error, carrying its message. */
export function errorResult(text: string, meta?: Record<string, unknown>): ToolResponse {
  const result: ToolResponse = { content: [{ type: 'text', text }], isError: true };
  if (meta !== undefined) result._meta = meta;
  return result;
}

/** The agent's text for anything a handler threw: its message, and whether calling again can help (`describeFailure`). */
export function describeThrown(error: unknown): string {
  if (error instanceof Error) return describeFailure(error, 'The tool', 'call the tool again');
  return typeof error === 'string' ? error : safeJson(error);
}

function safeJson(value: unknown): string {
  try {
    const text = JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v));
    return text ?? String(value);
  } catch {
    return String(value);
  }
}
