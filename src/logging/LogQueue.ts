import { isRefusal, type ByteLedger, type Hold } from '../ledger/ByteLedger.js';
import { SERVER_HOLDER } from '../ledger/types.js';
import { utf8Length } from './escapeLogText.js';

/** The bound of a log stream's waiting lines when none is configured: 1 MiB. */
export const DEFAULT_MAX_QUEUE_BYTES = 1024 * 1024;

/** What a {@link LogQueue} writes to: a Node `Writable` (`process.stderr`, a file, a pipe) or anything shaped so. */
export interface LogStream {
  /** Takes one chunk; `false` asks the writer to wait for `drain` (the stream's own buffer is full). */
  write(chunk: string): boolean;
  once(event: 'drain', listener: () => void): unknown;
  /** True while the stream waits to drain (someone else filled its buffer). */
  readonly writableNeedDrain?: boolean;
}

const queues = new WeakMap<LogStream, LogQueue>();

/**
 * The log lines waiting for a slow stream. While the stream applies backpressure (`write()` returned `false`
 * and `drain` has not come), lines wait here, at most `maxBytes` of them (UTF-8); past it they are dropped and
 * counted. On `drain` the waiting lines are written in order, then one line (`droppedLine(count)`) says how
 * many were dropped. A reader that never reads costs the stream's own buffer plus `maxBytes`, never more;
 * nothing is timed, the stream's `drain` event drives it all. With a ledger ({@link chargeTo}), the waiting
 * bytes are held for the server (kind `log`, the total only): a line the ledger's total cannot hold is dropped
 * and counted too.
 * @see docs/security.md#the-ledger
 */
export class LogQueue {
  /** The bound of waiting lines, in bytes. */
  maxBytes: number;
  readonly #stream: LogStream;
  readonly #droppedLine: (count: number) => string;
  readonly #waiting: Array<{ line: string; bytes: number }> = [];
  #bytes = 0;
  #dropped = 0;
  #draining = false;
  #hold: Hold | undefined;
  #ledger: ByteLedger | undefined;

  constructor(stream: LogStream, droppedLine: (count: number) => string, maxBytes = DEFAULT_MAX_QUEUE_BYTES) {
    this.#stream = stream;
    this.#droppedLine = droppedLine;
    this.maxBytes = maxBytes;
  }

  /**
   * The one queue of `stream` (the lines of every logger writing to it wait in one line): built by the first
   * caller; a later `maxBytes` replaces the bound.
   */
  static of(stream: LogStream, droppedLine: (count: number) => string, maxBytes?: number): LogQueue {
    let queue = queues.get(stream);
    if (queue === undefined) queues.set(stream, (queue = new LogQueue(stream, droppedLine, maxBytes)));
    else if (maxBytes !== undefined) queue.maxBytes = maxBytes;
    return queue;
  }

  /** Holds the waiting bytes on `ledger` from now on (the runtime's; a later ledger replaces an earlier one). */
  chargeTo(ledger: ByteLedger): void {
    if (this.#hold !== undefined && !this.#hold.released && this.#ledger === ledger) return;
    this.#hold?.release();
    const hold = ledger.take('log', SERVER_HOLDER, this.#bytes);
    this.#hold = isRefusal(hold) ? undefined : hold;
    this.#ledger = ledger;
  }

  /** The bytes of the lines waiting now. */
  get queuedBytes(): number {
    return this.#bytes;
  }

  /** The lines dropped since the last report. */
  get dropped(): number {
    return this.#dropped;
  }

  /** Writes `line` now, or queues it while the stream is full, or drops it when the queue is full too. */
  write(line: string): void {
    if (this.#draining || this.#stream.writableNeedDrain === true) {
      this.#enqueue(line);
      this.#awaitDrain();
    } else if (!this.#stream.write(line)) this.#awaitDrain();
  }

  #enqueue(line: string): void {
    const bytes = utf8Length(line);
    // Once one line is dropped, the rest are until the queue empties: the report marks one gap, where it was.
    if (this.#dropped > 0 || this.#bytes + bytes > this.maxBytes || this.#refused(this.#bytes + bytes)) this.#dropped++;
    else {
      this.#waiting.push({ line, bytes });
      this.#bytes += bytes;
    }
  }

  /** True when the ledger cannot hold `bytes` of waiting lines (its total is full). */
  #refused(bytes: number): boolean {
    if (this.#hold === undefined || this.#hold.released) return false;
    return this.#hold.resize(bytes) !== undefined;
  }

  #awaitDrain(): void {
    if (this.#draining) return;
    this.#draining = true;
    this.#stream.once('drain', () => this.#flush());
  }

  #flush(): void {
    this.#draining = false;
    while (this.#waiting.length > 0) {
      const { line, bytes } = this.#waiting.shift()!;
      this.#bytes -= bytes;
      if (this.#hold?.released === false) this.#hold.resize(this.#bytes);
      if (!this.#stream.write(line)) return this.#awaitDrain();
    }
    if (this.#dropped === 0) return;
    const count = this.#dropped;
    this.#dropped = 0;
    if (!this.#stream.write(this.#droppedLine(count))) this.#awaitDrain();
  }
}
