import { fencedBlocks } from './fencedBlocks.js';

/** One ```ts block of a Markdown page. */
export interface CodeBlock {
  /** 1-based line of the block's first code line in the page. */
  readonly line: number;
  readonly code: string;
}

const OPEN = /^```(ts|typescript)\s*$/;
const SKIP = '<!-- no-check -->';
/** Blocks of a documented program (`<!-- run: file -->`) are checked as that program's files instead. */
const RUN = /^<!--\s*run:/;

/**
 * Pure: the ```ts blocks of a page, except those whose previous non-blank line is `<!-- no-check -->` or a
 * `<!-- run: ... -->` marker.
 */
export function extractBlocks(markdown: string): CodeBlock[] {
  return fencedBlocks(markdown)
    .filter((b) => OPEN.test(b.fence) && b.previous.trim() !== SKIP && !RUN.test(b.previous.trim()))
    .map((b) => ({ line: b.line, code: b.code }));
}
