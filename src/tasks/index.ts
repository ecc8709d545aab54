export { MemoryTaskStore, type MemoryTaskStoreOptions } from './MemoryTaskStore.js';
export { taskPosition, type TaskPage, type TaskStore, type TaskWrite } from './TaskStore.js';
export type { TaskBus } from './TaskBus.js';
export type { TaskQueue } from './TaskQueue.js';
export type {
  TaskBudgets,
  TaskDeclaration,
  TaskError,
  TaskMode,
  TaskOnLost,
  TaskRecord,
  TaskRun,
  TaskStatus,
  VersionedTask,
} from './types.js';
