import { Client } from '@modelcontextprotocol/client';
import type { ToolRegistry } from '../registry/ToolRegistry.js';
import type { Transcript, TranscriptStep } from '../console/types.js';
import { FusionError } from '../errors/FusionError.js';
import { connectTestClient, type TestClient, type TestClientOptions } from './createTestClient.js';
import { ReplayAnswers } from './replayAnswers.js';
import { likelyCause, type StepEvidence } from './transcriptCauses.js';

export type { Transcript, TranscriptStep };

/**
 * A transcript that cannot replay (not a transcript, empty, or recorded incomplete), or a replay that went
 * another way than the recorded session: the message names the step, the difference and its likely cause.
 */
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
 * call. The client answers the handler's elicitation and sampling requests as the recorded client did, and a
 * task the recorded client cancelled is started as a task and cancelled. Throws a
 * {@link TranscriptMismatchError} naming the first step that differs and the likely cause it sees, or, before
 * any call, for a transcript that is empty or recorded incomplete (events pushed out of the console's
 * buffer). Pass the options the server ran with (`fsm`, `stateSync`, …); the transcript's scopes become the
 * client's token unless `authInfo` is given. Transcripts of legacy sessions replay; a workflow instance's
 * handle is minted anew on each run, so one recorded with handles does not.
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
  refuseUnreplayable(transcript);
  const authInfo =
    options.authInfo ??
    (transcript.scopes.length > 0
      ? { token: 'replay', clientId: 'replay', scopes: [...transcript.scopes] }
      : undefined);
  const sdk = new Client(
    { name: 'mcp-fusion-replay', version: '1.0.0' },
    { capabilities: { elicitation: {}, sampling: {} } },
  );
  const answers = new ReplayAnswers(sdk);
  await using client = await connectTestClient(
    registry,
    { ...options, ...(authInfo !== undefined ? { authInfo } : {}) },
    sdk,
  );
  for (const [i, step] of transcript.steps.entries()) {
    answers.begin(step.answers);
    const evidence = (): StepEvidence => ({
      step,
      unanswered: answers.unanswered,
      unused: answers.unused,
      fsm: options.fsm !== undefined,
    });
    const where = `Step ${i + 1} of ${transcript.steps.length} (${step.tool}${step.cancelled ? ', a task the client cancelled' : ''})`;
    const got = step.cancelled ? await cancelledTask(client, step) : await called(client, step);
    if (step.cancelled) {
      if (got.text !== 'cancelled') fail(where, 'a task it cancelled', got.text, evidence());
    } else {
      if (got.isError !== step.isError)
        fail(
          where,
          step.isError ? 'an error or refusal' : 'a result',
          got.isError ? `an error: ${got.text}` : 'a result',
          evidence(),
        );
      if (step.isError && got.text !== step.text)
        fail(where, `the text ${JSON.stringify(step.text)}`, JSON.stringify(got.text), evidence());
      const sync = got.text.split('\n').filter((line) => STATE_SYNC.test(line));
      if (JSON.stringify(sync) !== JSON.stringify(step.stateSync))
        fail(where, `State Sync ${JSON.stringify(step.stateSync)}`, JSON.stringify(sync), evidence());
      if (answers.unused.length > 0)
        fail(where, `${step.answers!.length} answer(s) to the handler's requests`, 'fewer requests', evidence());
    }
    if (step.visible !== undefined) {
      const visible = await client.listToolNames();
      if (JSON.stringify(visible) !== JSON.stringify(step.visible))
        fail(`${where}, then tools/list`, JSON.stringify(step.visible), JSON.stringify(visible), evidence());
    }
  }
  return { steps: transcript.steps.length };
}

/** Refuses, before any call, what cannot replay: not a transcript, no step, or recorded incomplete. */
function refuseUnreplayable(transcript: Transcript): void {
  if (transcript?.format !== 'mcp-fusion/transcript@1' || !Array.isArray(transcript.steps))
    throw new TranscriptMismatchError(
      'TRANSCRIPT_FORMAT',
      'The transcript is not an mcp-fusion transcript (format "mcp-fusion/transcript@1" with steps); export one from the dev console\'s session panel.',
      {},
    );
  if (transcript.steps.length === 0)
    throw new TranscriptMismatchError(
      'TRANSCRIPT_EMPTY',
      `The transcript of ${JSON.stringify(transcript.session)} has no step, so a replay would prove nothing: export the session after its calls, while the console still holds them.`,
      { session: transcript.session },
    );
  if (typeof transcript.incomplete === 'string')
    throw new TranscriptMismatchError(
      'TRANSCRIPT_INCOMPLETE',
      `The transcript of ${JSON.stringify(transcript.session)} is incomplete and cannot replay as the session it claims to be: ${transcript.incomplete}.`,
      { session: transcript.session, incomplete: transcript.incomplete },
    );
}

/** One plain call, as the agent read it. */
function called(client: TestClient, step: TranscriptStep): Promise<{ isError: boolean; text: string }> {
  return client.callTool(step.tool, step.args).then(
    (result) => ({
      isError: result.isError === true,
      text: result.content.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('\n'),
    }),
    (error: unknown) => ({
      isError: true,
      text: (error instanceof Error ? error.message : String(error)).replace(/^MCP error -?\d+: /, ''),
    }),
  );
}

/** The call started as a task, then cancelled: `cancelled` when that is what the task became. */
async function cancelledTask(client: TestClient, step: TranscriptStep): Promise<{ isError: boolean; text: string }> {
  const any = { '~standard': { version: 1, vendor: 'mcp-fusion', validate: (value: unknown) => ({ value }) } };
  const request = (method: string, params: Record<string, unknown>): Promise<Record<string, any>> =>
    client.client.request({ method, params } as never, any as never) as Promise<Record<string, any>>;
  try {
    const created = await request('tools/call', { name: step.tool, arguments: step.args, task: {} });
    const taskId = (created.task as { taskId?: string } | undefined)?.taskId;
    if (taskId === undefined) return { isError: false, text: 'a plain result (the tool did not run as a task)' };
    const after = await request('tasks/cancel', { taskId });
    return { isError: true, text: String(after.status) };
  } catch (error) {
    return { isError: true, text: `an error: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function fail(where: string, expected: string, got: string, evidence: StepEvidence): never {
  throw new TranscriptMismatchError(
    'TRANSCRIPT_MISMATCH',
    `${where}: the recorded session read ${expected}, the replay got ${got}. ${likelyCause(evidence)}`,
    { tool: evidence.step.tool, expected, got },
  );
}
