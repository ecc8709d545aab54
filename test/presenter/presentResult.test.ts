import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createPresenter, presentResult } from '../../src/presenter/index.js';

const cartItem = createPresenter('CartItem')
  .schema(z.object({ id: z.string(), quantity: z.number().int().positive() }))
  .suggestActions((item) => [
    { tool: 'cart.checkout', reason: 'Ready to pay?' },
    { tool: 'cart.add_item', reason: `Add more than ${item.quantity}?` },
    { tool: 'cart.pay', reason: 'Pay now' },
  ]);

describe('presentResult', () => {
  it('renders the validated data and every suggestion when no visibility is given', () => {
    const result = presentResult(cartItem, { id: 'p1', quantity: 2 });
    expect(result).toEqual({
      content: [
        { type: 'text', text: '{"id":"p1","quantity":2}' },
        {
          type: 'text',
          text: 'Suggested next actions:\n- cart.checkout: Ready to pay?\n- cart.add_item: Add more than 2?\n- cart.pay: Pay now',
          _meta: {
            'fusion/suggestions': [
              { tool: 'cart.checkout', reason: 'Ready to pay?' },
              { tool: 'cart.add_item', reason: 'Add more than 2?' },
              { tool: 'cart.pay', reason: 'Pay now' },
            ],
          },
        },
      ],
    });
  });

  it('leaves out suggestions whose tool is hidden', () => {
    const hasItems = new Set(['cart.checkout', 'cart.add_item']);
    const result = presentResult(cartItem, { id: 'p1', quantity: 1 }, (tool) => hasItems.has(tool));
    expect(result.content[1]).toMatchObject({
      text: 'Suggested next actions:\n- cart.checkout: Ready to pay?\n- cart.add_item: Add more than 1?',
    });
  });

  it('drops the block when every suggested tool is hidden, or none is suggested', () => {
    expect(presentResult(cartItem, { id: 'p1', quantity: 1 }, () => false).content).toEqual([
      { type: 'text', text: '{"id":"p1","quantity":1}' },
    ]);
    const quiet = createPresenter('Quiet').suggestActions(() => []);
    expect(presentResult(quiet, 'done').content).toEqual([{ type: 'text', text: 'done' }]);
  });

  it('shows the exposed names the agent calls', () => {
    const result = presentResult(cartItem, { id: 'p1', quantity: 1 }, (t) => t === 'cart.checkout', {
      displayName: (t) => t.replaceAll('.', '_'),
    });
    expect(result.content[1]).toMatchObject({
      text: 'Suggested next actions:\n- cart_checkout: Ready to pay?',
      _meta: { 'fusion/suggestions': [{ tool: 'cart.checkout', reason: 'Ready to pay?' }] },
    });
  });

  it('sends what the schema parsed: unknown keys are stripped before the agent sees them', () => {
    const result = presentResult(cartItem, { id: 'p1', quantity: 1, internalCost: 0.42 }, () => false);
    expect(result.content).toEqual([{ type: 'text', text: '{"id":"p1","quantity":1}' }]);
  });

  it('answers a mismatch with an isError result naming each bad field', () => {
    const result = presentResult(cartItem, { id: 7, quantity: 0 }, () => true, { tool: 'cart.add_item' });
    expect(result.isError).toBe(true);
    expect(result.content).toHaveLength(1);
    expect((result.content[0] as { text: string }).text).toMatchInlineSnapshot(`
      "Tool "cart.add_item" ran, but its result does not match "CartItem":
      - id: expected string, received number
      - quantity: Too small: expected number to be >0
      This is a server-side problem, not a problem with your arguments. Its effects may have been applied: check the current state before retrying."
    `);
    expect(result._meta).toEqual({ 'fusion/presenter': { presenter: 'CartItem', issues: expect.any(Array) } });
    expect((result.content[0] as { text: string }).text).not.toMatch(/Suggested/);
  });

  it('names the result itself when the data is not even an object', () => {
    const result = presentResult(cartItem, undefined);
    expect((result.content[0] as { text: string }).text.split('\n').slice(0, 2)).toEqual([
      'The tool ran, but its result does not match "CartItem":',
      '- (result): expected object, received undefined',
    ]);
  });

  it('passes a CallToolResult through untouched', () => {
    const raw = { content: [{ type: 'text' as const, text: 'no stock' }], isError: true };
    expect(presentResult(cartItem, raw)).toBe(raw);
  });

  it('works without a schema', () => {
    const plain = createPresenter('Plain').suggestActions((data) => [
      { tool: 'next', reason: `after ${String(data)}` },
    ]);
    expect(presentResult(plain, 'step 1').content.map((b) => (b as { text: string }).text)).toEqual([
      'step 1',
      'Suggested next actions:\n- next: after step 1',
    ]);
  });

  it('accepts a built presenter as well as the builder', () => {
    expect(presentResult(cartItem.build(), { id: 'p1', quantity: 1 })).toEqual(
      presentResult(cartItem, { id: 'p1', quantity: 1 }),
    );
  });

  it('throws with the presenter named when suggestActions fails or returns nonsense', () => {
    const broken = createPresenter('Broken').suggestActions(() => {
      throw new Error('no db');
    });
    expect(() => presentResult(broken, {})).toThrow('Presenter "Broken" failed in suggestActions: no db');
    const wrong = createPresenter('Wrong').suggestActions(() => [{ tool: 'x' } as never]);
    expect(() => presentResult(wrong, {})).toThrow(
      'Presenter "Wrong": suggestActions returned an invalid entry [0]; each must be { tool: string, reason: string }.',
    );
  });
});
