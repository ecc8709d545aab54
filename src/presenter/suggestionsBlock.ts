import type { ContentBlock } from '../protocol/types.js';
import type { SuggestedAction } from './types.js';

/** `_meta` key of the suggestions block: the suggestions it shows, with declared tool names. */
export const SUGGESTIONS_META = 'fusion/suggestions';

/** The `Suggested next actions:` text block, or undefined when there is nothing to suggest. */
export function suggestionsBlock(
  suggestions: readonly SuggestedAction[],
  displayName: (tool: string) => string = (t) => t,
): ContentBlock | undefined {
  if (suggestions.length === 0) return undefined;
  const lines = suggestions.map((s) => `- ${displayName(s.tool)}: ${s.reason}`);
  return {
    type: 'text',
    text: `Suggested next actions:\n${lines.join('\n')}`,
    _meta: { [SUGGESTIONS_META]: suggestions.map((s) => ({ tool: s.tool, reason: s.reason })) },
  };
}
