import type { HandlerExtra, ToolResponse } from '../../protocol/types.js';
import { errorResult } from '../../protocol/normalizeResult.js';
import { messages } from '../../protocol/messages.js';
import { neutralizeResult } from '../../protocol/neutralizeSignals.js';
import { markThrown, thrownBy } from '../../protocol/thrownBy.js';
import type { NextStage, ToolCall } from '../stages/callStages.js';
import { callLogFields } from '../stages/callLogFields.js';
import type { RunningHandler } from '../core/Deadlines.js';
import type { RuntimeCore } from '../core/RuntimeCore.js';
import { logHandlerError } from '../core/logHandlerError.js';

/**
 * The handler, last on a tool's path: the tool under its deadline (timeout, the request's cancellation,
 * shutdown) with the context factory's context, once a task's record exists (`extra.admitted`). The extra
 * gets the run's signal and its session data, both made on first read. A throwing handler or context factory is an `isError` result, logged once.
 */
export function runTool(core: RuntimeCore): NextStage {
  const { tracker, timeoutMs, sessionOf, log } = core;
  const contextFactory = core.options.contextFactory;
  const clock = tracker.deadlines.clock;
  // Built once: a call's run is this function with the call as its argument, not a closure per call.
  const start = (running: RunningHandler, call: ToolCall): Promise<ToolResponse> => {
    const { tool, args, extra: scoped } = call;
    scoped.beginRun(running, sessionOf);
    const pending =
      contextFactory === undefined
        ? tool.run(args, undefined, scoped)
        : withContext(contextFactory, scoped, (ctx) => tool.run(args, ctx, scoped), tool.name);
    // One reaction: the handler text that reads like a framework signal is marked as data before any signal
    // block is added, and a failure is logged with its duration (from the deadline's start: no second clock read).
    return pending.then(
      (result) => {
        const thrown = thrownBy(result);
        if (thrown !== undefined) {
          const fields = callLogFields(call, clock.now() - running.started, log);
          // A context factory that throws is the server's own failure; a handler's error is the call's outcome.
          if (thrown.source !== 'handler') log.error('contextFactory threw', fields, thrown.error);
          else
            logHandlerError(log, 'tool handler threw', fields, {
              error: thrown.error,
              aborted: running.signal.aborted,
            });
        }
        return neutralizeResult(result);
      },
      (error: unknown) => {
        log.error('tool call failed', callLogFields(call, clock.now() - running.started, log), error);
        throw error;
      },
    );
  };
  const run = (call: ToolCall): Promise<ToolResponse> =>
    tracker.deadlines.run(call.tool.name, call.tool.timeoutMs ?? timeoutMs, call.extra, start, call);
  // A task's call: every stage admitted it; its record is made now, and the handler runs once it exists.
  return (call) => {
    const admitted = call.extra.admitted?.();
    return admitted === undefined ? run(call) : admitted.then((answer) => answer ?? run(call));
  };
}

async function withContext<Ctx>(
  factory: (extra: HandlerExtra) => Ctx | Promise<Ctx>,
  extra: HandlerExtra,
  run: (ctx: Ctx) => Promise<ToolResponse>,
  tool: string,
): Promise<ToolResponse> {
  let ctx: Ctx;
  try {
    ctx = await factory(extra);
  } catch (error) {
    return markThrown(errorResult(messages.contextFailed(tool, error)), error, 'contextFactory');
  }
  return run(ctx);
}
