import { describe, expect, it, vi } from 'vitest';
import { DefinitionError, initFusion, ToolRegistry } from '../../src/index.js';
import { createTestClient } from '../../src/testing/index.js';

const f = initFusion();

describe('ToolRegistry', () => {
  it('rejects a duplicate name with an error naming both registrations', () => {
    const registry = new ToolRegistry().register(
      f
        .query('sprints.list')
        .describe('List sprints')
        .handle(() => ''),
    );
    expect(() =>
      registry.register(
        f
          .mutation('sprints.list')
          .describe('Also list')
          .handle(() => ''),
      ),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "sprints.list" is registered twice: first a query ("List sprints"), then a mutation ("Also list"). Give one of them another name.]`,
    );
  });

  it('refuses something that is not a built tool', () => {
    expect(() => new ToolRegistry().register(f.query('x.y') as never)).toThrow(DefinitionError);
    expect(() => new ToolRegistry().register(f.query('x.y') as never)).toThrow(/did you forget to call .handle\(\)/);
  });

  it('lets the same built tools live in several registries', () => {
    const tool = f.query('shared.tool').handle(() => 'x');
    const a = f.registry().register(tool);
    const b = f.registry().register(tool);
    expect(a.getTool('shared.tool')).toBe(b.getTool('shared.tool'));
  });

  it('filters by tags: every tag of `tags`, none of `exclude`', async () => {
    const registry = f.registry().registerAll(
      f
        .query('a.core')
        .tags('core')
        .handle(() => ''),
      f
        .query('a.core_admin')
        .tags('core', 'admin')
        .handle(() => ''),
      f
        .query('a.other')
        .tags('other')
        .handle(() => ''),
    );
    await using t1 = await createTestClient(registry, { filter: { tags: ['core'] } });
    expect(await t1.listToolNames()).toEqual(['a.core', 'a.core_admin']);
    await using t2 = await createTestClient(registry, { filter: { tags: ['core'], exclude: ['admin'] } });
    expect(await t2.listToolNames()).toEqual(['a.core']);
    await expect(t2.callTool('a.other')).rejects.toThrow(/Unknown tool "a.other"/);
  });

  it('applies the default timeout and a per-tool timeout with one isError result and an aborted signal', async () => {
    let aborted = false;
    const slow = f
      .query('slow.op')
      .timeout(30)
      .handle(async (_i, _c, extra) => {
        await new Promise((resolve) => extra.signal.addEventListener('abort', resolve));
        aborted = extra.signal.aborted;
        return 'late';
      });
    await using t = await createTestClient(f.registry().register(slow));
    const result = await t.callTool('slow.op');
    expect(result).toEqual({
      content: [
        {
          type: 'text',
          text: 'Tool "slow.op" timed out after 30 ms and was cancelled. Its effects may be partial: check the current state before retrying.',
        },
      ],
      isError: true,
      _meta: { 'fusion/timeout': { ms: 30 } },
    });
    await vi.waitFor(() => expect(aborted).toBe(true), { timeout: 2_000, interval: 5 });
  });
});
