import type { ToolResponse } from '../protocol/types.js';
import { META } from '../state-sync/metaKeys.js';

/** The invalidation facts a successful call carried in `_meta['fusion/invalidation']`. */
export interface InvalidationInfo {
  readonly patterns: readonly string[];
  readonly causedBy: string;
  /** ISO-8601 time of the call. */
  readonly at: string;
}

/** A raw `tools/call` result, or what `TestClient.call()` returns (it keeps the raw result). */
export type InvalidationSubject = ToolResponse | { readonly result: ToolResponse };

const SIGNAL = '[System: Cache invalidated for ';

/**
 * Asserts that a tool result tells the agent exactly these patterns went stale (order does not matter):
 * the first content block is the `[System: Cache invalidated for …]` signal and `_meta` holds the same
 * patterns. Pass `[]` to assert that the result invalidates nothing. Throws an `Error` saying what the
 * result carried instead, so it works with any test runner.
 * @example
 * expectInvalidation(await t.call('sprints.create', { name: 'S2' }), ['sprints.*']);
 * @see docs/testing.md
 */
export function expectInvalidation(
  subject: InvalidationSubject,
  patterns: readonly string[],
): InvalidationInfo | undefined {
  const result = 'result' in subject && isResponse(subject.result) ? subject.result : (subject as ToolResponse);
  const info = readInvalidation(result);
  const first = result.content?.[0];
  const signal = first?.type === 'text' && first.text.startsWith(SIGNAL) ? first.text : undefined;
  if (patterns.length === 0) {
    if (info === undefined && signal === undefined) return undefined;
    throw new Error(
      `Expected no invalidation, but the result invalidates ${list(info?.patterns ?? [])}${signal === undefined ? '' : ` and starts with ${JSON.stringify(signal)}`}.`,
    );
  }
  const wanted = list(patterns);
  if (info === undefined) {
    const why =
      result.isError === true
        ? ` It is an error result (failed calls invalidate nothing): ${JSON.stringify(firstText(result))}.`
        : ' Declare .invalidates(...) on the tool or a stateSync policy that matches it.';
    throw new Error(`Expected the result to invalidate ${wanted}, but it carries no invalidation signal.${why}`);
  }
  if (!sameSet(info.patterns, patterns))
    throw new Error(
      `Expected the result to invalidate ${wanted}, but it invalidates ${list(info.patterns)} (caused by "${info.causedBy}").`,
    );
  if (signal === undefined)
    throw new Error(
      `The result's _meta invalidates ${wanted}, but its first content block is not the "${SIGNAL}…]" signal the agent reads.`,
    );
  return info;
}

function readInvalidation(result: ToolResponse): InvalidationInfo | undefined {
  const raw = result._meta?.[META.invalidation] as Partial<InvalidationInfo> | undefined;
  if (raw === undefined || !Array.isArray(raw.patterns)) return undefined;
  return { patterns: raw.patterns, causedBy: String(raw.causedBy), at: String(raw.at) };
}

function isResponse(value: unknown): value is ToolResponse {
  return typeof value === 'object' && value !== null && Array.isArray((value as ToolResponse).content);
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((p) => right.has(p));
}

function list(patterns: readonly string[]): string {
  return patterns.length === 0 ? 'nothing' : patterns.map((p) => `"${p}"`).join(', ');
}

function firstText(result: ToolResponse): string {
  const block = result.content?.find((b) => b.type === 'text');
  return block?.type === 'text' ? block.text : '';
}
