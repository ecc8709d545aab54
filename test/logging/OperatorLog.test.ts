import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { OperatorLog } from '../../src/logging/OperatorLog.js';

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
    let now = 0;
    const log = new OperatorLog({ logger, logLevel: 'info', now: () => now });
    for (let i = 0; i < 12; i++)
      log.refusal('rate_limited:notes.list', 'rate limit refused a tool call', { tool: 'notes.list' });
    expect(records).toHaveLength(5);
    now = 60_000;
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
});
