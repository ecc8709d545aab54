import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';

/** What the virtual users did since the last {@link Load.take}. */
export interface Window {
  readonly latencies: number[];
  readonly calls: number;
  readonly failures: string[];
  readonly opened: number;
  readonly ended: number;
  readonly abandoned: number;
}

/**
 * Virtual users, each in a loop until stopped: connect a client (legacy and modern in turn), walk the
 * checkout (add an item, check out, then pay or cancel), list the tools, then leave: politely (legacy:
 * DELETE the session) or, every third time, abandoned to the server's timeouts. Every call is timed. Rounds
 * start at a steady rate (`roundsPerSecond` in all, a round starting late when the previous one ran long), so
 * that what the server holds is judged at a constant load, not one that follows the machine's other work.
 */
export class Load {
  #window = Load.#empty();
  #stopped = false;
  readonly #users: Promise<void>[] = [];

  /** `urls`: the instances; each user goes round them, every era on every instance in turn. */
  constructor(urls: readonly string[], users: number, roundsPerSecond: number) {
    const periodMs = (users / roundsPerSecond) * 1_000;
    for (let u = 0; u < users; u++) this.#users.push(this.#user(urls, u, periodMs, (u * periodMs) / users));
  }

  static #empty(): {
    latencies: number[];
    calls: number;
    failures: string[];
    opened: number;
    ended: number;
    abandoned: number;
  } {
    return { latencies: [], calls: 0, failures: [], opened: 0, ended: 0, abandoned: 0 };
  }

  /** The window so far; a new one starts. */
  take(): Window {
    const window = this.#window;
    this.#window = Load.#empty();
    return window;
  }

  /** Stops after each user's current round. */
  async stop(): Promise<void> {
    this.#stopped = true;
    await Promise.all(this.#users);
  }

  async #user(urls: readonly string[], user: number, periodMs: number, offsetMs: number): Promise<void> {
    let next = performance.now() + offsetMs;
    for (let round = 0; !this.#stopped; round++) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
      next = Math.max(next + periodMs, performance.now());
      if (this.#stopped) return;
      const modern = (user + round) % 2 === 1;
      // Two rounds on one instance (one of each era), then the next instance.
      const url = urls[(user + Math.floor(round / 2)) % urls.length]!;
      const client = new Client(
        { name: `soak-${user}`, version: '1.0.0' },
        modern ? { versionNegotiation: { mode: 'auto' } } : {},
      );
      const transport = new StreamableHTTPClientTransport(new URL(url));
      try {
        await this.#timed(() => client.connect(transport));
        this.#window.opened++;
        const added = await this.#call(client, 'cart.add_item', { product_id: `p${round % 7}` });
        const handle = modern ? { checkout_id: /checkout_id: (che_[\w-]+)/.exec(added)?.[1] } : {};
        await this.#call(client, 'cart.checkout', handle);
        await this.#call(
          client,
          round % 3 === 0 ? 'cart.cancel' : 'cart.pay',
          round % 3 === 0 ? handle : { ...handle, payment_method: 'card' },
        );
        await this.#timed(() => client.listTools());
        if (round % 3 === 2) this.#window.abandoned++;
        else {
          if (!modern) await transport.terminateSession();
          this.#window.ended++;
        }
      } catch (error) {
        this.#window.failures.push(
          `${modern ? 'modern' : 'legacy'} user ${user}: ${error instanceof Error ? error.message : String(error)}`,
        );
      } finally {
        await client.close().catch(() => {});
      }
    }
  }

  async #call(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
    const result = await this.#timed(() => client.callTool({ name, arguments: args }));
    const text = (result.content as Array<{ type: string; text?: string }>).map((c) => c.text ?? '').join('\n');
    if (result.isError === true) throw new Error(`${name} answered isError: ${text}`);
    return text;
  }

  async #timed<T>(run: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const value = await run();
    this.#window.latencies.push(performance.now() - started);
    this.#window.calls++;
    return value;
  }
}
