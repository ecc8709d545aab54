import type { ConsoleHub } from './ConsoleHub.js';
import type { ConsoleMachine } from './machineOf.js';
import type { ConsoleEvent } from './types.js';
import { consolePage } from './pageAssets.js';
import { transcriptOf } from './transcriptOf.js';

/** What the console's HTTP routes serve from. */
export interface ConsoleRouteParts {
  readonly hub: ConsoleHub;
  readonly path: string;
  readonly token: string;
  readonly machine: ConsoleMachine | undefined;
  /** The tool names a session, workflow instance or principal would list now. */
  readonly view: (target: { key?: string; principal?: string }) => Promise<string[]>;
  readonly now: () => number;
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);
const encoder = new TextEncoder();
const FLUSH_MS = 25;

/**
 * The console's routes under `path`: the page, its event stream (Server-Sent Events), "view as" and the
 * transcript export. Only a loopback peer holding the token gets anything; anyone else gets 403.
 */
export class ConsoleRoutes {
  readonly #parts: ConsoleRouteParts;
  readonly #digest: Promise<Uint8Array>;
  readonly #streams = new Set<ReadableStreamDefaultController<Uint8Array>>();

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
    const url = new URL(request.url);
    if (!(await this.#tokenMatches(url.searchParams.get('token'))))
      return forbidden('wrong or missing token; open the console URL the server printed when it started (…?token=…)');
    if (request.method !== 'GET')
      return new Response('Method Not Allowed: the dev console answers GET.\n', {
        status: 405,
        headers: { allow: 'GET' },
      });
    const route = url.pathname.slice(this.#parts.path.length);
    if (route === '' || route === '/')
      return new Response(await consolePage(), {
        headers: {
          'content-type': 'text/html; charset=utf-8',
          'cache-control': 'no-store',
          'referrer-policy': 'no-referrer',
          'x-frame-options': 'DENY',
        },
      });
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
    if (route === '/transcript' && key !== undefined) {
      const transcript = transcriptOf(this.#parts.hub.events(), key, this.#parts.now());
      return json(transcript, {
        'content-disposition': `attachment; filename="transcript-${key.replace(/[^\w.-]/g, '_').slice(0, 60)}.json"`,
      });
    }
    return new Response(
      `Not Found: the dev console serves ${this.#parts.path}, /events, /view and /transcript?key=….\n`,
      { status: 404 },
    );
  }

  /** Ends every open event stream (the server is closing). */
  close(): void {
    for (const controller of this.#streams) controller.close();
    // A batch still waiting finds its stream gone and is dropped.
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
    const { hub, machine } = this.#parts;
    let stop: (() => void) | undefined;
    let self: ReadableStreamDefaultController<Uint8Array> | undefined;
    let pending = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    const body = new ReadableStream<Uint8Array>({
      start: (controller) => {
        self = controller;
        this.#streams.add(controller);
        const snapshot = { events: hub.events().map(lean), sessions: hub.sessions(), machine: machine ?? null };
        // `retry`: after a restart, the page's EventSource comes back within half a second.
        controller.enqueue(encoder.encode(`retry: 500\nevent: snapshot\ndata: ${safeJson(snapshot)}\n\n`));
        // Events go out in batches, every FLUSH_MS at most: one write for a burst of calls.
        const flush = (): void => {
          timer = undefined;
          const chunk = pending;
          pending = '';
          if (this.#streams.has(controller)) controller.enqueue(encoder.encode(chunk));
        };
        stop = hub.listen((event, session) => {
          pending += `data: ${safeJson({ event: lean(event), session })}\n\n`;
          // A burst that never yields to timers (in-process calls) still goes out, in large writes.
          if (pending.length > 65_536) {
            clearTimeout(timer);
            flush();
          } else timer ??= setTimeout(flush, FLUSH_MS);
        });
      },
      cancel: () => {
        stop?.();
        clearTimeout(timer);
        if (self !== undefined) this.#streams.delete(self);
      },
    });
    return new Response(body, {
      headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' },
    });
  }
}

/** An entry as the page gets it: without the `visible` list of a call (the transcript export reads it here). */
function lean(entry: ConsoleEvent): ConsoleEvent {
  return entry.visible === undefined
    ? entry
    : { seq: entry.seq, at: entry.at, instance: entry.instance, event: entry.event };
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

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch {
    // A BigInt in arguments (or a cycle): the slow path.
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? 'null';
  }
}
