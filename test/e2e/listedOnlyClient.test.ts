// Some clients (MCP Inspector 2.x among them) refuse to call a tool their last tools/list did not show, with
// their own "tool not found", so the server's workflow refusal never reaches the model. What the model needs
// must then come with the calls that succeed: each transition's `Next:` line names exactly the workflow's
// tools that tools/list shows now (legacy era); on the modern era every tool is listed, so the server's
// refusal itself reaches the model.
import type { Client } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';

/** A client that, like Inspector 2.x, calls only the tools its last tools/list showed. */
function listedOnly(client: Client) {
  let listed: string[] = [];
  return {
    async list(): Promise<string[]> {
      listed = (await client.listTools()).tools.map((t) => t.name);
      return listed;
    },
    async call(
      name: string,
      args: Record<string, unknown> = {},
    ): Promise<{ refusedByClient: true } | { refusedByClient: false; text: string[]; isError: boolean }> {
      if (!listed.includes(name)) return { refusedByClient: true };
      const result = await client.callTool({ name, arguments: args });
      return { refusedByClient: false, text: texts(result), isError: result.isError === true };
    },
  };
}

/** The tools a `Next:` line names. */
function nextOf(text: readonly string[]): string[] {
  const line = text.at(-1) ?? '';
  const match = /Next: (.*)\.$/.exec(line);
  if (match === null) throw new Error(`no Next line in: ${line}`);
  return match[1]!.split(', ');
}

describe('a client that calls only listed tools', () => {
  it('legacy era: every transition ends with a Next line naming exactly the workflow tools tools/list shows now', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    try {
      await using client = await v2FetchClient(app, 'legacy');
      const agent = listedOnly(client);
      expect(await agent.list()).not.toContain('cart.pay');
      expect(await agent.call('cart.pay', { payment_method: 'card' })).toEqual({ refusedByClient: true });
      const steps: Array<[string, Record<string, unknown>]> = [
        ['cart.add_item', { product_id: 'p1' }],
        ['cart.checkout', {}],
        ['cart.cancel', {}],
        ['cart.checkout', {}],
        ['cart.pay', { payment_method: 'card' }],
      ];
      const seen: string[][] = [];
      for (const [name, args] of steps) {
        const result = await agent.call(name, args);
        if (result.refusedByClient)
          throw new Error(`${name} was not listed: the previous Next line led the agent astray`);
        expect(result.isError, result.text.join('\n')).toBe(false);
        const next = nextOf(result.text);
        seen.push(next);
        expect(next.sort()).toEqual((await agent.list()).filter((n) => n.startsWith('cart.')).sort());
      }
      // Each step's tool was named by the Next line before it.
      steps.slice(1).forEach(([name], i) => expect(seen[i], name).toContain(name));
    } finally {
      await app.close();
    }
  });

  it('modern era: every tool is listed, so a call in the wrong state reaches the server and gets its refusal', async () => {
    const app = createFusionApp(registry, workspaceOptions());
    try {
      await using client = await v2FetchClient(app, 'auto');
      const agent = listedOnly(client);
      expect(await agent.list()).toContain('cart.pay');
      const added = await agent.call('cart.add_item', { product_id: 'p1' });
      if (added.refusedByClient) throw new Error('cart.add_item is listed');
      const handle = /checkout_id: (che_[\w-]+)/.exec(added.text.join('\n'))![1]!;
      const refused = await agent.call('cart.pay', { payment_method: 'card', checkout_id: handle });
      expect(refused).toMatchObject({ refusedByClient: false, isError: true });
      expect(!refused.refusedByClient && refused.text[0]).toMatch(
        /^Tool "cart\.pay" is not available in the current workflow state "has_items" \(workflow "checkout"\)\. It works in: payment\. Call first: cart\.checkout\. Available now: /,
      );
    } finally {
      await app.close();
    }
  });
});
