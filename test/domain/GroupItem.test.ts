import { describe, expect, it } from 'vitest';
import { Group } from '../../src/domain/Group.js';
import { Tool } from '../../src/domain/Tool.js';

describe('GroupItem', () => {
  it('belongs to several groups at once, from either side', () => {
    const userFacing = new Group('user-facing');
    const admin = new Group('admin');
    const search = new Tool('search');
    expect(search.addParentGroup(userFacing)).toBe(true);
    expect(admin.addChildTool(search)).toBe(true);
    expect(search.addParentGroup(admin)).toBe(false);
    expect(search.parentGroups).toEqual([userFacing, admin]);
    expect(admin.childTools).toEqual([search]);
    expect(search.removeParentGroup(userFacing)).toBe(true);
    expect(search.removeParentGroup(userFacing)).toBe(false);
    expect(userFacing.childTools).toEqual([]);
    expect(search.parentGroups).toEqual([admin]);
  });

  it('qualifies its name under its first parent, and lists one name per parent', () => {
    const platform = new Group('platform');
    const users = new Group('users');
    platform.addChildGroup(users);
    const ops = new Group('ops');
    const create = new Tool('create');
    expect(create.getFullyQualifiedName()).toBe('create');
    expect(create.getFullyQualifiedNames()).toEqual(['create']);
    users.addChildTool(create);
    ops.addChildTool(create);
    expect(create.getFullyQualifiedName()).toBe('platform.users.create');
    expect(create.getFullyQualifiedNames()).toEqual(['platform.users.create', 'ops.create']);
    expect(new Tool('x', { separator: '/' }).getFullyQualifiedName()).toBe('x');
  });

  it('finds the distinct roots of every tree it belongs to', () => {
    const platform = new Group('platform');
    const users = new Group('users');
    const billing = new Group('billing');
    platform.addChildGroup(users);
    platform.addChildGroup(billing);
    const other = new Group('other');
    const tool = new Tool('audit');
    users.addChildTool(tool);
    billing.addChildTool(tool);
    other.addChildTool(tool);
    expect(tool.getParentGroupRoots()).toEqual([platform, other]);
  });
});
