import { META } from './metaKeys.js';
import type { InvalidationMeta } from './types.js';

/** The parts of an MCP `CallToolResult` State Sync touches; everything else is copied through. */
interface ResultLike {
  content: unknown[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/**
 * The causal signal the agent reads first:
 * `[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]`
 * (patterns in declaration order joined by `, `, an em dash U+2014).
 * @see docs/state-sync.md
 */
export function invalidationBlock(patterns: readonly string[], causedBy: string): string {
  return `[System: Cache invalidated for ${patterns.join(', ')} \u2014 caused by ${causedBy}]`;
}

/**
 * A new result whose first content block is the {@link invalidationBlock} text, followed by the original
 * content, and whose `_meta` gains `'fusion/invalidation': { patterns, causedBy, at }` next to any keys it
 * already had. The input result is not modified.
 * @example decorateResult(result, ['sprints.*'], 'sprints.create', '2025-01-01T00:00:00.000Z')
 * @see docs/state-sync.md
 */
export function decorateResult<R extends ResultLike>(result: R, patterns: readonly string[], causedBy: string, timestamp: string): R {
  const meta: InvalidationMeta = { patterns: [...patterns], causedBy, at: timestamp };
  const content = Array.isArray(result.content) ? result.content : [];
  return {
    ...result,
    content: [{ type: 'text', text: invalidationBlock(patterns, causedBy) }, ...content],
    _meta: { ...result._meta, [META.invalidation]: meta },
  };
}
