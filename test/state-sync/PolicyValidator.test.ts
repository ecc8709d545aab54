import { describe, expect, it } from 'vitest';
import { DefinitionError } from '../../src/errors/FusionError.js';
import {
  validateInlineDeclaration,
  validatePolicies,
  validateStateSyncConfig,
} from '../../src/state-sync/PolicyValidator.js';

/** The error a validator throws, for checks beyond the message. */
function caught(run: () => void): DefinitionError {
  try {
    run();
  } catch (error) {
    if (error instanceof DefinitionError) return error;
    throw error;
  }
  throw new Error('expected a DefinitionError');
}

describe('validatePolicies', () => {
  it('accepts the seeds’ configuration', () => {
    expect(() =>
      validatePolicies(
        [
          { match: 'sprints.update', invalidates: ['sprints.*'] },
          { match: 'tasks.update', invalidates: ['tasks.*', 'sprints.*'] },
          { match: 'countries.*', cacheControl: 'immutable' },
          { match: '**', cacheControl: 'no-store' },
          { match: 'reports.*', invalidates: [] },
        ],
        { cacheControl: 'no-store' },
      ),
    ).not.toThrow();
    expect(() => validatePolicies([], {})).not.toThrow();
    expect(() => validatePolicies([])).not.toThrow();
  });

  it('rejects an empty or missing match, naming the policy index in the message and in data', () => {
    expect(() => validatePolicies([{ match: 'a.b' }, { match: '' }])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [1] has an empty "match"; give a tool name or a glob such as "sprints.*".]`,
    );
    expect(() => validatePolicies([{ cacheControl: 'no-store' }])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [0] has an empty "match"; give a tool name or a glob such as "sprints.*".]`,
    );
    const error = caught(() => validatePolicies([{ match: 'a' }, { match: 'b' }, { match: '' }]));
    expect(error.code).toBe('STATE_SYNC_POLICY');
    expect(error.data).toEqual({ index: 2 });
  });

  it('rejects a malformed glob', () => {
    expect(() => validatePolicies([{ match: 'sprints.' }])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [0] has an invalid "match" "sprints."; use dot-separated segments of letters, digits, "_" or "-", with "*" or "**" only as whole segments (e.g. "sprints.*").]`,
    );
    expect(() => validatePolicies([{ match: 'sprints*' }])).toThrow(
      /^Policy \[0\] has an invalid "match" "sprints\*"; /,
    );
    expect(() => validatePolicies([{ match: 42 }])).toThrow(/^Policy \[0\] has an invalid "match" number 42; /);
  });

  it('rejects an unknown directive', () => {
    expect(() => validatePolicies([{ match: 'a', cacheControl: 'max-age=60' }])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [0] has an unknown cacheControl "max-age=60"; use "no-store" or "immutable".]`,
    );
  });

  it('rejects invalidates that is not an array, suggesting the array form', () => {
    expect(() => validatePolicies([{ match: 'a', invalidates: 'sprints.*' }])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [0] has "invalidates" "sprints.*", which is not an array; write invalidates: ["sprints.*"].]`,
    );
  });

  it('rejects a bad invalidates entry, naming its position', () => {
    expect(() =>
      validatePolicies([{ match: 'a', invalidates: ['sprints.*', 'sprints..x'] }]),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [0] has an invalid invalidates[1] "sprints..x"; use dot-separated segments of letters, digits, "_" or "-", with "*" or "**" only as whole segments (e.g. "sprints.*").]`,
    );
    expect(() => validatePolicies([{ match: 'a', invalidates: [7] }])).toThrow(
      /^Policy \[0\] has an invalid invalidates\[0\] number 7; /,
    );
  });

  it('rejects an unknown policy key (a typo such as "invalidate")', () => {
    expect(() => validatePolicies([{ match: 'a', invalidate: ['a.*'] }])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [0] has an unknown key "invalidate"; a policy has only "match", "cacheControl" and "invalidates".]`,
    );
  });

  it('rejects bad defaults', () => {
    expect(() => validatePolicies([], 'no-store')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: State Sync "defaults" must be an object such as { cacheControl: "no-store" }, not "no-store".]`,
    );
    expect(() => validatePolicies([], null)).toThrow(
      /^State Sync "defaults" must be an object such as \{ cacheControl: "no-store" \}, not null\.$/,
    );
    expect(() => validatePolicies([], { cacheControl: 'private' })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: State Sync defaults.cacheControl "private" is unknown; use "no-store" or "immutable".]`,
    );
    expect(() => validatePolicies([], { cacheControl: 'no-store', ttl: 5 })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: State Sync "defaults" has an unknown key "ttl"; the only key is "cacheControl".]`,
    );
    expect(caught(() => validatePolicies([], { cacheControl: 'private' })).data).toEqual({});
  });

  it('rejects policies that are not an array of objects', () => {
    expect(() => validatePolicies('sprints.*')).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: State Sync "policies" must be an array of { match, cacheControl?, invalidates? }, not "sprints.*"; pass [] for none.]`,
    );
    expect(() => validatePolicies(undefined)).toThrow(/, not undefined; pass \[\] for none\.$/);
    expect(() => validatePolicies([{ match: 'a' }, null])).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Policy [1] is null, not an object; write { match: "sprints.*", cacheControl: "no-store" }.]`,
    );
  });
});

describe('validateStateSyncConfig', () => {
  it('checks the whole option, callbacks included', () => {
    expect(() =>
      validateStateSyncConfig({ policies: [], onInvalidation: () => {}, notificationSink: async () => {} }),
    ).not.toThrow();
    expect(() => validateStateSyncConfig([])).toThrow(/^The "stateSync" option must be an object/);
    expect(() => validateStateSyncConfig({ policies: [], onInvalidation: 'log' })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: State Sync "onInvalidation" must be a function (event) => void, not "log".]`,
    );
    expect(() => validateStateSyncConfig({ policies: [], notificationSink: {} })).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: State Sync "notificationSink" must be a function (notification) => void, not an object.]`,
    );
  });
});

describe('validateInlineDeclaration', () => {
  it('names the tool when a declared glob is malformed', () => {
    expect(() =>
      validateInlineDeclaration('tasks.update', { invalidates: ['tasks.*', 'sprints.'] }),
    ).toThrowErrorMatchingInlineSnapshot(
      `[DefinitionError: Tool "tasks.update" invalidates "sprints.", which is not a valid glob; use dot-separated segments of letters, digits, "_" or "-", with "*" or "**" only as whole segments (e.g. "sprints.*").]`,
    );
    expect(caught(() => validateInlineDeclaration('x.y', { cacheControl: 'forever' as never })).data).toEqual({
      tool: 'x.y',
    });
    expect(() => validateInlineDeclaration('a.b', { cacheControl: 'immutable', invalidates: ['a.*'] })).not.toThrow();
  });
});

describe('validatePolicies: fixes', () => {
  it('suggests the caller’s own pattern when invalidates is a bare string', () => {
    expect(() => validatePolicies([{ match: 'tasks.update', invalidates: 'tasks.*' }])).toThrow(
      'write invalidates: ["tasks.*"].',
    );
  });
});
