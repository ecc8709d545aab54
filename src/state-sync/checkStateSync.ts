import { detectOverlaps } from './detectOverlaps.js';
import { compileGlob } from './compileGlob.js';
import type { InlineSyncDeclaration, StateSyncConfig } from './types.js';

/**
 * Startup checks a valid configuration can still fail, as messages for the warning channel:
 * a policy shadowed by an earlier one ({@link detectOverlaps}), a policy whose `match` matches no
 * registered tool, and an `invalidates` pattern (in a policy or declared inline) that matches no
 * registered tool — usually a typo, which would otherwise silently never invalidate what was meant.
 * Each message names the culprit and the fix. Pure: call it once, after the tools are known.
 * @example
 * stateSyncWarnings({ policies: [{ match: 'sprint.*', cacheControl: 'no-store' }] }, new Map(), ['sprints.list']);
 * // ['Policy [0] "sprint.*" matches no registered tool; …']
 * @see docs/state-sync.md
 */
export function stateSyncWarnings(
  config: StateSyncConfig | undefined,
  inline: ReadonlyMap<string, InlineSyncDeclaration>,
  toolNames: readonly string[],
): string[] {
  const out: string[] = [];
  const known = new Map<string, boolean>();
  const matchesAny = (pattern: string): boolean => {
    let hit = known.get(pattern);
    if (hit === undefined) {
      const glob = compileGlob(pattern);
      known.set(pattern, (hit = toolNames.some((n) => glob.test(n))));
    }
    return hit;
  };
  const policies = config?.policies ?? [];
  for (const overlap of detectOverlaps(policies)) out.push(overlap.message);
  policies.forEach((policy, i) => {
    if (!matchesAny(policy.match)) {
      out.push(
        `Policy [${i}] "${policy.match}" matches no registered tool${hint(policy.match, toolNames)}; fix the name or remove the policy.`,
      );
    }
    for (const pattern of policy.invalidates ?? []) {
      if (!matchesAny(pattern)) {
        out.push(
          `Policy [${i}] "${policy.match}" invalidates "${pattern}", which matches no registered tool${hint(pattern, toolNames)}; fix the pattern (a typo?) or remove it.`,
        );
      }
    }
  });
  for (const [tool, declaration] of inline) {
    for (const pattern of declaration.invalidates ?? []) {
      if (!matchesAny(pattern)) {
        out.push(
          `Tool "${tool}" invalidates "${pattern}", which matches no registered tool${hint(pattern, toolNames)}; fix the pattern in .invalidates() (a typo?) or remove it.`,
        );
      }
    }
  }
  return out;
}

/** `(registered: "sprints.list", "sprints.create")` for the tools sharing the pattern's first segment. */
function hint(pattern: string, toolNames: readonly string[]): string {
  const head = pattern.split('.')[0] ?? '';
  if (head === '*' || head === '**') return '';
  const prefix = head.slice(0, Math.max(3, head.length - 2)).toLowerCase();
  const near = toolNames.filter((n) => n.toLowerCase().startsWith(prefix)).slice(0, 3);
  return near.length === 0 ? '' : ` (registered: ${near.map((n) => `"${n}"`).join(', ')})`;
}
