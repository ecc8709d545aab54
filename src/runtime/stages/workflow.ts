import { monotonicClock } from '../../_internal/clock.js';
import type { HandlerExtra, ToolResponse } from '../../protocol/types.js';
import { hasSuggestions } from '../../presenter/filterSuggestions.js';
import { thrownBy } from '../../protocol/thrownBy.js';
import type { OperatorLog } from '../../logging/OperatorLog.js';
import type { ToolCall } from './callStages.js';
import { callLogFields } from './callLogFields.js';
import { defineStage } from './StageDefinition.js';

/**
 * The workflow gate, when the `fsm` option is set: a bound tool runs inside its session's or handle's
 * workflow (visibility in the current state, transition and persistence on success); any other tool's
 * suggestions are filtered by the state.
 */
export const workflowStage = defineStage({
  name: 'workflow',
  tools: {
    appliesTo: (_tool, { workflow }) => workflow !== undefined,
    build: (tool, { workflow: gate, core }) => {
      const workflow = gate!;
      const log = core.log;
      if (tool.fsm === undefined) {
        const suggest = (call: ToolCall, result: ToolResponse): ToolResponse | Promise<ToolResponse> =>
          hasSuggestions(result)
            ? workflow.stateFor(call.rctx).then((state) => workflow.suggest(result, state))
            : result;
        return (call, next) => next(call).then((result) => suggest(call, result));
      }
      return (call, next) => {
        const started = monotonicClock.now();
        const run = (args: Record<string, unknown>, instance: WorkflowInstance): Promise<ToolResponse> =>
          next(withWorkflow(call, args, instance));
        const ran = workflow.run(call.tool, call.args, call.rctx, call.route, run);
        return ran.then((r) => logStoreFailure(r, call, started, log));
      };
    },
  },
});

type WorkflowInstance = NonNullable<HandlerExtra['workflow']>;

/** The call acting on a workflow instance: its extra gets it set. */
function withWorkflow(call: ToolCall, args: Record<string, unknown>, instance: WorkflowInstance): ToolCall {
  call.args = args;
  call.extra.workflow = instance;
  return call;
}

/** Logs a call whose workflow state could not be loaded or saved (the result carries the store's error). */
function logStoreFailure(result: ToolResponse, call: ToolCall, started: number, log: OperatorLog): ToolResponse {
  const thrown = thrownBy(result);
  if (thrown?.source !== 'store') return result;
  log.error('workflow state store failed', callLogFields(call, monotonicClock.now() - started, log), thrown.error);
  return result;
}
