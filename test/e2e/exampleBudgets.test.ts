import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { WorkspaceDb } from '../../examples/workspace/db.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';

describe('the workspace example’s demo database has budgets', () => {
  it('refuses a 3.9 MB sprint name with a precise message and keeps nothing of it', async () => {
    const db = new WorkspaceDb();
    await using t = await createTestClient(registry, workspaceOptions(db));
    const before = db.bytes;
    const refused = await t.client.callTool({ name: 'sprints.create', arguments: { name: 'x'.repeat(3_900_000) } });
    expect(refused.isError).toBe(true);
    expect(texts(refused).join('\n')).toContain(
      'The sprint name is 3900000 characters long, over the limit of 200; use a shorter sprint name.',
    );
    expect(db.sprints.size).toBe(1);
    expect(db.bytes).toBe(before);
    expect((await t.client.callTool({ name: 'sprints.create', arguments: { name: 'Sprint 2' } })).isError).toBeFalsy();
  });

  it('refuses past the record count and past the total bytes, naming the limit', async () => {
    const db = new WorkspaceDb({ maxRecords: 3, maxBytes: 40 });
    await using t = await createTestClient(registry, workspaceOptions(db));
    const create = async (name: string) =>
      texts(await t.client.callTool({ name: 'sprints.create', arguments: { name } })).join('\n');
    await create('a'.repeat(10));
    await create('b'.repeat(10));
    expect(await create('c'.repeat(30))).toContain(
      'The demo database holds 20 bytes of text, and this sprint name would take it past its limit of 40; remove some data or restart the server to reset it.',
    );
    await create('c'.repeat(10));
    expect(db.sprints.size).toBe(3);
    expect(await create('d')).toContain(
      'The demo database already holds 3 sprints, its most; remove some or restart the server to reset it.',
    );
  });

  it('bounds a cart’s items and product ids, and the number of carts kept', () => {
    const db = new WorkspaceDb({ maxRecords: 2 });
    const cart = db.cart('k1');
    db.addToCart(cart, 'p1', 1);
    db.addToCart(cart, 'p2', 1);
    expect(() => db.addToCart(cart, 'p3', 1)).toThrow(
      'This cart already holds 2 items, the most the demo database keeps in one cart; check out or clear it first.',
    );
    expect(() => db.addToCart(db.cart('k2'), 'p'.repeat(201), 1)).toThrow(
      'The product id is 201 characters long, over the limit of 200; use a shorter product id.',
    );
    for (let i = 0; i < 30; i++) db.cart(`other-${i}`);
    expect(db.carts.size).toBe(20);
  });
});
