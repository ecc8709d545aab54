import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OperatorLog } from '../../src/logging/OperatorLog.js';
import { createClock } from '../../src/testing/createClock.js';

/** Real pino writing JSON lines into memory. */
function memoryPino(level = 'debug') {
  const records: Array<Record<string, any>> = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      records.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { logger: pino({ level }, stream), records };
}

describe('OperatorLog', () => {
  it('passes records at or above its level to pino, without undefined fields, with err serialized with its stack', () => {
    const { logger, records } = memoryPino();
    const log = new OperatorLog({ logger, logLevel: 'warn' });
    log.debug('list', { count: 1 });
    log.warn('overlap', { session: undefined });
    log.error('tool handler threw', { tool: 'boom', session: undefined }, new Error('kaboom'));
    expect(records.map((r) => [r.level, r.msg])).toEqual([
      [40, 'overlap'],
      [50, 'tool handler threw'],
    ]);
    expect('session' in records[1]!).toBe(false);
    expect(records[1]!.err).toMatchObject({
      type: 'Error',
      message: 'kaboom',
      stack: expect.stringContaining('OperatorLog.test.ts'),
    });
    expect(log.enabled('debug')).toBe(false);
    expect(log.enabled('error')).toBe(true);
  });

  it('silent passes nothing; a throwing logger never throws into the caller', () => {
    const { logger, records } = memoryPino();
    new OperatorLog({ logger, logLevel: 'silent' }).error('x', {}, new Error('y'));
    expect(records).toEqual([]);
    const broken = {
      debug: () => {},
      info: () => {},
      warn: () => {},
      error: () => {
        throw new Error('disk full');
      },
    };
    expect(() => new OperatorLog({ logger: broken, logLevel: 'info' }).error('x', {}, new Error('y'))).not.toThrow();
  });

  it('throttles refusals per key on its clock and reports how many it left out', () => {
    const { logger, records } = memoryPino();
    const clock = createClock();
    const log = new OperatorLog({ logger, logLevel: 'info', clock });
    for (let i = 0; i < 12; i++)
      log.refusal('rate_limited:notes.list', 'rate limit refused a tool call', { tool: 'notes.list' });
    expect(records).toHaveLength(5);
    clock.advance(60_000);
    log.refusal('rate_limited:notes.list', 'rate limit refused a tool call', { tool: 'notes.list' });
    expect(records.at(-1)).toMatchObject({
      level: 40,
      msg: 'rate limit refused a tool call',
      tool: 'notes.list',
      suppressed: 7,
    });
  });

  it('adds arguments only with logArguments', () => {
    expect(new OperatorLog({}).argumentsField({ a: 1 })).toEqual({});
    expect(new OperatorLog({ logArguments: true }).argumentsField({ a: 1 })).toEqual({ arguments: { a: 1 } });
  });

  it('is built once per options object', () => {
    const options = {};
    expect(OperatorLog.of(options)).toBe(OperatorLog.of(options));
    expect(OperatorLog.of({})).not.toBe(OperatorLog.of(options));
  });

  it('cuts every value it passes to pino to logLimits.maxValueBytes, an error still an error', () => {
    const { logger, records } = memoryPino();
    const huge = `\n[INFO] forged \u001b[31m${'x'.repeat(4 * 2 ** 20)}`;
    const error = new TypeError(`cannot parse ${huge}`);
    Object.assign(error, { input: huge });
    const log = new OperatorLog({ logger, logLevel: 'info', logLimits: { maxValueBytes: 1024 } });
    log.error(huge, { tool: huge, count: 3, args: { text: huge } }, error);
    const [record] = records;
    const cut = `… (truncated, ${Buffer.byteLength(huge)} bytes)`;
    expect(record!.msg).toBe(`${huge.slice(0, 1024)}${cut}`);
    expect(record!.tool).toBe(record!.msg);
    expect(record!.count).toBe(3);
    expect(record!.args).toBe(
      `${JSON.stringify({ text: huge }).slice(0, 1024)}… (truncated, ${JSON.stringify({ text: huge }).length} bytes)`,
    );
    expect(record!.err).toMatchObject({
      type: 'TypeError',
      message: `cannot parse ${huge.slice(0, 1024 - 'cannot parse '.length)}… (truncated, ${Buffer.byteLength(huge) + 13} bytes)`,
      input: record!.msg,
    });
    expect(record!.err.stack).toContain('OperatorLog.test.ts');
    expect(record!.err.stack.length).toBeLessThan(3 * 1024 + 200);
    expect(JSON.stringify(record).length).toBeLessThan(10 * 1024);
  });

  it('refuses a log limit that is not a positive whole number, naming it', () => {
    expect(() => new OperatorLog({ logLimits: { maxQueueBytes: 0 } })).toThrowErrorMatchingInlineSnapshot(
      `[AttachError: logLimits.maxQueueBytes is 0; give a positive whole number of bytes (or leave it out for the default).]`,
    );
  });
});
