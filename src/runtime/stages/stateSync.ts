import type { ToolResponse } from '../../protocol/types.js';
import { isInputRequired } from '../../protocol/normalizeResult.js';
import { defineStage } from './StageDefinition.js';

/**
 * State Sync: the tool's decorator, compiled once (signal block, `_meta`, announcements), on every final
 * result; only tools a policy or their own `.invalidates()` names have it.
 */
export const stateSyncStage = defineStage({
  name: 'stateSync',
  tools: {
    appliesTo: (tool, { sync }) => sync !== undefined && sync.resolve(tool.name) !== null,
    build: (tool, { sync, invalidations }) => {
      const decorate = sync!.decoratorFor(tool.name, (meta) => invalidations.record(meta))!;
      const after = (result: ToolResponse): ToolResponse => (isInputRequired(result) ? result : decorate(result));
      return (call, next) => next(call).then(after);
    },
  },
});
