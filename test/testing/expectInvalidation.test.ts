import { describe, expect, it } from 'vitest';
import { registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { createTestClient, expectInvalidation } from '../../src/testing/index.js';

describe('expectInvalidation', () => {
  it('passes when the result invalidates exactly these patterns, in any order', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const result = await t.call('tasks.update', { id: 't1', title: 'Ship it' });
    const info = expectInvalidation(result, ['sprints.*', 'tasks.*']);
    expect(info).toMatchObject({ patterns: ['tasks.*', 'sprints.*'], causedBy: 'tasks.update' });
    expectInvalidation(result.result, ['tasks.*', 'sprints.*']);
  });

  it('says what the result invalidates instead', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const result = await t.call('sprints.create', { name: 'S2' });
    expect(() => expectInvalidation(result, ['tasks.*'])).toThrowErrorMatchingInlineSnapshot(
      `[Error: Expected the result to invalidate "tasks.*", but it invalidates "sprints.*" (caused by "sprints.create").]`,
    );
    expect(() => expectInvalidation(result, [])).toThrowErrorMatchingInlineSnapshot(
      `[Error: Expected no invalidation, but the result invalidates "sprints.*" and starts with "[System: Cache invalidated for sprints.* — caused by sprints.create]".]`,
    );
  });

  it('explains that a failed call invalidates nothing', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const failed = await t.call('tasks.update', { id: 'nope' });
    expect(failed.isError).toBe(true);
    expect(() => expectInvalidation(failed, ['tasks.*'])).toThrow(
      /^Expected the result to invalidate "tasks\.\*", but it carries no invalidation signal\. It is an error result \(failed calls invalidate nothing\): "No task \\"nope\\"/,
    );
    expectInvalidation(failed, []);
  });

  it('points at the declaration when a read invalidates nothing', async () => {
    await using t = await createTestClient(registry, workspaceOptions());
    const listed = await t.call('sprints.list');
    expectInvalidation(listed, []);
    expect(() => expectInvalidation(listed, ['sprints.*'])).toThrowErrorMatchingInlineSnapshot(
      `[Error: Expected the result to invalidate "sprints.*", but it carries no invalidation signal. Declare .invalidates(...) on the tool or a stateSync policy that matches it.]`,
    );
  });
});
