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
  const lines = markdown.split('\n');
  const blocks: CodeBlock[] = [];
  let previous = '';
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.startsWith('```')) {
      let end = i + 1;
      while (end < lines.length && !lines[end]!.startsWith('```')) end++;
      if (OPEN.test(line) && previous.trim() !== SKIP && !RUN.test(previous.trim())) blocks.push({ line: i + 2, code: lines.slice(i + 1, end).join('\n') });
      i = end;
      previous = '```';
      continue;
    }
    if (line.trim() !== '') previous = line;
  }
  return blocks;
}
