import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { traceRefusal } from '../../tracing/traceRefusal.js';
import { logRefusal } from './callLogFields.js';
import { logFields } from './callLogFields.js';
import { defineStage } from './StageDefinition.js';

/**
 * Rate limits, counted per principal: a tool has it when the server-wide limit or its own `.rateLimit()`
 * applies; prompts, resources and completion when the server-wide limit is set (in a count of their own).
 * A refusal says when to retry: an `isError` result for tools, a -32603 error with the same text otherwise.
 */
export const rateLimitStage = defineStage({
  name: 'rateLimit',
  tools: {
    appliesTo: (tool, { limits }) => limits?.applies(tool) === true,
    build:
      (_tool, { limits, core }) =>
      async (call, next) => {
        // A task's run whose call spent the limit when the stages admitted it (a worker's, a retry's).
        if (call.extra.rateLimitSpent) return next(call);
        const limited = await limits!.hit(call.tool, call.rctx);
        if (limited === undefined) return next(call);
        logRefusal(core.log, call, 'rate_limited');
        return traceRefusal(call.rctx.trace, limited, 'rate_limited');
      },
  },
  content: {
    appliesTo: (_target, { limits }) => limits?.serverWide === true,
    build:
      (_target, { limits, core }) =>
      async (call, next) => {
        const limited = await limits!.hitRequest(call.label, call.rctx);
        if (limited === undefined) return next(call);
        const text = (limited.content[0] as { text: string }).text;
        call.rctx.trace?.refusal('rate_limited', text);
        const fields = { ...logFields(call.label, call.rctx.extra), reason: 'rate_limited' };
        if (core.log.enabled('warn'))
          core.log.refusal(`rate_limited:${call.label}`, 'rate limit refused a request', fields);
        throw new WireError(JsonRpcCode.InternalError, text, limited._meta);
      },
  },
});
