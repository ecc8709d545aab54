import type { ConsoleEvent, Transcript, TranscriptStep } from './types.js';

const STATE_SYNC = /^\[System: /;

/**
 * The calls of one session (or workflow instance) among `events`, as a transcript that
 * `replayTranscript` from `mcp-fusion/testing` replays. Only the events still in the buffer count: `calls`
 * (how many the console saw, from its session row) tells when some were pushed out, and the transcript then
 * says so (`incomplete`), as it does for a step kept cut. A task the client cancelled is a `cancelled` step.
 */
export function transcriptOf(events: readonly ConsoleEvent[], key: string, now: number, calls?: number): Transcript {
  const steps: TranscriptStep[] = [];
  let principal: string | undefined;
  let scopes: readonly string[] = [];
  const cut: number[] = [];
  const cancelled = cancelledTasks(events);
  // The task a call of this session started, by tool, until the call's result binds it.
  const started = new Map<string, string>();
  for (const { event, visible, cut: size } of events) {
    if (event.type === 'task' && event.status === 'working' && event.sessionId === key)
      started.set(event.tool, event.taskId);
    if (event.type !== 'result' || (event.sessionId !== key && event.workflowKey !== key)) continue;
    if (size !== undefined) cut.push(steps.length + 1);
    principal = event.principal;
    scopes = event.scopes;
    const task = started.get(event.tool);
    started.delete(event.tool);
    steps.push({
      tool: event.tool,
      args: (event.args ?? {}) as Record<string, unknown>,
      refused: event.refused,
      isError: !event.ok,
      text: event.text,
      stateSync: event.text.split('\n').filter((line) => STATE_SYNC.test(line)),
      ...(visible !== undefined ? { visible } : {}),
      ...(event.answers !== undefined ? { answers: event.answers } : {}),
      ...(task !== undefined && cancelled.has(task) ? { cancelled: true as const } : {}),
    });
  }
  const lost = calls === undefined ? 0 : calls - steps.length;
  const why = [
    ...(lost > 0
      ? [
          `${lost} of its ${calls} calls ${lost === 1 ? 'was' : 'were'} pushed out of the console's buffer before the export (raise devConsole.maxEvents or maxBytes, or export sooner): the transcript starts mid-session`,
        ]
      : []),
    ...(cut.length > 0
      ? [
          `step${cut.length === 1 ? '' : 's'} ${cut.join(', ')} ${cut.length === 1 ? 'was' : 'were'} larger than the console keeps per event (devConsole.maxEventBytes) and recorded cut: ${cut.length === 1 ? 'its' : 'their'} arguments are not the ones the agent sent, so the transcript cannot replay them`,
        ]
      : []),
  ];
  return {
    format: 'mcp-fusion/transcript@1',
    session: key,
    principal,
    scopes,
    recordedAt: new Date(now).toISOString(),
    steps,
    ...(why.length > 0 ? { incomplete: why.join('; ') } : {}),
  };
}

/** The ids of the tasks whose status became `cancelled`. */
function cancelledTasks(events: readonly ConsoleEvent[]): Set<string> {
  const ids = new Set<string>();
  for (const { event } of events) if (event.type === 'task' && event.status === 'cancelled') ids.add(event.taskId);
  return ids;
}
