import { InMemoryServerEventBus, type ServerEvent } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, type WorkflowChange } from '../../src/index.js';
import { texts, v2FetchClient } from '../_helpers/clients.js';

const handleOf = (result: { content?: unknown }) => /checkout_id: (che_[\w-]+)/.exec(texts(result).join('\n'))?.[1];

describe('resources/updated of a handle-keyed workflow instance', () => {
  it('is not published for the call that mints the handle (nobody can watch it yet), and is for every later transition', async () => {
    const bus = new InMemoryServerEventBus();
    const published: ServerEvent[] = [];
    bus.subscribe((event) => void published.push(event));
    const changes: WorkflowChange[] = [];
    const app = createFusionApp(registry, {
      ...workspaceOptions(),
      bus,
      onWorkflowChange: (change) => void changes.push(change),
    });
    await using client = await v2FetchClient(app, 'auto');
    expect(client.getProtocolEra()).toBe('modern');

    const handle = handleOf(await client.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } }))!;
    const uri = `fusion://fsm/checkout/${handle}`;
    expect(changes).toEqual([{ machine: 'checkout', handle, uri, state: 'has_items', minted: true }]);
    expect(published.filter((e) => e.kind === 'resource_updated')).toEqual([]);

    const checkedOut = await client.callTool({ name: 'cart.checkout', arguments: { checkout_id: handle } });
    expect(checkedOut.isError, texts(checkedOut).join('\n')).not.toBe(true);
    expect(changes.at(-1)).toMatchObject({ handle, minted: false });
    // (The event also carries its identity in params._meta, so that resumable streams store it once.)
    expect(published.filter((e) => e.kind === 'resource_updated')).toMatchObject([{ kind: 'resource_updated', uri }]);
    expect(published.filter((e) => e.kind === 'resource_updated')).toHaveLength(1);
    await app.close();
  });
});
