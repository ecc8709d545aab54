import { monotonicClock } from '../../_internal/clock.js';
import { isNotRun } from './notRun.js';
import { defineStage } from './StageDefinition.js';

/**
 * Counts the request as running, so that a graceful drain waits for it (every tool, prompt, resource and
 * completion), and reports each tool call to the debug observer when there is one.
 */
export const trackStage = defineStage({
  name: 'track',
  tools: {
    appliesTo: () => true,
    build: (_tool, { core }) => {
      const { tracker, debug } = core;
      if (debug === undefined) return (call, next) => tracker.track(next, call);
      return (call, next) =>
        tracker.track(async () => {
          const started = monotonicClock.now();
          const result = await next(call);
          // An admission-only pass (a queued task's call on the front): no call ran, the worker's run reports.
          if (isNotRun(result)) return result;
          const durationMs = monotonicClock.now() - started;
          const ok = result.isError !== true;
          debug({ type: 'call', tool: call.tool.name, ok, durationMs, sessionId: call.rctx.sessionKey });
          return result;
        }, undefined);
    },
  },
  content: {
    appliesTo: () => true,
    build:
      (_target, { core }) =>
      (call, next) =>
        core.tracker.track(next, call),
  },
});
