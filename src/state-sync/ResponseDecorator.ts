/**
 * The causal signal the agent reads first:
 * `[System: Cache invalidated for tasks.*, sprints.* — caused by tasks.update]`
 * (patterns in declaration order joined by `, `, an em dash U+2014).
 * @see docs/state-sync.md
 */
export function invalidationBlock(patterns: readonly string[], causedBy: string): string {
  return `[System: Cache invalidated for ${patterns.join(', ')} \u2014 caused by ${causedBy}]`;
}
