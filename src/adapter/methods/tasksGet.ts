import { taskMethod } from './taskMethod.js';

/** `tasks/get` (see taskHandlers.ts for what each era answers). */
export const tasksGet = taskMethod('tasks/get');
