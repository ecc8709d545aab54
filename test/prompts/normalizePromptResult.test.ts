import { describe, expect, it } from 'vitest';
import { WireError } from '../../src/errors/WireError.js';
import { normalizePromptResult } from '../../src/prompts/normalizePromptResult.js';

const image = { type: 'image' as const, data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('normalizePromptResult', () => {
  it('turns a string into one user text message and adds the prompt description', () => {
    expect(normalizePromptResult('hi', 'p', 'A prompt')).toEqual({
      description: 'A prompt',
      messages: [{ role: 'user', content: { type: 'text', text: 'hi' } }],
    });
  });

  it('keeps content blocks and a whole result, filling only what is missing', () => {
    const embedded = {
      role: 'user' as const,
      content: { type: 'resource' as const, resource: { uri: 'test://x', mimeType: 'text/plain', text: 'body' } },
    };
    expect(normalizePromptResult([{ role: 'user', content: image }, embedded], 'p', undefined)).toEqual({
      messages: [{ role: 'user', content: image }, embedded],
    });
    expect(normalizePromptResult({ description: 'own', messages: ['x'], _meta: { a: 1 } }, 'p', 'default')).toEqual({
      description: 'own',
      messages: [{ role: 'user', content: { type: 'text', text: 'x' } }],
      _meta: { a: 1 },
    });
  });

  it('refuses other returns with an internal error naming the prompt', () => {
    expect(() => normalizePromptResult(42 as never, 'p', undefined)).toThrowErrorMatchingInlineSnapshot(
      `[WireError: Prompt "p" returned a number; its handler must return a string, an array of messages or { messages: [...] }.]`,
    );
    expect(() =>
      normalizePromptResult([{ role: 'system', content: 'x' }] as never, 'p', undefined),
    ).toThrowErrorMatchingInlineSnapshot(
      `[WireError: Prompt "p" returned an invalid message at index 0 (an object with keys role, content); write { role: 'user' | 'assistant', content: 'text' or a content block }.]`,
    );
    expect(() => normalizePromptResult(undefined as never, 'p', undefined)).toThrow(
      expect.objectContaining({ code: -32603 }),
    );
    expect(() => normalizePromptResult(null as never, 'p', undefined)).toThrow(WireError);
  });
});
