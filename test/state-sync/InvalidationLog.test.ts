import { describe, expect, it } from 'vitest';
import { InvalidationLog } from '../../src/state-sync/InvalidationLog.js';
import type { InvalidationMeta } from '../../src/state-sync/types.js';

const meta = (causedBy: string, patterns: string[], at: string): InvalidationMeta =>
  Object.freeze({ patterns: Object.freeze(patterns), causedBy, at });

describe('InvalidationLog', () => {
  it('keeps the last invalidation of each pattern', () => {
    const log = new InvalidationLog();
    log.record(meta('tasks.update', ['tasks.*', 'sprints.*'], 'T1'));
    log.record(meta('sprints.create', ['sprints.*'], 'T2'));
    expect(log.last('tasks.*')).toMatchObject({ causedBy: 'tasks.update', at: 'T1' });
    expect(log.last('sprints.*')).toMatchObject({ causedBy: 'sprints.create', at: 'T2' });
    expect(log.last('audit.*')).toBeUndefined();
  });

  it('tells the recorded hook, then every listener, in order; a throwing listener is reported and the rest still hear it', () => {
    const heard: string[] = [];
    const failures: unknown[] = [];
    const log = new InvalidationLog({
      recorded: (patterns, causedBy) => heard.push(`hook ${causedBy} ${patterns.join(',')}`),
      listenerFailed: (error) => failures.push(error),
    });
    log.listen(() => {
      throw new Error('listener down');
    });
    log.listen((patterns, causedBy) => heard.push(`listener ${causedBy} ${patterns.join(',')}`));
    log.record(meta('tasks.update', ['tasks.*', 'sprints.*'], 'T1'));
    expect(heard).toEqual(['hook tasks.update tasks.*,sprints.*', 'listener tasks.update tasks.*,sprints.*']);
    expect(failures).toEqual([new Error('listener down')]);
  });

  it('stops telling a listener once it unsubscribes', () => {
    const log = new InvalidationLog();
    let calls = 0;
    const stop = log.listen(() => calls++);
    log.record(meta('a.b', ['a.*'], 'T1'));
    stop();
    log.record(meta('a.b', ['a.*'], 'T2'));
    expect(calls).toBe(1);
    expect(log.last('a.*')?.at).toBe('T2');
  });
});
