import type { ToolResponse } from '../../protocol/types.js';
import { JsonRpcCode, WireError } from '../../errors/WireError.js';
import { messages } from '../../protocol/messages.js';
import { contentMessages } from '../../protocol/contentMessages.js';
import type { ContentCall } from '../stages/contentCall.js';
import { CallExtra } from '../core/CallExtra.js';
import { guardHandler } from '../core/guardHandler.js';
import { logHandlerError } from '../core/logHandlerError.js';
import type { RuntimeCore } from '../core/RuntimeCore.js';
import { logFields } from '../stages/callLogFields.js';

/** A handler's value carried through the deadline (which settles with tool results). */
class Settled {
  constructor(readonly value: unknown) {}
}

/**
 * The handler, last on a prompt's, resource's or completion's path: under its deadline (the `timeoutMs`
 * option, the request's cancellation, shutdown), with the context factory's context made when the handler
 * asks for it. Failures are JSON-RPC errors with the same texts as a tool's `isError` results, logged once.
 */
export function runContent(core: RuntimeCore): (call: ContentCall) => Promise<unknown> {
  const { tracker, timeoutMs, log } = core;
  const factory = core.options.contextFactory;
  return (call) => {
    const { label, rctx } = call;
    // Every extra in its one shape (the adapters' is one already: no copy).
    const extra = CallExtra.of(rctx.extra, rctx.sessionKey);
    const failed = (what: string) => (error: unknown) => log.error(what, logFields(label, extra), error);
    const context = async (): Promise<unknown> => {
      if (factory === undefined) return undefined;
      try {
        return await factory(extra);
      } catch (error) {
        failed('contextFactory threw')(error);
        throw new WireError(JsonRpcCode.InternalError, contentMessages.contextFailed(label, error));
      }
    };
    const settled = tracker.deadlines.run(label, timeoutMs, extra, async (running) => {
      extra.beginRun(running, core.sessionOf);
      const value = await guardHandler(
        label,
        () => call.run(context, extra),
        undefined,
        (error) =>
          logHandlerError(log, 'handler threw', logFields(label, extra), { error, aborted: running.signal.aborted }),
      );
      return new Settled(value) as unknown as ToolResponse;
    });
    return settled.then((result) => {
      if (result instanceof Settled) return result.value;
      const ms = (result._meta?.['fusion/timeout'] as { ms?: number } | undefined)?.ms;
      throw new WireError(
        JsonRpcCode.InternalError,
        ms === undefined ? messages.dropped(label) : messages.ranOut(label, ms),
      );
    });
  };
}
