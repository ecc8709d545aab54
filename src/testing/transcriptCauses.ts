import type { TranscriptStep } from '../console/types.js';
import type { ClientAnswer } from '../tracing/types.js';

/** What a replay saw around a step that went another way: the evidence its likely cause is read from. */
export interface StepEvidence {
  readonly step: TranscriptStep;
  /** Requests the replayed handler sent that the step recorded no answer for. */
  readonly unanswered: readonly string[];
  /** Answers the step recorded that the replayed handler never asked for. */
  readonly unused: readonly ClientAnswer[];
  /** Whether the replay was given a workflow gate (`fsm`). */
  readonly fsm: boolean;
}

/** The likeliest cause of a mismatch the replay can see, as a sentence (the generic one when it sees none). */
export function likelyCause(e: StepEvidence): string {
  if (e.unanswered.length > 0)
    return e.step.answers === undefined
      ? `The handler asked the client (${e.unanswered.join(', ')}) and the transcript recorded no answer: it was exported by a console that did not record client answers; record the session again.`
      : `The handler asked the client (${e.unanswered.join(', ')}) more than the recorded session did: the tool's handler changed since the recording.`;
  if (e.unused.length > 0)
    return `The recorded client answered ${e.unused.map((a) => a.method).join(', ')} that the replayed handler never asked: the tool's handler changed since the recording.`;
  if (e.step.refused && !e.fsm)
    return 'The recorded session was refused there and the replay runs without a workflow gate: pass the fsm the server ran with.';
  return 'The registry or its options changed since the recording, or the replay needs the options the server ran with.';
}
