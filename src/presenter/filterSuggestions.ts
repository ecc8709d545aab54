import type { ContentBlock, ToolResponse } from '../protocol/types.js';
import { SUGGESTIONS_META, suggestionsBlock } from './suggestionsBlock.js';
import type { PresentOptions, SuggestedAction } from './types.js';

/** True when `result` carries a suggestions block (lets a caller skip loading the state otherwise). */
export function hasSuggestions(result: ToolResponse): boolean {
  // An `input_required` round carries no content. A loop: this runs on every gated call.
  const content = result.content;
  if (!Array.isArray(content)) return false;
  for (const b of content)
    if (b.type === 'text' && b._meta !== undefined && Array.isArray(suggestionsOf(b))) return true;
  return false;
}

/**
 * Re-filters the suggestions block of a presented result once the session's new workflow state is known:
 * keeps the suggestions whose tool `visible` accepts, drops the block when none is left or the result is
 * an error. Results without a block come back unchanged (same object).
 */
export function filterSuggestions(
  result: ToolResponse,
  visible: (tool: string) => boolean,
  options: PresentOptions = {},
): ToolResponse {
  const index = result.content.findIndex((b) => b.type === 'text' && Array.isArray(suggestionsOf(b)));
  if (index === -1) return result;
  const shown = suggestionsOf(result.content[index]!) as SuggestedAction[];
  const block =
    result.isError === true
      ? undefined
      : suggestionsBlock(
          shown.filter((s) => visible(s.tool)),
          options.displayName,
        );
  const content = [...result.content];
  if (block === undefined) content.splice(index, 1);
  else content[index] = block;
  return { ...result, content };
}

function suggestionsOf(block: ContentBlock): unknown {
  return (block._meta as Record<string, unknown> | undefined)?.[SUGGESTIONS_META];
}
