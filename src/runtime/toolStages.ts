import type { ToolExtra, ToolResponse } from '../protocol/types.js';
import { errorResult, isInputRequired } from '../protocol/normalizeResult.js';
import { hasSuggestions } from '../presenter/filterSuggestions.js';
import { insufficientScope } from '../auth/insufficientScope.js';
import { ScopeGate } from '../auth/ScopeGate.js';
import type { RateLimiter } from './RateLimiter.js';
import type { ResultDecorator } from '../state-sync/compileResultDecorator.js';
import { traceRefusal } from '../tracing/traceRefusal.js';
import type { CallStage, NextStage, ToolCall } from './callStages.js';
import { CallTracker } from './CallTracker.js';
import type { Route } from '../surface/compileSurface.js';
import { messages } from '../protocol/messages.js';
import { protoKeyPath } from '../protocol/protoKeys.js';
import { neutralizeResult } from '../protocol/neutralizeSignals.js';
import { CallExtra } from './CallExtra.js';
import type { Deadlines } from './Deadlines.js';
import type { WorkflowRuntime } from '../workflow/WorkflowRuntime.js';
import type { OperatorLog } from '../logging/OperatorLog.js';
import { markThrown, thrownBy } from '../protocol/thrownBy.js';
import { callLogFields } from './callLogFields.js';

/** Run-time switch: a disabled tool is answered as unknown, with what is available now (`hidden` throws that). */
export function switchStage(isDisabled: (name: string) => boolean, hidden: (call: ToolCall) => Promise<never>): CallStage {
  return (call, next) => (isDisabled(call.tool.name) ? hidden(call) : next(call));
}

/** Per-tool scopes: a token lacking one of the tool's scopes gets `insufficient_scope` naming them. */
export function scopeStage(scopes: ScopeGate<unknown>): CallStage {
  return async (call, next) => {
    const missing = scopes.missing(call.tool, ScopeGate.scopesOf(call.scope.extra.authInfo));
    if (missing.length === 0) return next(call);
    const { route, tool } = call;
    const what = route.kind === 'flat' ? route.exposed : `${route.exposed} (${route.discriminator} "${actionKey(route, tool)}")`;
    return traceRefusal(call.scope.trace, insufficientScope(what, tool.requiredScopes!, missing), 'insufficient_scope');
  };
}

/** Rate limits (server-wide and the tool's own), counted per principal; `onRefused` hears each refusal. */
export function rateStage(limiter: RateLimiter, onRefused?: (call: ToolCall) => void): CallStage {
  return async (call, next) => {
    const limited = await limiter.hit(call.tool, call.scope);
    if (limited === undefined) return next(call);
    onRefused?.(call);
    return traceRefusal(call.scope.trace, limited, 'rate_limited');
  };
}

/** `maxConcurrentCalls`: at most `limit` calls running per principal; the next is refused with what to do. */
export function concurrencyStage(tracker: CallTracker, limit: number, onRefused: (call: ToolCall) => void): CallStage {
  return async (call, next) => {
    const owner = CallTracker.ownerOf(call.scope);
    if (!tracker.acquire(owner, limit)) {
      onRefused(call);
      return traceRefusal(call.scope.trace, errorResult(messages.tooManyCalls(call.route.exposed, limit, owner.startsWith('a:') && call.scope.stateKey !== undefined)), 'too_many_calls');
    }
    try {
      return await next(call);
    } finally {
      tracker.release(owner);
    }
  };
}

/** Counts the call as running (graceful drain) and reports it to the debug observer when there is one. */
export function trackStage(tracker: CallTracker, report: ((call: ToolCall, ok: boolean, durationMs: number) => void) | undefined): CallStage {
  if (report === undefined) return (call, next) => tracker.track(next, call);
  return (call, next) =>
    tracker.track(async () => {
      const started = performance.now();
      const result = await next(call);
      report(call, result.isError !== true, performance.now() - started);
      return result;
    }, undefined);
}

/**
 * The workflow gate: a bound tool runs inside its session's or handle's workflow (visibility in the current
 * state, transition and persistence on success); any other tool's suggestions are filtered by the state.
 */
export function workflowStage(workflow: WorkflowRuntime, bound: boolean, log?: OperatorLog): CallStage {
  if (bound) {
    return (call, next) => {
      const started = performance.now();
      const result = workflow.run(call.tool, call.args, call.scope, call.route, (args, instance) => next(withWorkflow(call, args, instance)));
      return log === undefined ? result : result.then((r) => logStoreFailure(r, call, started, log));
    };
  }
  return (call, next) => next(call).then((result) => (hasSuggestions(result) ? workflow.stateFor(call.scope).then((state) => workflow.suggest(result, state)) : result));
}

