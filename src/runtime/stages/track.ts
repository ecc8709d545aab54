import { monotonicClock } from '../../_internal/clock.js';
import { isNotRun } from './notRun.js';
import { defineStage } from './StageDefinition.js';

/**
 * Reports each tool call to the debug observer, when there is one (its tool, outcome and duration). The
 * count of requests in flight is not kept here: every method is counted by its one wrapper
 * (`adapter/wireRuntime.ts`), and a tool call's run by `ToolRuntime.callTool` (a task's run outlives its request).
 */
export const trackStage = defineStage({
  name: 'track',
  tools: {
    appliesTo: (_tool, { core }) => core.debug !== undefined,
    build: (_tool, { core }) => {
      const debug = core.debug!;
      return async (call, next) => {
        const started = monotonicClock.now();
        const result = await next(call);
        // An admission-only pass (a queued task's call on the front): no call ran, the worker's run reports.
        if (isNotRun(result)) return result;
        const durationMs = monotonicClock.now() - started;
        const ok = result.isError !== true;
        debug({ type: 'call', tool: call.tool.name, ok, durationMs, sessionId: call.rctx.sessionKey });
        return result;
      };
    },
  },
});
