/**
 * A handler's work that never ends on its own: it rejects with the signal's reason once the call is aborted (a
 * cancel, a drain's deadline), as a handler that honours its signal does. A handler that ignored the signal
 * would hold a closing server for the second it gives aborted tasks to store their outcome.
 */
export function untilAborted(signal: AbortSignal): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
}
