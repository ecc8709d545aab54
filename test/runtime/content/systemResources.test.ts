import { describe, expect, it } from 'vitest';
import { globsIntersect, staleResourceUris } from '../../../src/runtime/content/systemResources.js';

describe('invalidation → stale resources', () => {
  it('decides whether two globs can match the same name', () => {
    expect(globsIntersect('sprints.*', 'sprints.*')).toBe(true);
    expect(globsIntersect('sprints.*', '*.list')).toBe(true);
    expect(globsIntersect('sprints.*', 'tasks.*')).toBe(false);
    expect(globsIntersect('sprints.**', 'sprints')).toBe(true);
    expect(globsIntersect('sprints.*', 'sprints')).toBe(false);
    expect(globsIntersect('**', 'a.b.c')).toBe(true);
    expect(globsIntersect('a.*.c', 'a.b.*')).toBe(true);
    expect(globsIntersect('a.*.c', 'a.b')).toBe(false);
  });

  it('lists the stale pattern resources and the resources that reflect an invalidated domain', () => {
    const resources = [
      { uri: 'workspace://sprints', reflects: ['sprints.*'] },
      { uri: 'workspace://tasks', reflects: ['tasks.**'] },
      { uri: 'workspace://static' },
    ];
    expect(staleResourceUris(['sprints.*'], resources)).toEqual(['fusion://stale/sprints.*', 'workspace://sprints']);
    expect(staleResourceUris(['tasks.*', 'sprints.*'], resources)).toEqual([
      'fusion://stale/tasks.*',
      'fusion://stale/sprints.*',
      'workspace://sprints',
      'workspace://tasks',
    ]);
  });
});
