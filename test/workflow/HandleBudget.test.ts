import { describe, expect, it } from 'vitest';
import { HandleBudget } from '../../src/workflow/HandleBudget.js';

describe('HandleBudget', () => {
  it('counts live handles per owner and in total, forgetting expired and finished ones', () => {
    let now = 0;
    const budget = new HandleBudget({ maxPerPrincipal: 2, maxTotal: 3 }, () => now);
    budget.hold('a', 'h1', 100);
    budget.hold('a', 'h2', 200);
    expect(budget.check('a')).toBe('owner');
    budget.hold('a', 'h2', 300); // refreshed, still one
    expect(budget.size).toBe(2);
    budget.hold('b', 'h3', 100);
    expect(budget.check('c')).toBe('total');
    now = 150; // h1 and h3 expired
    expect(budget.check('c')).toBe('ok');
    expect(budget.check('a')).toBe('ok');
    budget.drop('a', 'h2');
    expect(budget.size).toBe(0);
  });

  it('refuses limits that are not positive integers', () => {
    expect(() => new HandleBudget({ maxPerPrincipal: 0 })).toThrow(
      /workflowHandles.maxPerPrincipal must be a positive integer/,
    );
  });
});
