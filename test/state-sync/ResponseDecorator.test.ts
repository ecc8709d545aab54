import { describe, expect, it } from 'vitest';
import { invalidationBlock } from '../../src/state-sync/ResponseDecorator.js';

describe('invalidationBlock', () => {
  it('is exactly the documented text, with patterns in order and an em dash (U+2014)', () => {
    const text = invalidationBlock(['tasks.*', 'sprints.*'], 'tasks.update');
    expect(text).toBe('[System: Cache invalidated for tasks.*, sprints.* \u2014 caused by tasks.update]');
    expect(text).toBe('[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]');
    expect([...text].filter((c) => c.codePointAt(0) === 0x2014)).toHaveLength(1);
    expect(invalidationBlock(['sprints.*'], 'sprints.create')).toBe(
      '[System: Cache invalidated for sprints.* — caused by sprints.create]',
    );
  });
});
