import { describe, expect, it } from 'vitest';
import { KeyLocks } from '../../src/workflow/KeyLocks.js';

describe('KeyLocks', () => {
  it('takes a free key at once, and frees it on unlock with nobody waiting', () => {
    const locks = new KeyLocks();
    expect(locks.take('a')).toBeUndefined();
    expect([...locks.keys()]).toEqual(['a']);
    locks.unlock('a');
    expect([...locks.keys()]).toEqual([]);
    expect(locks.take('a')).toBeUndefined();
  });

  it('hands a held key to its waiters one at a time, in arrival order, then frees it', async () => {
    const locks = new KeyLocks();
    locks.take('a');
    const order: number[] = [];
    const waiting = [1, 2, 3].map((i) => locks.take('a')!.then(() => order.push(i)));
    await Promise.resolve();
    expect(order).toEqual([]);
    for (let i = 0; i < 3; i++) {
      locks.unlock('a');
      await waiting[i];
      expect(order).toEqual([1, 2, 3].slice(0, i + 1));
      expect([...locks.keys()]).toEqual(['a']);
    }
    locks.unlock('a');
    expect([...locks.keys()]).toEqual([]);
  });

  it('runs whenIdle callbacks once the key is free with nobody waiting, and refuses them for a free key', async () => {
    const locks = new KeyLocks();
    expect(locks.whenIdle('a', () => {})).toBe(false);
    locks.take('a');
    const idle: string[] = [];
    expect(locks.whenIdle('a', () => idle.push('first'))).toBe(true);
    const next = locks.take('a')!;
    locks.unlock('a');
    await next;
    expect(idle).toEqual([]);
    expect(locks.whenIdle('a', () => idle.push('second'))).toBe(true);
    locks.unlock('a');
    expect(idle).toEqual(['first', 'second']);
    expect([...locks.keys()]).toEqual([]);
  });

  it('keeps keys apart', () => {
    const locks = new KeyLocks();
    expect(locks.take('a')).toBeUndefined();
    expect(locks.take('b')).toBeUndefined();
    locks.unlock('a');
    expect([...locks.keys()]).toEqual(['b']);
  });
});
