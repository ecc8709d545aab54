import type { CacheDirective } from './types.js';

/**
 * Appends the cache directive the agent reads in `tools/list`: `"List sprints. [Cache-Control: no-store]"`.
 * Exactly one space separates it from the description (trailing whitespace is dropped); an empty or
 * missing description becomes the tag alone, and a description already ending with the tag is kept as is.
 * @example decorateDescription('List country codes.', 'immutable'); // 'List country codes. [Cache-Control: immutable]'
 * @see docs/state-sync.md
 */
export function decorateDescription(description: string | undefined, directive: CacheDirective): string {
  const tag = `[Cache-Control: ${directive}]`;
  const text = description?.trimEnd() ?? '';
  if (text === '') return tag;
  return text.endsWith(tag) ? text : `${text} ${tag}`;
}
