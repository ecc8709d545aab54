import { errorResult } from '../../protocol/normalizeResult.js';
import { messages } from '../../protocol/messages.js';
import { traceRefusal } from '../../tracing/traceRefusal.js';
import { CallTracker } from '../core/CallTracker.js';
import { logRefusal } from './callLogFields.js';
import { defineStage } from './StageDefinition.js';

/**
 * `maxConcurrentCalls`: at most that many tool calls running per principal (their tickets in the one count of
 * `CallTracker`, owned while they run); the next is refused with what to do.
 */
export const concurrencyStage = defineStage({
  name: 'concurrency',
  tools: {
    appliesTo: (_tool, { core }) => core.options.maxConcurrentCalls !== undefined,
    build: (_tool, { core }) => {
      const { tracker, log } = core;
      const limit = core.options.maxConcurrentCalls!;
      return async (call, next) => {
        const owner = CallTracker.ownerOf(call.rctx);
        if (!tracker.own(call.ticket, owner, limit)) {
          core.emit({ type: 'refusal', tool: call.tool.name, reason: 'budget', sessionId: call.rctx.sessionKey });
          logRefusal(log, call, 'too_many_calls');
          const perSession = owner.startsWith('a:') && call.rctx.sessionKey !== undefined;
          const refusal = errorResult(messages.tooManyCalls(call.route.exposed, limit, perSession));
          return traceRefusal(call.rctx.trace, refusal, 'too_many_calls');
        }
        try {
          return await next(call);
        } finally {
          tracker.disown(call.ticket);
        }
      };
    },
  },
});
