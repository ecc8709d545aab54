import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';

describe('handle arguments are validated before use', () => {
  it('answers a non-string checkout_id with a precise validation error, never -32603', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');
    const cases: Array<[unknown, string]> = [
      [{ toString: 1 }, 'an object'],
      [['che_x'], 'an array'],
      [42, 'a number'],
      [true, 'a boolean'],
    ];
    for (const [value, described] of cases) {
      const result = await client.callTool({ name: 'cart.checkout', arguments: { checkout_id: value } });
      expect(result.isError).toBe(true);
      expect(texts(result)[0]).toBe(
        `Invalid arguments for tool "cart.checkout": checkout_id must be a string (the checkout_id a checkout workflow returned), got ${described}. Pass the checkout_id exactly as returned, or start a new workflow with cart.add_item (called without checkout_id).`,
      );
      expect(result._meta).toMatchObject({ 'fusion/refusal': { reason: 'invalid-handle', handleArg: 'checkout_id' } });
    }
    await app.close();
  });
});
