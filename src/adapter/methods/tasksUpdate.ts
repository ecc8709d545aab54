import { taskMethod } from './taskMethod.js';

/** `tasks/update` (see taskHandlers.ts for what each era answers). */
export const tasksUpdate = taskMethod('tasks/update');
