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

describe('createStderrLogger against forged and huge records', () => {
  const at = () => Date.UTC(2026, 10, 26, 8, 0, 0);

  it('writes a message with a forged line, ANSI escapes and 4 MiB as one escaped, cut line', () => {
    const out: string[] = [];
    const forged = `\n[mcp-fusion] 2026-11-26T08:00:00.000Z INFO forged\r\u001b[2J\u001b[31mred\u2028`;
    const huge = `${forged}${'x'.repeat(4 * 2 ** 20 - forged.length)}`;
    const error = new Error(`cannot parse ${huge}`);
    createStderrLogger((text) => out.push(text), at).error({ tool: huge, err: error }, huge);
    const [head, ...frames] = out[0]!.trimEnd().split('\n');
    const escaped = '\\n[mcp-fusion] 2026-11-26T08:00:00.000Z INFO forged\\r\\u001b[2J\\u001b[31mred\\u2028';
    expect(head!.startsWith(`[mcp-fusion] 2026-11-26T08:00:00.000Z ERROR ${escaped}xxx`)).toBe(true);
    const bytes = Buffer.byteLength(huge);
    expect(head).toContain(`xxx… (truncated, ${bytes} bytes) tool="${escaped}xxx`);
    expect(head).toContain(`xxx… (truncated, ${bytes} bytes)" err="Error: cannot parse ${escaped}xxx`);
    expect(head!.endsWith(`xxx… (truncated, ${bytes + 'Error: cannot parse '.length} bytes)"`)).toBe(true);
    expect(head).not.toMatch(/[\p{Cc}\u2028\u2029]/u);
    expect(head!.length).toBeLessThan(3 * 2048 + 400);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((f) => /^\s+at /.test(f))).toBe(true);
  });

  it('never takes lines of the message for stack frames', () => {
    const out: string[] = [];
    const error = new Error('bad input\n    at forged (/evil.js:1:1)\n[mcp-fusion] INFO all good');
    createStderrLogger((text) => out.push(text), at).error({ err: error }, 'tool handler threw');
    expect(out[0]).not.toContain('\n    at forged');
    expect(out[0]).toContain('err="Error: bad input\\n    at forged (/evil.js:1:1)\\n[mcp-fusion] INFO all good"\n');
    const frames = out[0]!.trimEnd().split('\n').slice(1);
    expect(frames[0]).toMatch(/^ {4}at .*createStderrLogger\.test\.ts/);
    expect(frames.every((f) => /^ {4}at /.test(f))).toBe(true);
  });

  it('cuts the stack frames of one error to maxValueBytes together', () => {
    const out: string[] = [];
    const error = new Error('deep');
    error.stack = `Error: deep\n${'    at frame (/app/f.js:1:1)\n'.repeat(500)}`;
    createStderrLogger((text) => out.push(text), at, { maxValueBytes: 256 }).error({ err: error }, 'threw');
    const frames = out[0]!.trimEnd().split('\n').slice(1);
    expect(frames.at(-1)).toBe('    … (truncated, 14500 bytes)');
    expect(frames.slice(0, -1).join('\n').length).toBeLessThanOrEqual(256);
  });

  it('cuts an object value by its JSON and quotes what was cut', () => {
    const out: string[] = [];
    createStderrLogger((text) => out.push(text), at, { maxValueBytes: 40 }).warn(
      { arguments: { text: 'y'.repeat(100) } },
      'refused',
    );
    expect(out[0]).toBe(
      `[mcp-fusion] 2026-11-26T08:00:00.000Z WARN refused arguments="{\\"text\\":\\"${'y'.repeat(28)}… (truncated, 111 bytes)"\n`,
    );
  });
});
