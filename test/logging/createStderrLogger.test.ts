import { describe, expect, it, vi } from 'vitest';
import { createStderrLogger } from '../../src/logging/createStderrLogger.js';

describe('createStderrLogger', () => {
  it('writes one line per record, values quoted when they hold spaces, and an error’s stack frames below it', () => {
    const out: string[] = [];
    const logger = createStderrLogger(
      (text) => out.push(text),
      () => Date.UTC(2026, 10, 26, 8, 0, 0),
    );
    logger.warn(
      { tool: 'notes.list', principal: 'u:["https://id","alice"]', note: 'two words', n: 3, args: { a: 1 } },
      'rate limit refused a tool call',
    );
    const error = new TypeError('boom');
    logger.error({ tool: 'boom' }, 'tool handler threw');
    logger.error({ tool: 'boom', err: error }, 'tool handler threw');
    expect(out[0]).toBe(
      '[mcp-fusion] 2026-11-26T08:00:00.000Z WARN rate limit refused a tool call tool=notes.list principal=u:["https://id","alice"] note="two words" n=3 args={"a":1}\n',
    );
    expect(out[1]).toBe('[mcp-fusion] 2026-11-26T08:00:00.000Z ERROR tool handler threw tool=boom\n');
    const [head, ...frames] = out[2]!.trimEnd().split('\n');
    expect(head).toBe('[mcp-fusion] 2026-11-26T08:00:00.000Z ERROR tool handler threw tool=boom err="TypeError: boom"');
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((f) => /^\s+at /.test(f))).toBe(true);
    expect(frames[0]).toContain('createStderrLogger.test.ts');
  });

  it('writes to process.stderr by default, never to stdout', () => {
    const err = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const out = vi.spyOn(process.stdout, 'write');
    try {
      createStderrLogger(undefined, () => 0).info({ session: 's1' }, 'hello');
      expect(err.mock.calls.map((c) => c[0])).toEqual([
        '[mcp-fusion] 1970-01-01T00:00:00.000Z INFO hello session=s1\n',
      ]);
      expect(out).not.toHaveBeenCalled();
    } finally {
      err.mockRestore();
      out.mockRestore();
    }
  });
});
