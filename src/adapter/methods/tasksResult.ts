import { taskMethod } from './taskMethod.js';

/** `tasks/result` (see taskHandlers.ts for what each era answers). */
export const tasksResult = taskMethod('tasks/result');
