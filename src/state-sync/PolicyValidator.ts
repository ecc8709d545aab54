import { DefinitionError } from '../errors/FusionError.js';
import { isValidGlob } from './matchGlob.js';
import type { CacheDirective, SyncPolicy } from './types.js';

const DIRECTIVES: readonly CacheDirective[] = ['no-store', 'immutable'];

/**
 * Fails fast on a malformed State Sync configuration, naming the policy index and the fix.
 * @see docs/state-sync.md
 */
export function validatePolicies(policies: unknown, defaults?: unknown): asserts policies is SyncPolicy[] {
  if (!Array.isArray(policies)) fail('State Sync "policies" must be an array of { match, cacheControl?, invalidates? }; pass [] for none.');
  policies.forEach((policy: unknown, i) => {
    if (typeof policy !== 'object' || policy === null) fail(`Policy [${i}] is not an object; write { match: "sprints.*", cacheControl: "no-store" }.`, i);
    const { match, cacheControl, invalidates } = policy as Record<string, unknown>;
    if (match === undefined || match === '') fail(`Policy [${i}] has an empty "match"; give a tool name or a glob such as "sprints.*".`, i);
    if (!isValidGlob(match)) fail(`Policy [${i}] has an invalid "match" ${JSON.stringify(match)}; use dot-separated segments of letters, digits, "_", "-", "*" or "**" (e.g. "sprints.*").`, i);
    if (cacheControl !== undefined && !DIRECTIVES.includes(cacheControl as CacheDirective)) {
      fail(`Policy [${i}] has an unknown cacheControl ${JSON.stringify(cacheControl)}; use "no-store" or "immutable".`, i);
    }
    if (invalidates !== undefined) {
      if (!Array.isArray(invalidates)) fail(`Policy [${i}] has "invalidates" that is not an array; write invalidates: ["sprints.*"].`, i);
      invalidates.forEach((pattern: unknown, k) => {
        if (!isValidGlob(pattern)) fail(`Policy [${i}] has an invalid invalidates[${k}] ${JSON.stringify(pattern)}; use a glob such as "sprints.*".`, i);
      });
    }
  });
  if (defaults !== undefined) {
    if (typeof defaults !== 'object' || defaults === null) fail('State Sync "defaults" must be an object such as { cacheControl: "no-store" }.');
    const { cacheControl } = defaults as Record<string, unknown>;
    if (cacheControl !== undefined && !DIRECTIVES.includes(cacheControl as CacheDirective)) {
      fail(`State Sync defaults.cacheControl ${JSON.stringify(cacheControl)} is unknown; use "no-store" or "immutable".`);
    }
  }
}

function fail(message: string, index?: number): never {
  throw new DefinitionError('STATE_SYNC_POLICY', message, index === undefined ? {} : { index });
}
