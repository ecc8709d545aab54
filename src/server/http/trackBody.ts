import { systemClock, type Clock, type Timer } from '../../_internal/clock.js';
import { isJsonAnswer } from './jsonAnswer.js';

/** A response whose body is watched by {@link trackBody}, and how to end it early. */
export interface TrackedBody {
  readonly response: Response;
  /** Ends the body now (the client sees the stream close) and runs `onEnd`, once. */
  readonly end: () => void;
}

/**
 * Watches a response body: `onEnd` runs once, when the body ends, errors, is cancelled by the client, is ended
 * with `end()`, or reaches `lifetimeMs` (one timer of `clock`, cleared on end). A response without a body, or
 * with a complete one (a {@link jsonAnswer}), ends at once.
 */
export function trackBody(
  response: Response,
  onEnd: () => void,
  lifetimeMs?: number,
  clock: Clock = systemClock,
): TrackedBody {
  let ended = false;
  let timer: Timer | undefined;
  const finish = (): boolean => {
    if (ended) return false;
    ended = true;
    timer?.cancel();
    onEnd();
    return true;
  };
  if (isJsonAnswer(response) || response.body === null) {
    finish();
    return { response, end: () => {} };
  }
  const reader = response.body.getReader();
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;
  const end = (): void => {
    if (!finish()) return;
    void reader.cancel('stream ended by the server').catch(() => {});
    try {
      controllerRef?.close();
    } catch {
      // Already closed.
    }
  };
  if (lifetimeMs !== undefined) {
    timer = clock.setTimeout(end, Math.max(0, lifetimeMs));
  }
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller;
    },
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        if (ended) return;
        if (done) {
          finish();
          controller.close();
        } else controller.enqueue(value);
      } catch (error) {
        if (!finish()) return;
        controller.error(error);
      }
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return {
    response: new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    }),
    end,
  };
}
