import { describe, expect, it } from 'vitest';
import { decorateResult, invalidationBlock } from '../../src/state-sync/ResponseDecorator.js';

describe('invalidationBlock', () => {
  it('is exactly the documented text, with patterns in order and an em dash (U+2014)', () => {
    const text = invalidationBlock(['tasks.*', 'sprints.*'], 'tasks.update');
    expect(text).toBe('[System: Cache invalidated for tasks.*, sprints.* \u2014 caused by tasks.update]');
    expect(text).toBe('[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]');
    expect([...text].filter((c) => c.codePointAt(0) === 0x2014)).toHaveLength(1);
    expect(invalidationBlock(['sprints.*'], 'sprints.create')).toBe('[System: Cache invalidated for sprints.* — caused by sprints.create]');
  });
});

describe('decorateResult', () => {
  it('prepends the signal, keeps the handler’s blocks and fields, and adds _meta without mutating the input', () => {
    const original = {
      content: [{ type: 'text', text: '{"ok":true}' }],
      structuredContent: { ok: true },
      _meta: { 'other/key': 1 },
    };
    const snapshot = structuredClone(original);
    const out = decorateResult(original, ['sprints.*'], 'sprints.create', '2026-01-01T00:00:00.000Z');
    expect(out).toEqual({
      content: [
        { type: 'text', text: '[System: Cache invalidated for sprints.* — caused by sprints.create]' },
        { type: 'text', text: '{"ok":true}' },
      ],
      structuredContent: { ok: true },
      _meta: {
        'other/key': 1,
        'fusion/invalidation': { patterns: ['sprints.*'], causedBy: 'sprints.create', at: '2026-01-01T00:00:00.000Z' },
      },
    });
    expect(original).toEqual(snapshot);
  });
});
