/**
 * Carries task control messages between the instances that share a task store: a cancel taken on one
 * instance reaches the instance running the work at once, instead of at its next lease renewal.
 * `RedisEventBus` from `mcp-fusion/redis` is one (its `tasks` view; `createFusionApp` uses it when the
 * `bus` option has it); without a bus, a cancel from another instance reaches the work at its next renewal.
 * @see docs/tasks.md
 */
export interface TaskBus {
  /** Tells every instance that task `taskId` was cancelled. Fire and forget: never throws. */
  publishCancel(taskId: string): void;
  /** Hears every published cancel (this process's too); returns an idempotent unsubscribe. */
  subscribeCancel(listener: (taskId: string) => void): () => void;
}
