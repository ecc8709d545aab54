import type { ToolResponse } from '../../protocol/types.js';
import type { TaskRecord } from '../../tasks/types.js';

/** How a task-capable `tools/call` was answered: the plain result (it finished at once) or a task. */
export type TaskStart =
  | { readonly kind: 'result'; readonly result: ToolResponse }
  | { readonly kind: 'task'; readonly record: TaskRecord };
