import { acceptedContent, inputRequired } from '@modelcontextprotocol/server';
import { initFusion, JsonRpcCode, WireError, type HandlerExtra } from 'mcp-fusion';

const f = initFusion();

/** Resolves after `ms`, or rejects when `signal` aborts (a cancelled task stops its work). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
  });
}

const CONFIRM = {
  type: 'object' as const,
  properties: { confirm: { type: 'boolean' as const } },
  required: ['confirm'],
};
const NAME = { type: 'object' as const, properties: { name: { type: 'string' as const } }, required: ['name'] };
const accepted = (answer: Record<string, unknown>): boolean => answer.action === 'accept';

/** The fixtures of the `tasks-*` scenarios (io.modelcontextprotocol/tasks, SEP-2663) of conformance 0.2.0-alpha.12. */
export const taskTools = [
  f
    .query('greet')
    .describe('Greets, synchronously')
    .withString('name')
    .handle(({ name }) => `Hello, ${name}!`),
  f
    .action('slow_compute')
    .describe('Sleeps `seconds`, then answers; runs as a task when the client supports tasks')
    .withNumber('seconds')
    .withOptionalString('label')
    .task({ pollIntervalMs: 100 })
    .handle(async ({ seconds, label }, _ctx, extra: HandlerExtra) => {
      await sleep(seconds * 1000, extra.signal);
      return `Computed ${label ?? 'result'} after ${seconds}s`;
    }),
  f
    .action('failing_job')
    .describe('Fails after about a second (a tool error); runs only as a task')
    .task({ mode: 'required', pollIntervalMs: 100 })
    .handle(async (_input, _ctx, extra) => {
      await sleep(1_000, extra.signal);
      throw new Error('failing_job failed on purpose');
    }),
  f
    .action('protocol_error_job')
    .describe('Fails with a JSON-RPC error (the task ends failed)')
    .task({ pollIntervalMs: 100 })
    .handle(async (_input, _ctx, extra) => {
      await sleep(200, extra.signal);
      throw new WireError(JsonRpcCode.InternalError, 'protocol_error_job broke on purpose');
    }),
  f
    .action('confirm_delete')
    .describe('Asks for a confirmation through the task, then deletes')
    .withString('filename')
    .task({ pollIntervalMs: 100 })
    .handle(async ({ filename }, _ctx, extra) => {
      const answer = await extra.elicit({ mode: 'form', message: `Delete ${filename}?`, requestedSchema: CONFIRM });
      return accepted(answer) ? `Deleted ${filename}` : `Kept ${filename}`;
    }),
  f
    .action('multi_input')
    .describe('Asks two questions at once through the task')
    .task({ pollIntervalMs: 100 })
    .handle(async (_input, _ctx, extra) => {
      const [first, second] = await Promise.all([
        extra.elicit({ mode: 'form', message: 'First name?', requestedSchema: NAME }),
        extra.elicit({ mode: 'form', message: 'Second name?', requestedSchema: NAME }),
      ]);
      return `Got ${JSON.stringify(first.content)} and ${JSON.stringify(second.content)}`;
    }),
  f
    .action('test_tool_with_task')
    .describe('Asks for a name (input_required), then works on it as a task')
    .task({ mode: 'required', pollIntervalMs: 100 })
    .handle(async (_input, _ctx, extra) => {
      const answer = acceptedContent(extra.inputResponses, 'user_name');
      if (typeof answer?.name !== 'string')
        return inputRequired({
          inputRequests: { user_name: inputRequired.elicit({ message: 'What is your name?', requestedSchema: NAME }) },
        });
      await sleep(300, extra.signal);
      return `Hello, ${answer.name}! Your task is done.`;
    }),
];
