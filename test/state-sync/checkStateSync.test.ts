import { describe, expect, it } from 'vitest';
import { stateSyncWarnings } from '../../src/state-sync/checkStateSync.js';
import type { InlineSyncDeclaration } from '../../src/state-sync/types.js';

const tools = ['sprints.list', 'sprints.create', 'sprints.update', 'tasks.update', 'countries.list'];
const none = new Map<string, InlineSyncDeclaration>();

describe('stateSyncWarnings', () => {
  it('is silent for a clean configuration', () => {
    const inline = new Map([['sprints.create', { invalidates: ['sprints.*'] }]]);
    const config = {
      defaults: { cacheControl: 'no-store' as const },
      policies: [
        { match: 'sprints.update', invalidates: ['sprints.*'] },
        { match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] },
        { match: 'countries.*', cacheControl: 'immutable' as const },
      ],
    };
    expect(stateSyncWarnings(config, inline, tools)).toEqual([]);
    expect(stateSyncWarnings(undefined, inline, tools)).toEqual([]);
  });

  it('reports a shadowed policy (overlap)', () => {
    const config = {
      policies: [
        { match: 'sprints.*', cacheControl: 'no-store' as const },
        { match: 'sprints.update', invalidates: ['sprints.*'] },
      ],
    };
    expect(stateSyncWarnings(config, none, tools)).toEqual([
      'Policy [0] "sprints.*" shadows policy [1] "sprints.update": first match wins, so [1] never applies. Move [1] above [0] or narrow [0].',
    ]);
  });

  it('reports a policy that matches no registered tool, with nearby names when there are some', () => {
    const config = {
      policies: [
        { match: 'sprint.create', invalidates: ['sprints.*'] },
        { match: 'billing.*', cacheControl: 'no-store' as const },
      ],
    };
    expect(stateSyncWarnings(config, none, tools)).toEqual([
      'Policy [0] "sprint.create" matches no registered tool (registered: "sprints.list", "sprints.create", "sprints.update"); fix the name or remove the policy.',
      'Policy [1] "billing.*" matches no registered tool; fix the name or remove the policy.',
    ]);
  });

  it('reports a policy’s invalidates pattern that matches no registered tool (a typo)', () => {
    const config = { policies: [{ match: 'tasks.update', invalidates: ['task.*', 'sprints.*'] }] };
    expect(stateSyncWarnings(config, none, tools)).toEqual([
      'Policy [0] "tasks.update" invalidates "task.*", which matches no registered tool (registered: "tasks.update"); fix the pattern (a typo?) or remove it.',
    ]);
  });

  it('reports an inline .invalidates() pattern that matches no registered tool', () => {
    const inline = new Map([['sprints.create', { invalidates: ['sprints.*', 'sprnts.*'] }]]);
    expect(stateSyncWarnings(undefined, inline, tools)).toEqual([
      'Tool "sprints.create" invalidates "sprnts.*", which matches no registered tool; fix the pattern in .invalidates() (a typo?) or remove it.',
    ]);
  });

  it('lists overlaps first, then policies in order, then inline declarations', () => {
    const config = { policies: [{ match: '**', cacheControl: 'no-store' as const }, { match: 'nope.*' }] };
    const inline = new Map([['tasks.update', { invalidates: ['tsks.*'] }]]);
    const warnings = stateSyncWarnings(config, inline, tools);
    expect(warnings).toEqual([
      expect.stringMatching(/^Policy \[0\] "\*\*" shadows policy \[1\] "nope\.\*"/),
      expect.stringMatching(/^Policy \[1\] "nope\.\*" matches no registered tool/),
      expect.stringMatching(/^Tool "tasks\.update" invalidates "tsks\.\*"/),
    ]);
  });
});
