import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors/FusionError.js';
import { Group } from '../../src/domain/Group.js';
import { Prompt } from '../../src/domain/Prompt.js';
import { Resource } from '../../src/domain/Resource.js';
import { Tool } from '../../src/domain/Tool.js';

function tree() {
  const platform = new Group('platform', { description: 'Everything' });
  const users = new Group('users');
  const management = new Group('management');
  platform.addChildGroup(users);
  users.addChildGroup(management);
  return { platform, users, management };
}

function thrown(run: () => unknown): DefinitionError {
  try {
    run();
  } catch (error) {
    return error as DefinitionError;
  }
  throw new Error('expected an error');
}

describe('Group', () => {
  it('qualifies its name by walking up the parents', () => {
    const { platform, users, management } = tree();
    expect(platform.getFullyQualifiedName()).toBe('platform');
    expect(users.getFullyQualifiedName()).toBe('platform.users');
    expect(management.getFullyQualifiedName()).toBe('platform.users.management');
  });

  it('joins names with its own separator when one is configured', () => {
    const root = new Group('api', { separator: '/' });
    const v1 = new Group('v1', { separator: '/' });
    root.addChildGroup(v1);
    expect(v1.getFullyQualifiedName()).toBe('api/v1');
    expect(() => new Group('x', { separator: '' })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Group "x" has an empty separator; omit it to use "." or give one such as "/".]`,
    );
  });

  it('knows its root and parent, and detaches a child group', () => {
    const { platform, users, management } = tree();
    expect(management.getRoot()).toBe(platform);
    expect(platform.isRoot()).toBe(true);
    expect(users.parent).toBe(platform);
    expect(platform.addChildGroup(users)).toBe(false);
    expect(platform.removeChildGroup(users)).toBe(true);
    expect(platform.removeChildGroup(users)).toBe(false);
    expect(users.isRoot()).toBe(true);
    expect(platform.childGroups).toEqual([]);
    expect(management.getFullyQualifiedName()).toBe('users.management');
  });

  it('rejects a cycle, naming both groups and the fix', () => {
    const { platform, users, management } = tree();
    expect(() => management.addChildGroup(platform)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Group "platform" cannot become a child of "platform.users.management": it is one of its ancestors, so the tree would loop. Add a different group, or move "management" out from under "platform" first.]`,
    );
    expect(() => users.addChildGroup(users)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Group "platform.users" cannot contain itself; add a different group.]`,
    );
    const error = thrown(() => management.addChildGroup(users));
    expect(error).toBeInstanceOf(DefinitionError);
    expect([error.code, error.data]).toEqual(['GROUP_CYCLE', { group: 'users', parent: 'management' }]);
    expect(management.childGroups).toEqual([]);
  });

  it('refuses a second parent for a group', () => {
    const { users } = tree();
    const admin = new Group('admin');
    expect(() => admin.addChildGroup(users)).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Group "users" already belongs to "platform"; a group has one parent. Call removeChildGroup() on "platform" before adding it under "admin".]`,
    );
  });

  it('files tools, prompts and resources in their own lists and links both sides', () => {
    const group = new Group('docs');
    const tool = new Tool('search');
    const prompt = new Prompt('summarize');
    const resource = new Resource('readme', 'docs://readme');
    expect(group.addChildTool(tool)).toBe(true);
    expect(group.addChildTool(tool)).toBe(false);
    expect(group.addChildPrompt(prompt)).toBe(true);
    expect(group.addChildResource(resource)).toBe(true);
    expect(group.childTools).toEqual([tool]);
    expect(group.childPrompts).toEqual([prompt]);
    expect(group.childResources).toEqual([resource]);
    expect(tool.parentGroups).toEqual([group]);
    expect(group.removeChildPrompt(prompt)).toBe(true);
    expect(group.removeChildPrompt(prompt)).toBe(false);
    expect(prompt.parentGroups).toEqual([]);
    expect(group.removeChildTool(tool)).toBe(true);
    expect(group.removeChildResource(resource)).toBe(true);
    expect([group.childTools, group.childResources, resource.parentGroups]).toEqual([[], [], []]);
  });

  it('carries the shared metadata of every model', () => {
    const group = new Group('g', {
      title: 'G',
      description: 'A group',
      meta: { owner: 'team' },
      icons: [{ src: 'https://x/icon.png' }],
    });
    expect([group.name, group.title, group.description, group.meta, group.icons, group.separator]).toEqual([
      'g',
      'G',
      'A group',
      { owner: 'team' },
      [{ src: 'https://x/icon.png' }],
      '.',
    ]);
    expect(() => new Group('')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Group needs a non-empty name; got "".]`,
    );
  });
});
