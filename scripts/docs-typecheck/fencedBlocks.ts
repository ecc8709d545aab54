/** One fenced block of a Markdown page, with the last non-blank line before it (where markers stand). */
export interface FencedBlock {
  /** The opening fence line, e.g. "```ts". */
  readonly fence: string;
  /** The last non-blank line before the fence ("```" when it was another block's closing fence). */
  readonly previous: string;
  /** 1-based line of the block's first code line in the page. */
  readonly line: number;
  readonly code: string;
}

/** Pure: every fenced block of a page, in order. */
export function fencedBlocks(markdown: string): FencedBlock[] {
  const lines = markdown.split('\n');
  const blocks: FencedBlock[] = [];
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      let end = i + 1;
      while (end < lines.length && !lines[end]!.startsWith('```')) end++;
      blocks.push({ fence: line, previous, line: i + 2, code: lines.slice(i + 1, end).join('\n') });
      i = end;
      previous = '```';
      continue;
    }
    if (line.trim() !== '') previous = line;
  }
  return blocks;
}
