import { describe, expect, it } from 'vitest';
import { normalizeReadResult } from '../../src/resources/normalizeReadResult.js';

describe('normalizeReadResult', () => {
  it('fills uri and mimeType into every item that has none', () => {
    expect(
      normalizeReadResult(
        [{ text: 'a' }, { blob: new Uint8Array([255]), mimeType: 'image/png' }, { uri: 'x://other', text: 'b' }],
        'x://r',
        'text/plain',
      ),
    ).toEqual({
      contents: [
        { uri: 'x://r', mimeType: 'text/plain', text: 'a' },
        { uri: 'x://r', mimeType: 'image/png', blob: '/w==' },
        { uri: 'x://other', mimeType: 'text/plain', text: 'b' },
      ],
    });
    expect(
      normalizeReadResult({ contents: [{ uri: 'x://r', text: 't' }], _meta: { m: 1 } }, 'x://r', undefined),
    ).toEqual({ contents: [{ uri: 'x://r', text: 't' }], _meta: { m: 1 } });
    expect(normalizeReadResult({ blob: 'AA==' }, 'x://r', undefined)).toEqual({
      contents: [{ uri: 'x://r', blob: 'AA==' }],
    });
  });

  it('gives undefined for nothing, and refuses other shapes naming the resource', () => {
    expect(normalizeReadResult(undefined, 'x://r', undefined)).toBeUndefined();
    expect(normalizeReadResult(null, 'x://r', undefined)).toBeUndefined();
    expect(() => normalizeReadResult(5 as never, 'x://r', undefined)).toThrowErrorMatchingInlineSnapshot(
      `[WireError: Resource "x://r" returned a number; its handler must return a string, bytes, { text }, { blob }, a list of those or { contents: [...] }.]`,
    );
    expect(() => normalizeReadResult([{ text: 1 }] as never, 'x://r', undefined)).toThrow(
      /returned an object with keys text at index 0/,
    );
  });
});
