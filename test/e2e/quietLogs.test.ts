import { describe, expect, it } from 'vitest';
import { initFusion, type FusionLogLevel, type Logger } from '../../src/index.js';
import { httpServer, texts, v2HttpClient, type Mode } from '../_helpers/clients.js';

type Level = keyof Logger;
type LogRecord = { level: Level; message: string; fields: Record<string, unknown> };

/** A pino-shaped logger that keeps every record. */
function memoryLogger(): { logger: Logger; records: LogRecord[] } {
  const records: LogRecord[] = [];
  const at = (level: Level) => (fields: Record<string, unknown>, message: string) =>
    void records.push({ level, message, fields });
  return { logger: { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') }, records };
}

/** A signal for each handler that started; the handler waits until its run is aborted, then throws the reason. */
function waiters() {
  const started: Array<() => void> = [];
  const next = () => new Promise<void>((resolve) => started.push(resolve));
  const f = initFusion();
  const registry = f.registry().registerAll(
    f
      .action('wait')
      .describe('Waits until cancelled')
      .handle(async (_input, _ctx, extra) => {
        const signal = extra.signal!;
        started.shift()?.();
        await new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
        return 'never';
      }),
    f
      .action('fail')
      .describe('Throws an ordinary error')
      .handle(() => {
        throw new Error('the invoice does not exist');
      }),
  );
  return { registry, next };
}

const errorsAndWarnings = (records: LogRecord[]) => records.filter((r) => r.level === 'error' || r.level === 'warn');

describe.each<Mode>(['legacy', 'auto'])(
  'a normal start, cancellation and shutdown log no error (%s client)',
  (mode) => {
    it('logs no error or warning, and no stack, for a start, a cancelled call and a shutdown that aborts a call', async () => {
      const { logger, records } = memoryLogger();
      const { registry, next } = waiters();
      const srv = await httpServer(registry, { logger, logLevel: 'debug', drainMs: 0 });
      const client = await v2HttpClient(srv.url, mode);
      // A call the client cancels.
      const cancelled = new AbortController();
      const firstStarted = next();
      const first = client.callTool({ name: 'wait', arguments: {} }, { signal: cancelled.signal });
      await firstStarted;
      cancelled.abort(new Error('the user pressed stop'));
      await expect(first).rejects.toThrow();
      // A call still running when the server shuts down (no drain time: it is aborted at once).
      const secondStarted = next();
      const second = client.callTool({ name: 'wait', arguments: {} }).catch((error: unknown) => error);
      await secondStarted;
      await srv.close();
      await second;
      await client.close();
      expect(errorsAndWarnings(records)).toEqual([]);
      const aborted = records.filter((r) => r.message === 'tool handler threw after its run was aborted');
      // One for the cancelled call, one for the call the shutdown aborted: both at debug.
      expect(aborted.map((r) => r.level)).toEqual(['debug', 'debug']);
      for (const record of records) expect(record.fields.err).toBeUndefined();
    });
  },
);

describe('a handler that throws an ordinary error', () => {
  const levels: FusionLogLevel[] = ['info', 'debug'];
  it.each(levels)('logs one warn line, with the stack only at debug level (level %s)', async (logLevel) => {
    const { logger, records } = memoryLogger();
    const { registry } = waiters();
    await using srv = await httpServer(registry, { logger, logLevel });
    await using client = await v2HttpClient(srv.url);
    const result = await client.callTool({ name: 'fail', arguments: {} });
    expect(result.isError).toBe(true);
    expect(texts(result).join('\n')).toContain('the invoice does not exist');
    const lines = errorsAndWarnings(records);
    expect(lines.map((r) => [r.level, r.message, r.fields.tool])).toEqual([['warn', 'tool handler threw', 'fail']]);
    const { fields } = lines[0]!;
    if (logLevel === 'debug') {
      expect(fields.error).toBeUndefined();
      expect((fields.err as Error).stack).toContain('quietLogs.test.ts');
    } else {
      expect(fields.err).toBeUndefined();
      expect(fields.error).toBe('Error: the invoice does not exist');
    }
  });
});
