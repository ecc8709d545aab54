import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createTestClient } from '../../src/testing/index.js';

const stateSync = {
  policies: [
    { match: 'platform.users.list', cacheControl: 'no-store' as const },
    { match: 'platform.users.*', invalidates: ['platform.users.list'] },
  ],
};

describe('grouped and flat exposition of the same definitions', () => {
  it("exposes a grouped builder as one MCP tool by default, answering the seeds' call", async () => {
    await using t = await createTestClient(registry, { ...workspaceOptions(), stateSync });
    const names = await t.listToolNames();
    expect(names.filter((n) => n.startsWith('platform'))).toEqual(['platform']);
    // Fluent tools stay one tool each by default, even when they share a prefix.
    expect(names).toEqual(expect.arrayContaining(['sprints.list', 'sprints.create', 'cart.view']));
    expect(names).not.toContain('sprints');
    const created = await t.client.callTool({
      name: 'platform',
      arguments: { action: 'users.create', email: 'di@example.com' },
    });
    expect(created.isError).toBeFalsy();
    expect(created.content).toEqual([
      { type: 'text', text: '[System: Cache invalidated for platform.users.list — caused by platform.users.create]' },
      { type: 'text', text: expect.stringContaining('"email":"di@example.com"') },
    ]);
    await expect(
      t.client.callTool({ name: 'platform.users.create', arguments: { email: 'x@example.com' } }),
    ).rejects.toThrow(/Unknown tool "platform.users.create"/);
  });

  it('exposes one MCP tool per action when flat, with policies on canonical names', async () => {
    await using t = await createTestClient(registry, { ...workspaceOptions(), stateSync, toolExposition: 'flat' });
    const tools = (await t.client.listTools()).tools;
    const list = tools.find((x) => x.name === 'platform.users.list')!;
    expect(list.description).toBe('List users [Cache-Control: no-store]');
    const created = await t.call('platform.users.create', { email: 'bo@example.com' });
    expect(created.content[0]).toBe(
      '[System: Cache invalidated for platform.users.list — caused by platform.users.create]',
    );
    expect(created.content[1]).toEqual({ id: expect.any(String), email: 'bo@example.com' });
  });

  it('exposes one tool with a discriminator when grouped, routing to the same actions and policies', async () => {
    await using t = await createTestClient(registry, { ...workspaceOptions(), stateSync, toolExposition: 'grouped' });
    const tools = (await t.client.listTools()).tools;
    const names = tools.map((x) => x.name);
    expect(names).toContain('platform');
    expect(names).not.toContain('platform.users.create');
    const platform = tools.find((x) => x.name === 'platform')!;
    expect((platform.inputSchema.properties as Record<string, { enum?: string[] }>).action?.enum).toEqual([
      'users.list',
      'users.create',
      'users.delete',
    ]);
    expect(platform.description).toMatch(/\[Cache-Control: no-store\]$/);
    expect(platform.annotations).toMatchObject({ destructiveHint: true, readOnlyHint: false });
    const created = await t.call('platform', { action: 'users.create', email: 'cy@example.com' });
    expect(created.content[0]).toBe(
      '[System: Cache invalidated for platform.users.list — caused by platform.users.create]',
    );
    const unknown = await t.call('platform', { action: 'users.promote', id: 'u1' });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]).toBe(
      'Tool "platform" was called with "action": "users.promote". Valid values of "action": users.list, users.create, users.delete. Call "platform" again with one of them.',
    );
    const bad = await t.call('platform', { action: 'users.create', email: 3, extra: true });
    expect(bad.isError).toBe(true);
    expect(String(bad.content[0])).toContain('- email: expected string, received number\n- extra: unknown field');
  });

  it('serves the example prompt and resource', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const prompts = await t.client.listPrompts();
    expect(prompts.prompts.map((p) => p.name)).toEqual(['plan_sprint']);
    const got = await t.client.getPrompt({ name: 'plan_sprint', arguments: { goal: 'ship v1' } });
    expect(JSON.stringify(got.messages)).toContain('Plan a sprint to ship v1. Current sprints: Sprint 1');
    const read = await t.client.readResource({ uri: 'workspace://sprints' });
    expect(JSON.parse((read.contents[0] as { text: string }).text)[0].name).toBe('Sprint 1');
  });
});
