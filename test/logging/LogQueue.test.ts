import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createStderrLogger } from '../../src/logging/createStderrLogger.js';
import { LogQueue, type LogStream } from '../../src/logging/LogQueue.js';

const KiB = 1024;
const failure = new Error(`cannot parse \n[INFO] forged \u001b[31m${'x'.repeat(4 * 1024 * KiB)}`);

/** A Writable whose write callback never fires until `resume()`: a log reader that never reads. */
function stalledReader() {
  const pending: Array<() => void> = [];
  const chunks: string[] = [];
  let reading = false;
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string, _encoding, done) {
      chunks.push(chunk);
      if (reading) done();
      else pending.push(done);
    },
  });
  const resume = (): void => {
    reading = true;
    for (const done of pending.splice(0)) done();
  };
  return { stream, chunks, resume };
}

/** The `n` field of each record line written (the dropped-lines report has none). */
function numbers(chunks: string[]): number[] {
  return chunks.flatMap((c) => [...c.matchAll(/ ERROR tool handler threw n=(\d+)/g)].map((m) => Number(m[1])));
}

describe('LogQueue', () => {
  it('keeps a reader that never reads within the byte bound across many 4 MiB failures, then reports the drops once', async () => {
    const { stream, chunks, resume } = stalledReader();
    const logger = createStderrLogger(undefined, () => 0, { stream, maxQueueBytes: 64 * KiB });
    const queue = LogQueue.of(stream, () => '');
    let largestLine = 0;
    for (let n = 0; n < 200; n++) {
      logger.error({ n, err: failure }, 'tool handler threw');
      expect(queue.queuedBytes).toBeLessThanOrEqual(64 * KiB);
      largestLine = Math.max(largestLine, ...chunks.map((c) => c.length));
    }
    expect(largestLine).toBeLessThan(8 * KiB);
    expect(stream.writableLength).toBeLessThanOrEqual(stream.writableHighWaterMark + largestLine);
    const written = numbers(chunks).length;
    const dropped = queue.dropped;
    expect(dropped).toBeGreaterThan(150);
    expect(written).toBeLessThan(50);

    const drained = once(stream, 'drain');
    resume();
    await drained;
    const records = numbers(chunks);
    expect(records).toEqual([...Array(200 - dropped).keys()]);
    const reports = chunks.filter((c) => c.includes('log lines dropped'));
    expect(reports).toEqual([
      `[mcp-fusion] 1970-01-01T00:00:00.000Z WARN log lines dropped while the log reader was slow dropped=${dropped} maxQueueBytes=65536\n`,
    ]);
    expect(chunks.at(-1)).toBe(reports[0]);
    expect(queue.queuedBytes).toBe(0);
    expect(queue.dropped).toBe(0);

    logger.error({ n: 200 }, 'tool handler threw');
    expect(numbers(chunks).at(-1)).toBe(200);
  }, 60_000);

  it('waits while someone else filled the stream, and writes in order once it drains', () => {
    let needDrain = true;
    let onDrain: () => void = () => {};
    const written: string[] = [];
    const stream: LogStream = {
      write: (chunk) => (written.push(chunk), true),
      once: (_event, listener) => void (onDrain = listener),
      get writableNeedDrain() {
        return needDrain;
      },
    };
    const queue = new LogQueue(stream, (count) => `dropped ${count}\n`, 10);
    for (const line of ['a\n', 'b\n', 'c\n', 'dddddd\n', 'e\n']) queue.write(line);
    expect(written).toEqual([]);
    expect(queue.queuedBytes).toBe(6);
    expect(queue.dropped).toBe(2);
    needDrain = false;
    onDrain();
    expect(written).toEqual(['a\n', 'b\n', 'c\n', 'dropped 2\n']);
    queue.write('f\n');
    expect(written.at(-1)).toBe('f\n');
  });

  it('bounds a pipe to a child process that never reads, and reports the drops once the child reads', async () => {
    const child = spawn(
      process.execPath,
      [
        '-e',
        // The child reads nothing until SIGUSR1, then echoes what it reads; the interval keeps it alive.
        "process.on('SIGUSR1', () => process.stdin.pipe(process.stdout)); setInterval(() => {}, 1 << 30); process.stdout.write('ready\\n');",
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    try {
      let echoed = '';
      child.stdout.setEncoding('utf8');
      await new Promise<void>((resolve) =>
        child.stdout.on('data', (chunk: string) => {
          if (echoed === '' && chunk.startsWith('ready\n')) resolve();
          echoed += chunk;
        }),
      );
      const logger = createStderrLogger(undefined, () => 0, { stream: child.stdin, maxQueueBytes: 128 * KiB });
      const queue = LogQueue.of(child.stdin, () => '');
      for (let n = 0; n < 200; n++) {
        logger.error({ n, err: failure }, 'tool handler threw');
        expect(queue.queuedBytes).toBeLessThanOrEqual(128 * KiB);
      }
      expect(child.stdin.writableLength).toBeLessThanOrEqual(child.stdin.writableHighWaterMark + 8 * KiB);
      const dropped = queue.dropped;
      expect(dropped).toBeGreaterThan(100);

      const report = new Promise<void>((resolve) =>
        child.stdout.on('data', () => void (echoed.includes(`dropped=${dropped} `) && resolve())),
      );
      child.kill('SIGUSR1');
      await report;
      expect(numbers([echoed])).toEqual([...Array(200 - dropped).keys()]);
      expect(echoed.match(/log lines dropped/g)).toHaveLength(1);
    } finally {
      child.kill('SIGKILL');
    }
  }, 60_000);
});