/** Strict validation of the arguments; an invalid call gets the issues and the accepted fields. */
export const validateStage: CallStage = (call, next) => {
  const { tool, route, args } = call;
  const proto = protoKeyPath(args);
  const parsed = proto === undefined ? tool.validate(args) : { ok: false as const, issues: [{ path: proto, message: 'unknown field' }] };
  if (parsed.ok) {
    call.args = parsed.value as Record<string, unknown>;
    return next(call);
  }
  const accepted = Object.keys(tool.inputSchema.properties ?? {});
  return Promise.resolve(
    errorResult(
      route.kind === 'flat'
        ? messages.invalidArguments(route.exposed, parsed.issues, accepted)
        : messages.invalidActionArguments(route.exposed, route.discriminator, actionKey(route, tool), parsed.issues, accepted),
    ),
  );
};

/** State Sync: the tool's decorator, compiled once (signal block, `_meta`, announcements), on every final result. */
export function syncStage(decorate: ResultDecorator): CallStage {
  const after = (result: ToolResponse): ToolResponse => (isInputRequired(result) ? result : decorate(result));
  return (call, next) => next(call).then(after);
}

/** The call acting on a workflow instance: the framework's own extra gets it set, any other a copy with it. */
function withWorkflow(call: ToolCall, args: Record<string, unknown>, instance: NonNullable<ToolExtra['workflow']>): ToolCall {
  call.args = args;
  if (call.extra instanceof CallExtra) call.extra.workflow = instance;
  else call.extra = { ...call.extra, workflow: instance };
  return call;
}

/** What the handler stage needs besides the tool: the context factory and whose `extra.session` a call gets. */
export interface RunParts<Ctx> {
  readonly contextFactory: ((extra: ToolExtra) => Ctx | Promise<Ctx>) | undefined;
  /** Whose data `extra.session` is: the request's legacy session (`stateKey`), else its workflow instance or principal. */
  readonly sessionOf: (extra: ToolExtra, stateKey: string | undefined) => NonNullable<ToolExtra['session']>;
  /** Where a throwing handler or context factory is logged (once, with the call's fields and the stack). */
  readonly log?: OperatorLog | undefined;
}

/**
 * The handler, last: the tool under its deadline (timeout, the request's cancellation, shutdown) with the
 * context factory's context. The extra gets the run's signal and its session data, both made on first read.
 */
export function runStage<Ctx>(deadlines: Deadlines, timeoutMs: number, parts: RunParts<Ctx>): NextStage {
  const { contextFactory, sessionOf, log } = parts;
  return (call) => {
    const { tool, args, extra } = call;
    // The adapters' own extra takes the run's parts; an extra built elsewhere (runtime.tools.callTool) gets a copy with them.
    const own = extra instanceof CallExtra;
    return deadlines.run(tool.name, tool.timeoutMs ?? timeoutMs, own ? extra : { requestSignal: extra.signal }, (running) => {
      let scoped: ToolExtra;
      if (own) {
        extra.beginRun(running, sessionOf);
        scoped = extra;
      } else {
        scoped = {
          ...extra,
          session: sessionOf(extra, call.scope.stateKey),
          get signal() {
            return running.signal;
          },
        };
      }
      const started = log === undefined ? 0 : performance.now();
      // Handler text that reads like a framework signal is marked as data before any signal block is added.
      const pending =
        contextFactory === undefined
          ? tool.run(args, undefined as Ctx, scoped).then(neutralizeResult)
          : withContext(contextFactory, scoped, (ctx) => tool.run(args, ctx, scoped).then(neutralizeResult), tool.name);
      return log === undefined ? pending : logFailure(pending, call, started, log);
    });
  };
}

/** Logs a call whose workflow state could not be loaded or saved (the result carries the store's error). */
function logStoreFailure(result: ToolResponse, call: ToolCall, started: number, log: OperatorLog): ToolResponse {
  const thrown = thrownBy(result);
  if (thrown?.source === 'store') log.error('workflow state store failed', callLogFields(call, performance.now() - started, log), thrown.error);
  return result;
}

/** Logs a call whose handler or context factory threw (the result carries the error) or whose run rejected. */
function logFailure(pending: Promise<ToolResponse>, call: ToolCall, started: number, log: OperatorLog): Promise<ToolResponse> {
  return pending.then(
    (result) => {
      const thrown = thrownBy(result);
      if (thrown !== undefined) log.error(thrown.source === 'handler' ? 'tool handler threw' : 'contextFactory threw', callLogFields(call, performance.now() - started, log), thrown.error);
      return result;
    },
    (error: unknown) => {
      log.error('tool call failed', callLogFields(call, performance.now() - started, log), error);
      throw error;
    },
  );
}

async function withContext<Ctx>(factory: (extra: ToolExtra) => Ctx | Promise<Ctx>, extra: ToolExtra, run: (ctx: Ctx) => Promise<ToolResponse>, tool: string): Promise<ToolResponse> {
  let ctx: Ctx;
  try {
    ctx = await factory(extra);
  } catch (error) {
    return markThrown(errorResult(messages.contextFailed(tool, error)), error, 'contextFactory');
  }
  return run(ctx);
}

/** The action key of `tool` in a grouped route (its own name in a flat one). */
export function actionKey(route: Route, tool: ToolCall['tool']): string {
  if (route.kind === 'grouped') for (const [key, t] of route.actions) if (t === tool) return key;
  return tool.name;
}
