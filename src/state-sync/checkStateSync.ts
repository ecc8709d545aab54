import { detectOverlaps } from './detectOverlaps.js';
import { matchGlob } from './matchGlob.js';
import type { InlineSyncDeclaration, StateSyncConfig } from './types.js';

/**
 * Startup checks beyond validation: shadowed policies, policies that match no registered tool, and
 * `invalidates` patterns that match no registered tool (usually a typo).
 */
export function stateSyncWarnings(config: StateSyncConfig | undefined, inline: ReadonlyMap<string, InlineSyncDeclaration>, toolNames: readonly string[]): string[] {
  const out: string[] = [];
  const matchesAny = (pattern: string): boolean => toolNames.some((n) => matchGlob(pattern, n));
  const policies = config?.policies ?? [];
  for (const overlap of detectOverlaps(policies)) out.push(overlap.message);
  policies.forEach((policy, i) => {
    if (!matchesAny(policy.match)) out.push(`Policy [${i}] "${policy.match}" matches no registered tool; check the name or remove the policy.`);
    for (const pattern of policy.invalidates ?? []) {
      if (!matchesAny(pattern)) out.push(`Policy [${i}] invalidates "${pattern}", which matches no registered tool; check for a typo.`);
    }
  });
  for (const [tool, declaration] of inline) {
    for (const pattern of declaration.invalidates ?? []) {
      if (!matchesAny(pattern)) out.push(`Tool "${tool}" invalidates "${pattern}", which matches no registered tool; check for a typo.`);
    }
  }
  return out;
}
