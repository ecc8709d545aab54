import { taskMethod } from './taskMethod.js';

/** `tasks/list` (see taskHandlers.ts for what each era answers). */
export const tasksList = taskMethod('tasks/list');
