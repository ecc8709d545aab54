import type { ToolRegistry } from '../registry/ToolRegistry.js';
import type { Transcript, TranscriptStep } from '../console/types.js';
import { FusionError } from '../errors/FusionError.js';
import { createTestClient, type TestClientOptions } from './createTestClient.js';

export type { Transcript, TranscriptStep };

/** A replayed transcript went another way than the recorded session: the message names the step and the difference. */
export class TranscriptMismatchError extends FusionError {}

/** What {@link replayTranscript} checked. */
export interface ReplayReport {
  /** Steps replayed (every one matched). */
  steps: number;
}

const STATE_SYNC = /^\[System: /;

/**
 * Replays a session exported by the dev console (its "export session as a test" link) against `registry`
 * through a real SDK `Client` in-process, and checks at every step what the agent read then: the same
 * refusals and errors (their exact text), the same State Sync blocks, and the same tools listed after the
 * call. Throws a {@link TranscriptMismatchError} naming the first step that differs. Pass the options the
 * server ran with (`fsm`, `stateSync`, …); the transcript's scopes become the client's token unless
 * `authInfo` is given. Transcripts of legacy sessions replay; a workflow instance's handle is minted anew
 * on each run, so one recorded with handles does not.
 * @example
 * const transcript = JSON.parse(readFileSync('test/transcripts/checkout.json', 'utf8'));
 * await replayTranscript(registry, transcript, { fsm: checkout, stateSync });
 * @see docs/console.md
 */
export async function replayTranscript<Ctx>(
  registry: ToolRegistry<Ctx>,
  transcript: Transcript,
  options: TestClientOptions<Ctx> = {},
): Promise<ReplayReport> {
  if (transcript?.format !== 'mcp-fusion/transcript@1' || !Array.isArray(transcript.steps)) {
    throw new TranscriptMismatchError(
      'TRANSCRIPT_FORMAT',
      'The transcript is not an mcp-fusion transcript (format "mcp-fusion/transcript@1" with steps); export one from the dev console\'s session panel.',
      {},
    );
  }
  const authInfo =
    options.authInfo ??
    (transcript.scopes.length > 0
      ? { token: 'replay', clientId: 'replay', scopes: [...transcript.scopes] }
      : undefined);
  await using client = await createTestClient(registry, {
    ...options,
    ...(authInfo !== undefined ? { authInfo } : {}),
  });
  for (const [i, step] of transcript.steps.entries()) {
    const got = await client.callTool(step.tool, step.args).then(
      (result) => ({
        isError: result.isError === true,
        text: result.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'),
      }),
      (error: unknown) => ({
        isError: true,
        text: (error instanceof Error ? error.message : String(error)).replace(/^MCP error -?\d+: /, ''),
      }),
    );
    const where = `Step ${i + 1} of ${transcript.steps.length} (${step.tool})`;
    if (got.isError !== step.isError)
      fail(
        where,
        step.isError ? 'an error or refusal' : 'a result',
        got.isError ? `an error: ${got.text}` : 'a result',
        step,
      );
    if (step.isError && got.text !== step.text)
      fail(where, `the text ${JSON.stringify(step.text)}`, JSON.stringify(got.text), step);
    const sync = got.text.split('\n').filter((line) => STATE_SYNC.test(line));
    if (JSON.stringify(sync) !== JSON.stringify(step.stateSync))
      fail(where, `State Sync ${JSON.stringify(step.stateSync)}`, JSON.stringify(sync), step);
    if (step.visible !== undefined) {
      const visible = await client.listToolNames();
      if (JSON.stringify(visible) !== JSON.stringify(step.visible))
        fail(`${where}, then tools/list`, JSON.stringify(step.visible), JSON.stringify(visible), step);
    }
  }
  return { steps: transcript.steps.length };
}

function fail(where: string, expected: string, got: string, step: TranscriptStep): never {
  throw new TranscriptMismatchError(
    'TRANSCRIPT_MISMATCH',
    `${where}: the recorded session read ${expected}, the replay got ${got}. The registry or its options changed since the recording, or the replay needs the options the server ran with.`,
    { tool: step.tool, expected, got },
  );
}
