import type { ToolHandler } from '../protocol/types.js';
import { presentResult } from './presentResult.js';
import { resolvePresenter } from './PresenterBuilder.js';

/**
 * Build step for `.returns(presenter)`: wraps a handler so its data is validated and rendered with every
 * suggestion; the pipeline narrows the suggestions to the session's new state with `filterSuggestions`.
 */
export function withPresenter<Ctx>(
  presenter: unknown,
  handler: ToolHandler<Ctx, any>,
  tool: string,
): ToolHandler<Ctx, any> {
  const p = resolvePresenter(presenter, tool);
  return async (input, ctx, extra) => presentResult(p, await handler(input, ctx, extra), undefined, { tool });
}
