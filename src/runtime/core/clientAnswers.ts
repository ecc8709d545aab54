import type { HandlerExtra } from '../../protocol/types.js';
import type { ClientAnswer } from '../../tracing/types.js';

export type { ClientAnswer };

type Ask = HandlerExtra['elicit'];

/** `ask`, noting each answer (or failure) in `answers`, in the order they come (an observed call's recording). */
export function recordingAnswers(answers: ClientAnswer[], method: ClientAnswer['method'], ask: Ask): Ask {
  return async (params) => {
    try {
      const result = await ask(params);
      answers.push({ method, result });
      return result;
    } catch (error) {
      answers.push({ method, error: error instanceof Error ? error.message : String(error) });
      throw error;
    }
  };
}
