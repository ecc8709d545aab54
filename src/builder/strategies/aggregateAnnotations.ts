import type { ToolAnnotations } from '../../protocol/types.js';
import type { ActionSpec } from './types.js';

/**
 * AnnotationAggregator: MCP annotations are per tool, so a grouped tool is read-only only if every action
 * is, destructive if any action is (an explicit `destructiveHint: false` otherwise, since MCP assumes
 * destructive when the hint is absent), and idempotent only if every action is.
 * Per-action hints go in the tool's `_meta['fusion/actions']`.
 * @see docs/grouped-tools.md
 */
export function aggregateAnnotations(
  actions: readonly Pick<ActionSpec, 'readOnly' | 'destructive' | 'idempotent'>[],
): ToolAnnotations {
  const some = actions.length > 0;
  return {
    readOnlyHint: some && actions.every((a) => a.readOnly),
    destructiveHint: actions.some((a) => a.destructive),
    idempotentHint: some && actions.every((a) => a.idempotent),
  };
}
