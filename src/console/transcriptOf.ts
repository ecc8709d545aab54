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
  for (const { event, visible } of events) {
    if (event.type !== 'result' || (event.sessionId !== key && event.workflowKey !== key)) continue;
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
  };
}
