import type { Readable, Writable } from 'node:stream';
import {
  deserializeMessage,
  serializeMessage,
  type JSONRPCMessage,
  type RequestId,
  type Transport,
} from '@modelcontextprotocol/server';
import { protoKeyOfBody } from '../../protocol/protoKeys.js';
import { errorMessage } from '../http/httpErrors.js';
import { requestIdInUse } from '../http/requestIdInUse.js';

/** Default largest stdio line: 10 MiB, the SDK's own stdio buffer limit. */
export const DEFAULT_STDIO_MAX_LINE_BYTES = 10 * 1024 * 1024;

/**
 * Newline-delimited JSON-RPC over stdin/stdout that survives an oversized line. The SDK's stdio transport
 * closes the connection when a line exceeds its buffer (the process then exits 0 and every later request
 * is lost); this one discards that line, answers it with a JSON-RPC error (`id: null`: its id cannot be
 * read), logs one line to stderr, and goes on with the next line. Memory held per connection stays under
 * `maxLineBytes`.
 *
 * A request whose id is the id of a request still running on the connection (no response sent, not
 * cancelled) is refused with Invalid Request for that id and never reaches the server: both answers would
 * go out under one id, and the SDK would lose the first request's cancellation.
 */
export class StdioLineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  readonly #stdin: Readable;
  readonly #stdout: Writable;
  readonly #max: number;
  readonly #log: (line: string) => void;
  #chunks: Buffer[] = [];
  #size = 0;
  /** Inside an oversized line: bytes are dropped until its newline. */
  #discarding = false;
  #closed = false;
  /** Ids of the client's requests handed on whose response has not been sent. */
  readonly #running = new Set<RequestId>();

  constructor(
    options: { stdin?: Readable; stdout?: Writable; maxLineBytes?: number; log?: (line: string) => void } = {},
  ) {
    this.#stdin = options.stdin ?? process.stdin;
    this.#stdout = options.stdout ?? process.stdout;
    this.#max = options.maxLineBytes ?? DEFAULT_STDIO_MAX_LINE_BYTES;
    this.#log = options.log ?? ((line) => process.stderr.write(`${line}\n`));
  }

  async start(): Promise<void> {
    this.#stdin.on('data', this.#onData);
    this.#stdin.on('error', this.#onError);
    this.#stdin.on('end', this.#onEnd);
    this.#stdin.on('close', this.#onEnd);
    this.#stdout.on('error', this.#onError);
    if (this.#stdin.readableEnded || this.#stdin.destroyed) setImmediate(this.#onEnd);
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!('method' in message) && ('result' in message || 'error' in message)) this.#running.delete(message.id!);
    return this.#write(message);
  }

  /** Writes one message; the transport's own answers go straight here, so they end no running request. */
  async #write(message: JSONRPCMessage): Promise<void> {
    if (this.#closed) return;
    const text = serializeMessage(message);
    if (!this.#stdout.write(text)) await new Promise<void>((resolve) => this.#stdout.once('drain', resolve));
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#stdin.off('data', this.#onData);
    this.#stdin.off('error', this.#onError);
    this.#stdin.off('end', this.#onEnd);
    this.#stdin.off('close', this.#onEnd);
    this.#stdout.off('error', this.#onError);
    if (this.#stdin.listenerCount('data') === 0) this.#stdin.pause();
    this.#chunks = [];
    this.#size = 0;
    this.#running.clear();
    this.onclose?.();
  }

  readonly #onEnd = (): void => void this.close();

  readonly #onError = (error: Error): void => {
    this.onerror?.(error);
  };

  readonly #onData = (chunk: Buffer | string): void => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    while (data.length > 0 && !this.#closed) {
      const newline = data.indexOf(0x0a);
      const part = newline === -1 ? data : data.subarray(0, newline);
      data = newline === -1 ? Buffer.alloc(0) : data.subarray(newline + 1);
      if (this.#discarding) {
        if (newline !== -1) this.#discarding = false;
        continue;
      }
      if (this.#size + part.length > this.#max) {
        this.#oversized(this.#size + part.length);
        this.#chunks = [];
        this.#size = 0;
        this.#discarding = newline === -1;
        continue;
      }
      this.#chunks.push(part);
      this.#size += part.length;
      if (newline !== -1) this.#line();
    }
  };

  #line(): void {
    const text = Buffer.concat(this.#chunks, this.#size).toString('utf8').replace(/\r$/, '');
    this.#chunks = [];
    this.#size = 0;
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      const parsed = JSON.parse(text) as unknown;
      const proto = Array.isArray(parsed) ? undefined : protoKeyOfBody(parsed);
      if (proto !== undefined) {
        // The SDK's message schema would drop the key silently: refuse it, as the HTTP entry does.
        void this.#write(errorMessage('unknownField', proto.message, proto.id) as unknown as JSONRPCMessage).catch(
          () => {},
        );
        return;
      }
      message = deserializeMessage(text);
    } catch (error) {
      // Not JSON, or not a JSON-RPC message: dropped, as the SDK's own stdio transport does.
      this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    if (!this.#admit(message)) {
      void this.#write(requestIdInUse((message as { id: RequestId }).id, 'connection')).catch(() => {});
      return;
    }
    this.onmessage?.(message);
  }

  /** Tracks the client's running requests; false for a request reusing the id of one of them. */
  #admit(message: JSONRPCMessage): boolean {
    if (!('method' in message)) return true;
    if ('id' in message) {
      if (this.#running.has(message.id)) return false;
      this.#running.add(message.id);
    } else if (message.method === 'notifications/cancelled') {
      // A cancelled request gets no response: its id is free again.
      const id = (message.params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.#running.delete(id);
    }
    return true;
  }

  #oversized(bytes: number): void {
    const text = `Request too large: a message of more than ${this.#max} bytes (at least ${bytes}) was discarded without being read. Send smaller messages (split large inputs, or pass references instead of content).`;
    this.#log(`[mcp-fusion] stdio: ${text}`);
    void this.#write(errorMessage('payloadTooLarge', text) as unknown as JSONRPCMessage).catch(() => {});
  }
}
