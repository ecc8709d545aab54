import type { ConsoleEvent, Transcript, TranscriptStep } from './types.js';

const STATE_SYNC = /^\[System: /;

/**
 * The calls of one session (or workflow instance) among `events`, as a transcript that
 * `replayTranscript` from `mcp-fusion/testing` replays. Only the events still in the buffer count.
 */
export function transcriptOf(events: readonly ConsoleEvent[], key: string, now: number): Transcript {
  const steps: TranscriptStep[] = [];
  let principal: string | undefined;
  let scopes: readonly string[] = [];
  const cut: number[] = [];
  for (const { event, visible, cut: size } of events) {
    if (event.type !== 'result' || (event.sessionId !== key && event.workflowKey !== key)) continue;
    if (size !== undefined) cut.push(steps.length + 1);
    principal = event.principal;
    scopes = event.scopes;
    const blocks = event.text.split('\n');
    steps.push({
      tool: event.tool,
      args: (event.args ?? {}) as Record<string, unknown>,
      refused: event.refused,
      isError: !event.ok,
      text: event.text,
      stateSync: blocks.filter((line) => STATE_SYNC.test(line)),
      ...(visible !== undefined ? { visible } : {}),
    });
  }
  return {
    format: 'mcp-fusion/transcript@1',
    session: key,
    principal,
    scopes,
    recordedAt: new Date(now).toISOString(),
    steps,
    ...(cut.length > 0
      ? {
          incomplete: `step${cut.length === 1 ? '' : 's'} ${cut.join(', ')} ${cut.length === 1 ? 'was' : 'were'} larger than the console keeps per event (devConsole.maxEventBytes) and recorded cut: ${cut.length === 1 ? 'its' : 'their'} arguments are not the ones the agent sent, so the transcript cannot replay them`,
        }
      : {}),
  };
}
