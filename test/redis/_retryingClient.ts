import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { texts } from '../_helpers/clients.js';

type Answer = { status: number; retryAfter: string | null };

/** A failed call: what the client saw. */
export class CallFailed extends Error {}

/**
 * A v2 SDK client (legacy or modern) that retries a request answered `503` with `Retry-After` after the time
 * it names, as a well-behaved client does, and counts those retries; any other failure, and any `isError`
 * result, throws {@link CallFailed}.
 */
export async function retryingClient(url: string, mode: 'legacy' | 'auto') {
  const seen: { last?: Answer } = {};
  const stats = { retried: 0 };
  const client = new Client(
    { name: `load-${mode}`, version: '1.0.0' },
    mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {},
  );
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    fetch: async (input, init) => {
      const response = await fetch(input, init);
      if ((init?.method ?? 'GET') === 'POST')
        seen.last = { status: response.status, retryAfter: response.headers.get('retry-after') };
      return response;
    },
  });
  /** Runs `send`, again after Retry-After while the answer is a 503 that names one. */
  const retrying = async <T>(send: () => Promise<T>): Promise<T> => {
    for (;;) {
      delete seen.last;
      try {
        return await send();
      } catch (error) {
        const last = seen.last as Answer | undefined;
        if (last?.status !== 503 || last.retryAfter === null)
          throw new CallFailed(`${String(error)} (last answer: ${JSON.stringify(last)})`);
        stats.retried++;
        await new Promise((resolve) => setTimeout(resolve, Number(last.retryAfter) * 1_000));
      }
    }
  };
  await retrying(() => client.connect(transport));
  return Object.assign(client, {
    /** Calls a tool; resolves its text (throws {@link CallFailed} on an `isError` result). */
    async call(name: string, args: Record<string, unknown> = {}): Promise<string> {
      const result = await retrying(() => client.callTool({ name, arguments: args }));
      const text = texts(result).join('\n');
      if (result.isError === true) throw new CallFailed(`${name} answered isError: ${text}`);
      return text;
    },
    /** The names of the tools listed now. */
    async names(): Promise<string[]> {
      return (await retrying(() => client.listTools())).tools.map((t) => t.name);
    },
    /** A resource's text. */
    async read(uri: string): Promise<string> {
      const { contents } = await retrying(() => client.readResource({ uri }));
      return (contents[0] as { text: string }).text;
    },
    /** `retried`: 503s retried so far. */
    stats,
  });
}

export type RetryingClient = Awaited<ReturnType<typeof retryingClient>>;
