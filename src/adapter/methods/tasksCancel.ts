import { taskMethod } from './taskMethod.js';

/** `tasks/cancel` (see taskHandlers.ts for what each era answers). */
export const tasksCancel = taskMethod('tasks/cancel');
