import { fencedBlocks } from './fencedBlocks.js';

/** A fenced block of a Markdown page announced by a marker comment, `<!-- kind: name -->`. */
export interface MarkedBlock {
  /** The marker's argument: a file name for `run`, a host for `host`. */
  readonly name: string;
  /** The fence's language (`ts`, `bash`, `json`, ...). */
  readonly lang: string;
  /** 1-based line of the block's first code line in the page. */
  readonly line: number;
  readonly code: string;
}

/** Pure: the marker a line holds, if it is `<!-- kind: name -->`. */
export function markerOf(line: string): { kind: string; name: string } | undefined {
  const match = /^<!--\s*([a-z-]+):\s*(\S+)\s*-->$/.exec(line.trim());
  return match === null ? undefined : { kind: match[1]!, name: match[2]! };
}

/** Pure: the fenced blocks whose previous non-blank line is a `<!-- kind: name -->` marker of this kind. */
export function markedBlocks(markdown: string, kind: string): MarkedBlock[] {
  return fencedBlocks(markdown).flatMap((b) => {
    const marker = markerOf(b.previous);
    return marker?.kind === kind
      ? [{ name: marker.name, lang: b.fence.slice(3).trim(), line: b.line, code: b.code }]
      : [];
  });
}
