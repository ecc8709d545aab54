import { LIST_PARAMS } from '../taskHandlers.js';
import { MODERN_TASKS_LIST } from '../taskWire.js';
import { taskMethod } from './taskMethod.js';

/**
 * `tasks/list` (see taskHandlers.ts for what each era answers); on 2026-07-28, where SEP-2663 removes
 * `tasks/list`, the caller's inventory is served as {@link MODERN_TASKS_LIST}.
 */
export const tasksList = taskMethod('tasks/list', (w) =>
  w.era === 'modern' ? { schema: LIST_PARAMS, installedAs: MODERN_TASKS_LIST } : { schema: undefined },
);
