import type { CodeBlock } from './extractBlocks.js';

/**
 * A block that says, in its first line, that it is not a whole program: `// fragment: needs f, registry`.
 * The reader sees it (in the page and in what they paste); the docs check holds the block to it.
 */
export interface FragmentMarker {
  /** The names the block uses without importing or defining them, as the marker lists them. */
  readonly needs: string[];
}

const MARKER = /^\/\/\s*fragment\b/i;
const NEEDS = /^\/\/\s*fragment:\s*needs\s+([A-Za-z_$][\w$]*(?:\s*(?:,|\band\b)\s*[A-Za-z_$][\w$]*)*)/i;

/**
 * Pure: the fragment marker of a block, if its first non-blank line is one. `// fragment: needs a, b and c`
 * lists what the block takes from elsewhere (your app, or the blocks above it); a bare `// fragment` needs
 * nothing by name (e.g. a statement that is only part of a function).
 */
export function fragmentMarker(code: string): FragmentMarker | undefined {
  const first =
    code
      .split('\n')
      .find((line) => line.trim() !== '')
      ?.trim() ?? '';
  if (!MARKER.test(first)) return undefined;
  const list = NEEDS.exec(first)?.[1] ?? '';
  return { needs: list.split(/\s*(?:,|\band\b)\s*/).filter((name) => name !== '') };
}

/**
 * Pages whose blocks are not yet held to standing alone (checked only on the page, with `app.d.ts`, as
 * before). Each is an opt-out until its page is complete; remove the page from here when it is.
 */
export const NOT_YET_STANDALONE: ReadonlySet<string> = new Set([]);

/** The TypeScript diagnostics that mean "this name is defined nowhere" (2304, its did-you-mean twins 2552, 2580–2582, and 18004, a shorthand property with no value in scope). */
export const UNKNOWN_NAME_CODES: ReadonlySet<number> = new Set([2304, 2552, 2580, 2581, 2582, 18004]);

/** A block checked on its own: what is wrong with it, given the unknown names TypeScript reported. */
export function fragmentVerdict(block: CodeBlock, unknown: ReadonlySet<string>): string | undefined {
  const marker = fragmentMarker(block.code);
  if (marker === undefined) return undefined;
  const listed = new Set(marker.needs);
  const missing = [...unknown].filter((name) => !listed.has(name)).sort();
  const stale = [...listed].filter((name) => !unknown.has(name)).sort();
  if (missing.length === 0 && stale.length === 0) return undefined;
  const wanted = [...unknown].sort();
  return (
    `the fragment marker must list exactly what the block takes from elsewhere: ` +
    (wanted.length === 0 ? '`// fragment` (it needs nothing by name)' : `\`// fragment: needs ${wanted.join(', ')}\``) +
    (missing.length > 0 ? `; not listed: ${missing.join(', ')}` : '') +
    (stale.length > 0 ? `; listed but defined in the block or not used: ${stale.join(', ')}` : '')
  );
}
