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
  const lines = markdown.split('\n');
  const blocks: MarkedBlock[] = [];
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      let end = i + 1;
      while (end < lines.length && !lines[end]!.startsWith('```')) end++;
      const marker = markerOf(previous);
      if (marker?.kind === kind) blocks.push({ name: marker.name, lang: line.slice(3).trim(), line: i + 2, code: lines.slice(i + 1, end).join('\n') });
      i = end;
      previous = '```';
      continue;
    }
    if (line.trim() !== '') previous = line;
  }
  return blocks;
}
