import { isToolResponse, errorResult, normalizeResult } from '../protocol/normalizeResult.js';
import type { ContentBlock, ToolResponse } from '../protocol/types.js';
import { resolvePresenter, type PresenterBuilder } from './PresenterBuilder.js';
import { suggestionsBlock } from './suggestionsBlock.js';
import type { PresentOptions, Presenter, SuggestedAction } from './types.js';

/**
 * Validates a handler's data against the presenter's schema and renders it, followed by a
 * `Suggested next actions:` block of the suggestions whose tool `visible` accepts (all when omitted).
 * A mismatch yields an `isError` result naming each bad field; a `CallToolResult` passes through.
 * @example
 * presentResult(cartItem, { id: 'p1' }, (tool) => gate.isToolAllowed(tool));
 * @see docs/fsm-state-gate.md
 */
export function presentResult<T>(
  presenter: Presenter<T> | PresenterBuilder<T>,
  data: unknown,
  visible?: (tool: string) => boolean,
  options: PresentOptions = {},
): ToolResponse {
  const p = resolvePresenter(presenter, options.tool ?? '(presentResult)') as Presenter<T>;
  if (isToolResponse(data)) return data;
  let value = data as T;
  if (p.schema !== undefined) {
    const parsed = p.schema.safeParse(data);
    if (!parsed.success) return mismatch(p.name, parsed.error.issues, options.tool);
    value = parsed.data;
  }
  const response = normalizeResult(value);
  const suggestions = suggestionsOf(p, value).filter((s) => visible === undefined || visible(s.tool));
  const block = suggestionsBlock(suggestions, options.displayName);
  return block === undefined ? response : { ...response, content: [...response.content, block] };
}

function suggestionsOf<T>(p: Presenter<T>, value: T): SuggestedAction[] {
  if (p.suggest === undefined) return [];
  let out: readonly SuggestedAction[];
  try {
    out = p.suggest(value);
  } catch (error) {
    throw new Error(
      `Presenter "${p.name}" failed in suggestActions: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  if (!Array.isArray(out))
    throw new Error(`Presenter "${p.name}": suggestActions must return an array of { tool, reason }.`);
  return out.map((s: unknown, i) => {
    const { tool, reason } = (s ?? {}) as Partial<SuggestedAction>;
    if (typeof tool !== 'string' || typeof reason !== 'string') {
      throw new Error(
        `Presenter "${p.name}": suggestActions returned an invalid entry [${i}]; each must be { tool: string, reason: string }.`,
      );
    }
    return { tool, reason };
  });
}

function mismatch(
  name: string,
  issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
  tool: string | undefined,
): ToolResponse {
  const lines = issues.map(
    (i) =>
      `- ${i.path.length === 0 ? '(result)' : i.path.map(String).join('.')}: ${i.message.replace(/^Invalid input: /, '')}`,
  );
  const who = tool === undefined ? 'The tool' : `Tool "${tool}"`;
  const text =
    `${who} ran, but its result does not match "${name}":\n${lines.join('\n')}\n` +
    'This is a server-side problem, not a problem with your arguments. Its effects may have been applied: check the current state before retrying.';
  const block: ContentBlock = { type: 'text', text };
  return { ...errorResult(text), content: [block], _meta: { 'fusion/presenter': { presenter: name, issues: lines } } };
}
