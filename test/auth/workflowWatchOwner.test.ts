import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { registry as workspace, workspaceOptions } from '../../examples/workspace/registry.js';
import { createFusionApp, type FusionApp } from '../../src/index.js';
import { texts } from '../_helpers/clients.js';

const ISS = 'https://id.example';
const user = (sub: string) => ({ token: `t-${sub}`, clientId: 'app', scopes: [], extra: { sub, iss: ISS } });

/** A v2 client (`modern`: 2026-07-28, else a legacy session) whose every request carries `authInfo`. */
async function clientOf(app: FusionApp, authInfo: unknown, modern: boolean): Promise<Client & AsyncDisposable> {
  const c = new Client({ name: 'watcher', version: '1.0.0' }, modern ? { versionNegotiation: { mode: 'auto' } } : {});
  await c.connect(
    new StreamableHTTPClientTransport(new URL('http://127.0.0.1/mcp'), {
      fetch: (url, init) => {
        const request = new Request(url, init);
        request.headers.set('host', '127.0.0.1');
        return app.fetch(request, { authInfo } as never);
      },
    }),
  );
  return Object.assign(c, { [Symbol.asyncDispose]: () => c.close() });
}

describe('a workflow instance is watched only by its owner', () => {
  it('leaves another principal’s instance out of a listen filter and refuses its legacy subscription as unknown', async () => {
    const app = createFusionApp(workspace, { ...workspaceOptions(), resourceSubscriptions: true });
    await using alice = await clientOf(app, user('alice'), true);
    const added = await alice.callTool({ name: 'cart.add_item', arguments: { product_id: 'p1' } });
    const handle = /checkout_id: (che_[\w-]+)/.exec(texts(added).join('\n'))?.[1];
    expect(handle, texts(added).join('\n')).toBeDefined();
    const uri = `fusion://fsm/checkout/${handle!}`;

    // Modern: the owner's filter keeps the URI; another principal's leaves it out, unnamed.
    const own = await alice.listen({ resourceSubscriptions: [uri, 'fusion://stale/sprints.*'] });
    expect(own.honoredFilter).toEqual({ resourceSubscriptions: [uri, 'fusion://stale/sprints.*'] });
    await using bob = await clientOf(app, user('bob'), true);
    const theirs = await bob.listen({ resourceSubscriptions: [uri, 'fusion://stale/sprints.*'] });
    expect(theirs.honoredFilter).toEqual({ resourceSubscriptions: ['fusion://stale/sprints.*'] });
    // A read by the other principal finds nothing either (the same answer as an unknown instance).
    await expect(bob.readResource({ uri })).rejects.toThrow(/not found/i);

    // Legacy: the owner may subscribe; another principal is refused as for an unknown instance.
    await using aliceLegacy = await clientOf(app, user('alice'), false);
    expect(await aliceLegacy.subscribeResource({ uri })).toEqual({});
    await using bobLegacy = await clientOf(app, user('bob'), false);
    await expect(bobLegacy.subscribeResource({ uri })).rejects.toThrow(
      `Resource not found: "${uri}". No workflow instance of yours has this handle`,
    );
    await expect(bobLegacy.subscribeResource({ uri: `fusion://fsm/checkout/che_nope` })).rejects.toThrow(
      'No workflow instance of yours has this handle',
    );
    await own.close();
    await theirs.close();
    await app.close();
  });
});
