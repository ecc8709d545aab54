import { inputRequired } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { normalizePromptResult } from '../../src/prompts/normalizePromptResult.js';
import { normalizeReadResult } from '../../src/resources/normalizeReadResult.js';

const ask = inputRequired({
  inputRequests: {
    ok: inputRequired.elicit({
      message: 'OK?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } } },
    }),
  },
  requestState: 's',
});

describe('input_required returns of prompt and resource handlers', () => {
  it('pass through untouched (no description added, no contents shaping)', () => {
    expect(normalizePromptResult(ask, 'p', 'A prompt')).toBe(ask);
    expect(normalizeReadResult(ask, 'test://x', 'text/plain')).toBe(ask);
  });
});
