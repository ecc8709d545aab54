import { FusionError } from '../errors/FusionError.js';
import type { ToolResponse } from '../protocol/types.js';
import type { TaskSnapshot } from './taskSnapshot.js';

/** A task helper was given something it cannot drive; the message says what to pass instead. */
export class TaskHelperError extends FusionError {}

/**
 * `callToolAsTask` got the tool's result instead of a task: the tool is not a task tool, it finished at once
 * (2026-07-28 answers such a call directly), or the server refused to start a task (a budget's `isError`).
 */
export class TaskNotStartedError extends FusionError {
  /** What the server answered in place of a task. */
  readonly result: ToolResponse;

  constructor(tool: string, result: ToolResponse) {
    const text = result.content
      .filter((block): block is { type: 'text'; text: string } => block.type === 'text')
      .map((block) => block.text)
      .join(' ');
    const quoted = text === '' ? '' : ` ("${text}")`;
    super(
      'TASK_NOT_STARTED',
      result.isError === true
        ? `tools/call "${tool}" started no task: it answered with an error result${quoted}.`
        : `tools/call "${tool}" answered with its result instead of a task${quoted}. ` +
            'Declare the tool with .task(), keep its handler from finishing within the call, or call it with callTool() when a direct answer is expected.',
      { tool },
    );
    this.result = result;
  }
}

/** `taskResult` found the task `failed` or `cancelled`: it has no result. `task` is its last snapshot. */
export class TaskEndedError extends FusionError {
  readonly task: TaskSnapshot;

  constructor(task: TaskSnapshot) {
    const why = task.error === undefined ? '' : `: ${task.error.message} (JSON-RPC ${task.error.code})`;
    super('TASK_ENDED', `Task "${task.taskId}" ended ${task.status}${why}; it has no result.`, {
      taskId: task.taskId,
      status: task.status,
    });
    this.task = task;
  }
}

/** `waitForTask` gave up: the task was still not done after `timeoutMs`. `task` is the last snapshot polled. */
export class TaskWaitTimeoutError extends FusionError {
  readonly task: TaskSnapshot;

  constructor(task: TaskSnapshot, timeoutMs: number) {
    const message = task.statusMessage === undefined ? '' : ` ("${task.statusMessage}")`;
    super(
      'TASK_WAIT_TIMEOUT',
      `Task "${task.taskId}" is still ${task.status}${message} after ${timeoutMs} ms; let its handler finish, or raise timeoutMs.`,
      { taskId: task.taskId, status: task.status, timeoutMs },
    );
    this.task = task;
  }
}
