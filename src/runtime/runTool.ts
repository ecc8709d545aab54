import type { ToolExtra, ToolResponse } from '../protocol/types.js';
import { errorResult } from '../protocol/normalizeResult.js';
import { messages } from '../protocol/messages.js';
import { neutralizeResult } from '../protocol/neutralizeSignals.js';
import { markThrown, thrownBy } from '../protocol/thrownBy.js';
import type { OperatorLog } from '../logging/OperatorLog.js';
import type { NextStage, ToolCall } from './callStages.js';
import { CallExtra } from './CallExtra.js';
import { callLogFields } from './callLogFields.js';
import type { RuntimeCore } from './RuntimeCore.js';

/**
 * The handler, last on a tool's path: the tool under its deadline (timeout, the request's cancellation,
 * shutdown) with the context factory's context. The extra gets the run's signal and its session data, both
 * made on first read. A throwing handler or context factory is an `isError` result, logged once.
 */
export function runTool(core: RuntimeCore): NextStage {
  const { tracker, timeoutMs, sessionOf, log } = core;
  const contextFactory = core.options.contextFactory;
  return (call) => {
    const { tool, args, extra } = call;
    // The adapters' own extra takes the run's parts; an extra built elsewhere (runtime.tools.callTool) gets a copy with them.
    const own = extra instanceof CallExtra;
    return tracker.deadlines.run(
      tool.name,
      tool.timeoutMs ?? timeoutMs,
      own ? extra : { requestSignal: extra.signal },
      (running) => {
        let scoped: ToolExtra;
        if (own) {
          extra.beginRun(running, sessionOf);
          scoped = extra;
        } else {
          scoped = {
            ...extra,
            session: sessionOf(extra, call.scope.sessionKey),
            get signal() {
              return running.signal;
            },
          };
        }
        const started = performance.now();
        // Handler text that reads like a framework signal is marked as data before any signal block is added.
        const pending =
          contextFactory === undefined
            ? tool.run(args, undefined, scoped).then(neutralizeResult)
            : withContext(
                contextFactory,
                scoped,
                (ctx) => tool.run(args, ctx, scoped).then(neutralizeResult),
                tool.name,
              );
        return logFailure(pending, call, started, log);
      },
    );
  };
}

/** Logs a call whose handler or context factory threw (the result carries the error) or whose run rejected. */
function logFailure(
  pending: Promise<ToolResponse>,
  call: ToolCall,
  started: number,
  log: OperatorLog,
): Promise<ToolResponse> {
  return pending.then(
    (result) => {
      const thrown = thrownBy(result);
      if (thrown !== undefined) {
        const message = thrown.source === 'handler' ? 'tool handler threw' : 'contextFactory threw';
        log.error(message, callLogFields(call, performance.now() - started, log), thrown.error);
      }
      return result;
    },
    (error: unknown) => {
      log.error('tool call failed', callLogFields(call, performance.now() - started, log), error);
      throw error;
    },
  );
}

async function withContext<Ctx>(
  factory: (extra: ToolExtra) => Ctx | Promise<Ctx>,
  extra: ToolExtra,
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
