import type { ConsoleSkills } from './types.js';
import { validateHostHeader } from '@modelcontextprotocol/server';
import type { ConsoleHub } from './ConsoleHub.js';
import type { MetricsView } from './ConsoleMetrics.js';
import { eventStream, safeJson, type EventStream, type EventStreamParts } from './eventStream.js';
import { consolePage } from './pageAssets.js';
import { transcriptOf } from './transcriptOf.js';

/** What the console's HTTP routes serve from. */
export interface ConsoleRouteParts {
  readonly hub: ConsoleHub;
  readonly path: string;
  readonly token: string;
  /** What each page's event stream reads from (the hub, its id, the machine, the bounds). */
  readonly stream: EventStreamParts;
  /** Hostnames the `Host` header may name (DNS rebinding): the loopback names and the ones configured. */
  readonly hosts: readonly string[];
  /** The tool names a session, workflow instance or principal would list now. */
  readonly view: (target: { key?: string; principal?: string }) => Promise<string[]>;
  readonly now: () => number;
  /** The published skills, for `/skills`. */
  readonly skills: ConsoleSkills;
  /** The charts' numbers, for `/metrics`. */
  readonly metrics: () => MetricsView;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * The console's routes under `path`: the page, its event stream (Server-Sent Events), "view as" and the
 * transcript export. Only a loopback peer naming an allowed `Host` and holding the token gets anything; anyone
 * else gets 403.
 */
export class ConsoleRoutes {
  readonly #parts: ConsoleRouteParts;
  readonly #digest: Promise<Uint8Array>;
  readonly #streams = new Set<EventStream>();

  constructor(parts: ConsoleRouteParts) {
    this.#parts = parts;
    this.#digest = sha256(parts.token);
  }

  /** True for a request this console answers (its path and everything under it). */
  owns(pathname: string): boolean {
    return pathname === this.#parts.path || pathname.startsWith(`${this.#parts.path}/`);
  }

  async serve(request: Request, peer: string | undefined): Promise<Response> {
    if (peer === undefined || !LOOPBACK.has(peer))
      return forbidden(
        'the dev console answers connections from 127.0.0.1 (or ::1) only; open it on the machine that runs the server',
      );
    const host = validateHostHeader(request.headers.get('host'), [...this.#parts.hosts]);
    if (!host.ok)
      return forbidden(
        `the Host header ${JSON.stringify(request.headers.get('host') ?? '').slice(0, 120)} is not one this server answers as (DNS rebinding protection); open the console at http://127.0.0.1:<port>${this.#parts.path}, or add the name to the server's allowedHosts`,
      );
    const url = new URL(request.url);
    if (!(await this.#tokenMatches(url.searchParams.get('token'))))
      return forbidden('wrong or missing token; open the console URL the server printed when it started (…?token=…)');
    if (request.method !== 'GET')
      return new Response('Method Not Allowed: the dev console answers GET.\n', {
        status: 405,
        headers: { allow: 'GET' },
      });
    const route = url.pathname.slice(this.#parts.path.length);
    if (route === '' || route === '/') {
      const page = await consolePage();
      return new Response(page.html, {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'x-frame-options': 'DENY',
          'x-content-type-options': 'nosniff',
          'content-security-policy': page.csp,
        },
      });
    }
    if (route === '/events') return this.#events();
    const key = url.searchParams.get('key') ?? undefined;
    const principal = url.searchParams.get('principal') ?? undefined;
    if (route === '/view')
      return json(
        await this.#parts.view({
          ...(key !== undefined ? { key } : {}),
          ...(principal !== undefined ? { principal } : {}),
        }),
      );
    if (route === '/skills') return json(this.#parts.skills());
    if (route === '/metrics') return json(this.#parts.metrics());
    if (route === '/transcript' && key !== undefined) {
      const { hub } = this.#parts;
      const transcript = transcriptOf(hub.events(), key, this.#parts.now(), hub.session(key)?.calls);
      return json(transcript, {
        'content-disposition': `attachment; filename="transcript-${key.replace(/[^\w.-]/g, '_').slice(0, 60)}.json"`,
      });
    }
    return new Response(
      `Not Found: the dev console serves ${this.#parts.path}, /events, /view, /skills, /metrics and /transcript?key=….\n`,
      { status: 404 },
    );
  }

  /** Ends every open event stream (the server is closing). */
  close(): void {
    for (const stream of [...this.#streams]) stream.close();
    this.#streams.clear();
  }

  /** Compares digests in constant time (Web Crypto, so the module also loads where `node:crypto` does not). */
  async #tokenMatches(given: string | null): Promise<boolean> {
    if (given === null) return false;
    const [a, b] = await Promise.all([sha256(given), this.#digest]);
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
    return diff === 0;
  }

  #events(): Response {
    const stream = eventStream(this.#parts.stream, () => this.#streams.delete(stream));
    this.#streams.add(stream);
    return new Response(stream.body, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' },
    });
  }
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)));
}

function forbidden(why: string): Response {
  return new Response(`Forbidden: ${why}.\n`, {
    status: 403,
    headers: { 'content-type': 'text/plain; charset=utf-8' },
  });
}

function json(value: unknown, headers: Record<string, string> = {}): Response {
  return new Response(safeJson(value), {
    headers: { 'content-type': 'application/json', 'cache-control': 'no-store', ...headers },
  });
}
