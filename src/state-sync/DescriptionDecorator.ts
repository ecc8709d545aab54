import type { CacheDirective } from './types.js';

/** Appends ` [Cache-Control: <directive>]` to a description (one space). */
export function decorateDescription(description: string | undefined, directive: CacheDirective): string {
  const tag = `[Cache-Control: ${directive}]`;
  return description === undefined || description === '' ? tag : `${description} ${tag}`;
}
