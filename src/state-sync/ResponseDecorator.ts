import { META } from './metaKeys.js';

interface ResultLike {
  content: unknown[];
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

/** The exact causal signal text: `[System: Cache invalidated for a.*, b.* — caused by tool]`. */
export function invalidationBlock(patterns: readonly string[], causedBy: string): string {
  return `[System: Cache invalidated for ${patterns.join(', ')} \u2014 caused by ${causedBy}]`;
}

/** A new result with the signal as its first text block and the same facts in `_meta`. */
export function decorateResult<R extends ResultLike>(result: R, patterns: readonly string[], causedBy: string, at: string): R {
  return {
    ...result,
    content: [{ type: 'text', text: invalidationBlock(patterns, causedBy) }, ...result.content],
    _meta: { ...result._meta, [META.invalidation]: { patterns: [...patterns], causedBy, at } },
  };
}
