import { describe, expect, it } from 'vitest';
import { decorateDescription } from '../../src/state-sync/DescriptionDecorator.js';

describe('decorateDescription', () => {
  it('appends the directive after exactly one space', () => {
    expect(decorateDescription('List workspace sprints', 'no-store')).toBe(
      'List workspace sprints [Cache-Control: no-store]',
    );
    expect(decorateDescription('List all country codes', 'immutable')).toBe(
      'List all country codes [Cache-Control: immutable]',
    );
  });

  it('keeps the description’s own punctuation', () => {
    expect(decorateDescription('Manage workspace sprints.', 'no-store')).toBe(
      'Manage workspace sprints. [Cache-Control: no-store]',
    );
  });

  it('uses the bare tag when there is no description', () => {
    expect(decorateDescription(undefined, 'no-store')).toBe('[Cache-Control: no-store]');
    expect(decorateDescription('', 'immutable')).toBe('[Cache-Control: immutable]');
  });

  it('keeps exactly one space after a description with trailing whitespace', () => {
    expect(decorateDescription('List sprints.  \n', 'no-store')).toBe('List sprints. [Cache-Control: no-store]');
    expect(decorateDescription('   ', 'immutable')).toBe('[Cache-Control: immutable]');
  });

  it('does not append the same tag twice', () => {
    const once = decorateDescription('List sprints.', 'no-store');
    expect(decorateDescription(once, 'no-store')).toBe(once);
  });
});
