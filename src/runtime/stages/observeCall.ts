import { monotonicClock } from '../../_internal/clock.js';
import type { ToolResponse } from '../../protocol/types.js';
import { thrownBy } from '../../protocol/thrownBy.js';
import { requestPrincipal } from '../../principal/requestPrincipal.js';
import { ScopeFilter } from '../../auth/ScopeFilter.js';
import type { RequestContext } from '../../surface/types.js';
import type { DebugEvent } from '../../tracing/types.js';
import type { CallExtra } from '../core/CallExtra.js';
import type { ClientAnswer } from '../core/clientAnswers.js';
import { composeStages, type CallStage, type NextStage } from './callStages.js';
import { isNotRun } from './notRun.js';

/** Entry times of the stages one observed call went through, flat (`name, time, name, time, …`; `handler`, then `after`). */
export type StageMarks = Array<string | number>;

/** A tool's call path: its stages, then its handler; each timed when an observer is set (otherwise nothing is). */
export function composeCall(
  stages: ReadonlyArray<readonly [string, CallStage]>,
  run: NextStage,
  observed: boolean,
): NextStage {
  if (!observed)
    return composeStages(
      stages.map(([, stage]) => stage),
      run,
    );
  return composeStages(
    stages.map(([name, stage]) => timedStage(name, stage)),
    timedHandler(run),
  );
}

/** A stage that notes when the call reached it (compiled only when an observer is set). */
export function timedStage(name: string, stage: CallStage): CallStage {
  return (call, next) => {
    call.marks?.push(name, monotonicClock.now());
    return stage(call, next);
  };
}

/** The handler, timed: its entry and its return, so that what follows (State Sync, the transition) is `after`. */
export function timedHandler(run: NextStage): NextStage {
  return (call) => {
    const marks = call.marks;
    if (marks === undefined) return run(call);
    marks.push('handler', monotonicClock.now());
    return run(call).then((result) => {
      marks.push('after', monotonicClock.now());
      return result;
    });
  };
}

/**
 * Runs one `tools/call` and tells `emit` what the agent read: a `result` event with the text, the caller,
 * the stage timings and, for a handler that threw, its stack. A rejection (an unknown or hidden tool) is a
 * refusal whose text is the error's message; it is rethrown unchanged.
 */
export function observeCall(
  tool: string,
  args: unknown,
  rctx: RequestContext & { readonly extra: CallExtra },
  emit: (event: DebugEvent) => void,
  run: (marks: StageMarks) => Promise<ToolResponse>,
): Promise<ToolResponse> {
  const marks: StageMarks = [];
  const answers: ClientAnswer[] = [];
  rctx.extra.answers = answers;
  const started = monotonicClock.now();
  const report = (ok: boolean, text: string, stack?: string): void => {
    const ended = monotonicClock.now();
    const principal = requestPrincipal(rctx);
    // One literal of a fixed shape (no conditional spreads): cheap to build and to copy.
    emit({
      type: 'result',
      tool,
      sessionId: rctx.sessionKey,
      workflowKey: rctx.extra.workflow?.key,
      principal: principal.key,
      scopes: ScopeFilter.scopesOf(rctx.extra.authInfo),
      args,
      ok,
      refused: !marks.includes('handler'),
      text,
      durationMs: ended - started,
      stages: stagesOf(marks, ended),
      stack,
      answers: answers.length > 0 ? answers : undefined,
    });
  };
  return run(marks).then(
    (result) => {
      // An admission-only pass (a queued task's call on the front): the agent reads the task, the run reports.
      if (isNotRun(result)) return result;
      const error = result.isError === true ? thrownBy(result)?.error : undefined;
      report(result.isError !== true, textOf(result), error instanceof Error ? error.stack : undefined);
      return result;
    },
    (error: unknown) => {
      report(false, error instanceof Error ? error.message : String(error));
      throw error;
    },
  );
}

function stagesOf(marks: StageMarks, ended: number): Array<{ stage: string; ms: number }> {
  const stages: Array<{ stage: string; ms: number }> = [];
  for (let i = 0; i < marks.length; i += 2)
    stages.push({
      stage: marks[i] as string,
      ms: ((marks[i + 3] as number | undefined) ?? ended) - (marks[i + 1] as number),
    });
  return stages;
}

function textOf(result: ToolResponse): string {
  const only = result.content?.length === 1 ? (result.content[0] as { type?: unknown; text?: unknown }) : undefined;
  if (only?.type === 'text') return String(only.text);
  return (result.content ?? [])
    .map((block) =>
      (block as { type?: unknown }).type === 'text'
        ? String((block as { text?: unknown }).text)
        : `[${String((block as { type?: unknown }).type)}]`,
    )
    .join('\n');
}
