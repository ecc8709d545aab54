import { MAX_GLOB_SEGMENTS, matchSegments } from './matchGlob.js';

/** A glob compiled once: `test(name)` answers exactly as `matchGlob(pattern, name)`, without splitting or allocating. */
export interface CompiledGlob {
  readonly pattern: string;
  /** The pattern's first segment when it is a literal (the key {@link PolicyEngine} buckets policies by); `undefined` when it is `*` or `**`. */
  readonly firstLiteral: string | undefined;
  test(name: string): boolean;
}

const WILDCARD = /(?:^|\.)\*\*?(?:\.|$)/;

/**
 * Compiles a State Sync glob into a matcher, with fast paths for the shapes policies use most: a literal
 * name (one comparison), `prefix.*` and `prefix.**` over a literal prefix (a prefix test and at most one
 * `indexOf`), and `**` alone. Any other shape runs `matchGlob`'s bounded automaton over
 * pattern segments split once. Pure; compile at build time, test at run time.
 * @example compileGlob('sprints.*').test('sprints.get'); // true
 * @see docs/state-sync.md
 */
export function compileGlob(pattern: string): CompiledGlob {
  const dot = pattern.indexOf('.');
  const head = dot === -1 ? pattern : pattern.slice(0, dot);
  const firstLiteral = head === '*' || head === '**' ? undefined : head;
  const make = (test: (name: string) => boolean): CompiledGlob => ({ pattern, firstLiteral, test });
  if (!WILDCARD.test(pattern)) return make((name) => name === pattern);
  const segments = pattern.split('.');
  if (segments.length > MAX_GLOB_SEGMENTS) return make((name) => name === pattern);
  const last = segments[segments.length - 1];
  const prefix = segments.slice(0, -1).join('.');
  const literalPrefix = segments.length > 1 && !WILDCARD.test(prefix);
  if (pattern === '**') return make((name) => withinBound(name));
  if (literalPrefix && last === '*') {
    const start = prefix.length + 1;
    const lead = `${prefix}.`;
    return make((name) => name.startsWith(lead) && name.indexOf('.', start) === -1);
  }
  if (literalPrefix && last === '**') {
    const lead = `${prefix}.`;
    return make((name) => name === prefix || (name.startsWith(lead) && withinBound(name)));
  }
  return make((name) => name === pattern || matchSegments(segments, name));
}

/** `matchGlob` refuses names of more than {@link MAX_GLOB_SEGMENTS} segments; only long names need counting. */
function withinBound(name: string): boolean {
  if (name.length < MAX_GLOB_SEGMENTS) return true;
  let dots = 0;
  for (let i = name.indexOf('.'); i !== -1; i = name.indexOf('.', i + 1)) if (++dots >= MAX_GLOB_SEGMENTS) return false;
  return true;
}
