import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeLogText, truncateLogText, utf8Length } from '../../src/logging/escapeLogText.js';

/** Characters no escaped text may hold: C0, DEL, C1, line/paragraph separators, bidi controls, lone surrogates. */
const UNSAFE = /[\p{Cc}\p{Cs}\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

describe('escapeLogText', () => {
  it('writes control characters, ANSI escapes, separators and bidi overrides as escapes', () => {
    expect(escapeLogText('a\n[INFO] forged\r\u001b[31mred\u001b[0m\t\u0000\u007f\u009b\u2028\u2029\u202e\u2066')).toBe(
      'a\\n[INFO] forged\\r\\u001b[31mred\\u001b[0m\\t\\u0000\\u007f\\u009b\\u2028\\u2029\\u202e\\u2066',
    );
    expect(escapeLogText('plain "text" with \\ and ünïcödé 😀')).toBe('plain "text" with \\ and ünïcödé 😀');
    expect(escapeLogText('lone \ud800 high, lone \udc00 low')).toBe('lone \\ud800 high, lone \\udc00 low');
  });

  it('quoted, escapes " and \\ too: between quotes it is a JSON string of the original', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        const quoted = escapeLogText(text, 1 << 20, { quoted: true });
        expect(JSON.parse(`"${quoted}"`)).toBe(text);
        expect(UNSAFE.test(quoted)).toBe(false);
        expect(UNSAFE.test(escapeLogText(text, 1 << 20))).toBe(false);
      }),
      { numRuns: 300 },
    );
  });

  it('cuts at maxBytes of escaped UTF-8, never inside a pair, and names the original length', () => {
    const huge = `\u001b[31m${'x'.repeat(4 * 2 ** 20 - 5)}`;
    const cut = escapeLogText(huge, 2048);
    expect(cut).toBe(`\\u001b[31m${'x'.repeat(2048 - 10)}… (truncated, 4194304 bytes)`);
    expect(escapeLogText('😀😀😀', 7)).toBe('😀… (truncated, 12 bytes)');
    expect(escapeLogText('é'.repeat(10), 5)).toBe('éé… (truncated, 20 bytes)');
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), fc.integer({ min: 1, max: 400 }), (text, max) => {
        const out = escapeLogText(text, max);
        const kept = out.replace(/… \(truncated, \d+ bytes\)$/, '');
        expect(utf8Length(kept)).toBeLessThanOrEqual(max);
        if (kept !== out) expect(out.endsWith(`(truncated, ${utf8Length(text)} bytes)`)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('truncateLogText', () => {
  it('cuts without escaping, and leaves text within the bound as it is', () => {
    expect(truncateLogText('a\nb', 10)).toBe('a\nb');
    expect(truncateLogText('ab\ncd', 3)).toBe('ab\n… (truncated, 5 bytes)');
    expect(truncateLogText('x'.repeat(4 * 2 ** 20), 2048)).toBe(`${'x'.repeat(2048)}… (truncated, 4194304 bytes)`);
  });
});
