import { DefinitionError } from '../errors/FusionError.js';
import { isValidGlob } from './matchGlob.js';
import type { CacheDirective, InlineSyncDeclaration, StateSyncConfig, SyncPolicy } from './types.js';

const CODE = 'STATE_SYNC_POLICY';
const DIRECTIVES: readonly unknown[] = ['no-store', 'immutable'] satisfies CacheDirective[];
const POLICY_KEYS: readonly string[] = ['match', 'cacheControl', 'invalidates'];
const GLOB_RULE =
  'use dot-separated segments of letters, digits, "_" or "-", with "*" or "**" only as whole segments (e.g. "sprints.*")';

/**
 * Fails fast on malformed State Sync policies or defaults, throwing a `DefinitionError` (code
 * `STATE_SYNC_POLICY`) whose message names the policy index and the fix, and whose `data` holds the index.
 * @example
 * validatePolicies([{ match: '' }]);
 * // DefinitionError: Policy [0] has an empty "match"; give a tool name or a glob such as "sprints.*".
 * @see docs/state-sync.md
 */
export function validatePolicies(policies: unknown, defaults?: unknown): asserts policies is SyncPolicy[] {
  if (!Array.isArray(policies))
    fail(
      `State Sync "policies" must be an array of { match, cacheControl?, invalidates? }, not ${show(policies)}; pass [] for none.`,
    );
  policies.forEach((policy: unknown, i) => validatePolicy(policy, i));
  if (defaults === undefined) return;
  if (typeof defaults !== 'object' || defaults === null || Array.isArray(defaults)) {
    fail(`State Sync "defaults" must be an object such as { cacheControl: "no-store" }, not ${show(defaults)}.`);
  }
  for (const key of Object.keys(defaults)) {
    if (key !== 'cacheControl')
      fail(`State Sync "defaults" has an unknown key "${key}"; the only key is "cacheControl".`);
  }
  const { cacheControl } = defaults as Record<string, unknown>;
  if (cacheControl !== undefined && !DIRECTIVES.includes(cacheControl)) {
    fail(`State Sync defaults.cacheControl ${show(cacheControl)} is unknown; use "no-store" or "immutable".`);
  }
}

/**
 * Validates a whole `stateSync` option: an object with valid `policies` and `defaults`, and functions for
 * `onInvalidation` and `notificationSink` when given.
 * @see docs/state-sync.md
 */
export function validateStateSyncConfig(config: unknown): asserts config is StateSyncConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) {
    fail(
      `The "stateSync" option must be an object such as { policies: [], defaults: { cacheControl: "no-store" } }, not ${show(config)}.`,
    );
  }
  const { policies, defaults, onInvalidation, notificationSink } = config as Record<string, unknown>;
  validatePolicies(policies, defaults);
  if (onInvalidation !== undefined && typeof onInvalidation !== 'function') {
    fail(`State Sync "onInvalidation" must be a function (event) => void, not ${show(onInvalidation)}.`);
  }
  if (notificationSink !== undefined && typeof notificationSink !== 'function') {
    fail(`State Sync "notificationSink" must be a function (notification) => void, not ${show(notificationSink)}.`);
  }
}

/**
 * Validates what a tool declared with `.cached()`, `.stale()` and `.invalidates(...)`: a known directive
 * and valid globs. The message names the tool.
 */
export function validateInlineDeclaration(tool: string, declaration: InlineSyncDeclaration): void {
  const { cacheControl, invalidates } = declaration as { cacheControl?: unknown; invalidates?: unknown };
  if (cacheControl !== undefined && !DIRECTIVES.includes(cacheControl)) {
    fail(
      `Tool "${tool}" declares an unknown cache directive ${show(cacheControl)}; use .cached() (immutable) or .stale() (no-store).`,
      { tool },
    );
  }
  if (invalidates === undefined) return;
  if (!Array.isArray(invalidates))
    fail(`Tool "${tool}" declares "invalidates" that is not an array; use .invalidates("sprints.*").`, { tool });
  invalidates.forEach((pattern: unknown) => {
    if (!isValidGlob(pattern))
      fail(`Tool "${tool}" invalidates ${show(pattern)}, which is not a valid glob; ${GLOB_RULE}.`, { tool });
  });
}

function validatePolicy(policy: unknown, i: number): void {
  const at = { index: i };
  if (typeof policy !== 'object' || policy === null || Array.isArray(policy)) {
    fail(
      `Policy [${i}] is ${show(policy)}, not an object; write { match: "sprints.*", cacheControl: "no-store" }.`,
      at,
    );
  }
  for (const key of Object.keys(policy)) {
    if (!POLICY_KEYS.includes(key))
      fail(
        `Policy [${i}] has an unknown key "${key}"; a policy has only "match", "cacheControl" and "invalidates".`,
        at,
      );
  }
  const { match, cacheControl, invalidates } = policy as Record<string, unknown>;
  if (match === undefined || match === '')
    fail(`Policy [${i}] has an empty "match"; give a tool name or a glob such as "sprints.*".`, at);
  if (!isValidGlob(match)) fail(`Policy [${i}] has an invalid "match" ${show(match)}; ${GLOB_RULE}.`, at);
  if (cacheControl !== undefined && !DIRECTIVES.includes(cacheControl)) {
    fail(`Policy [${i}] has an unknown cacheControl ${show(cacheControl)}; use "no-store" or "immutable".`, at);
  }
  if (invalidates === undefined) return;
  if (!Array.isArray(invalidates)) {
    const example = isValidGlob(invalidates) ? invalidates : 'sprints.*';
    fail(
      `Policy [${i}] has "invalidates" ${show(invalidates)}, which is not an array; write invalidates: ["${example}"].`,
      at,
    );
  }
  invalidates.forEach((pattern: unknown, k) => {
    if (!isValidGlob(pattern))
      fail(`Policy [${i}] has an invalid invalidates[${k}] ${show(pattern)}; ${GLOB_RULE}.`, at);
  });
}

function show(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'function') return 'a function';
  return `${typeof value} ${String(value)}`;
}

function fail(message: string, data: Record<string, unknown> = {}): never {
  throw new DefinitionError(CODE, message, data);
}
