import { describe, expect, it } from 'vitest';
import { nearestNames } from '../../src/_internal/nearestNames.js';

const tools = ['docs.list', 'docs.get', 'docs.delete', 'sprints.list', 'sprints.create', 'a.one'];

describe('nearestNames', () => {
  it('finds a name one edit away: a dropped letter, a swap, another case', () => {
    expect(nearestNames('docs.lst', tools)).toEqual(['docs.list']);
    expect(nearestNames('docs.lsit', tools)).toEqual(['docs.list']);
    expect(nearestNames('Docs.List', tools)).toEqual(['docs.list']);
  });

  it('keeps only the nearest names, in the order given, at most three', () => {
    expect(nearestNames('docs.gt', tools)).toEqual(['docs.get']);
    expect(nearestNames('sprints.lis', ['sprints.lists', 'sprints.lint', 'sprints.list', 'sprints.l'])).toEqual([
      'sprints.list',
    ]);
    expect(nearestNames('cart.ad', ['cart.and', 'cart.pay', 'cart.add', 'cart.at', 'cart.a'])).toEqual([
      'cart.and',
      'cart.add',
      'cart.at',
    ]);
  });

  it('suggests nothing for unrelated or too distant names, and allows fewer edits for short names', () => {
    expect(nearestNames('nope', tools)).toEqual([]);
    expect(nearestNames('a.two', tools)).toEqual([]);
    expect(nearestNames('a.on', tools)).toEqual(['a.one']);
    expect(nearestNames('sprints.cr', tools)).toEqual([]);
    expect(nearestNames('', tools)).toEqual([]);
  });
});
