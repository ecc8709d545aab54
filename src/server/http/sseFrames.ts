/** An SSE priming event: an id (and the reconnection delay) with empty data, which clients do not dispatch. */
export function primingFrame(eventId: string, retryMs: number | undefined): string {
  return retryMs === undefined ? `id: ${eventId}\ndata: \n\n` : `id: ${eventId}\nretry: ${retryMs}\ndata: \n\n`;
}

/** True when the client's protocol version accepts events with empty data (2025-11-25 and later). */
export function acceptsPriming(protocolVersion: string | null | undefined): boolean {
  return (
    typeof protocolVersion === 'string' &&
    /^\d{4}-\d{2}-\d{2}$/.test(protocolVersion) &&
    protocolVersion >= '2025-11-25'
  );
}

/** `response` with `frame` written before its body. */
export function withPrefix(response: Response, frame: string): Response {
  if (response.body === null) return response;
  const reader = response.body.getReader();
  const first = new TextEncoder().encode(frame);
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(first);
        return;
      }
      const { done, value } = await reader.read();
      if (done) controller.close();
      else controller.enqueue(value);
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
