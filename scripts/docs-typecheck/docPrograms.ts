import { markedBlocks } from './markedBlocks.js';

/** One file of a documented program: its source and where each of its lines comes from in the page. */
export interface ProgramFile {
  readonly name: string;
  readonly source: string;
  /** The page line of a 1-based line of `source`. */
  pageLine(line: number): number;
}

/** The program a page forms: its files and the shell commands that set its project up. */
export interface DocProgram {
  readonly page: string;
  readonly files: ProgramFile[];
  /** Commands of the page's `<!-- run: shell -->` blocks, one per line, comments dropped. */
  readonly shell: string[];
}

/**
 * Pure: the program a page forms from its `<!-- run: <file> -->` blocks. Blocks naming the same file are
 * joined in page order (so a page can build `registry.ts` over several steps); `<!-- run: shell -->` bash
 * blocks are the set-up commands. A program is complete as the page shows it: nothing is filled in for it.
 */
export function docProgram(page: string, markdown: string): DocProgram {
  const byName = new Map<string, { lines: string[]; origin: number[] }>();
  const shell: string[] = [];
  for (const block of markedBlocks(markdown, 'run')) {
    if (block.name === 'shell') {
      for (const line of block.code.split('\n')) {
        const command = line.replace(/(^|\s)#.*$/, '').trim();
        if (command !== '') shell.push(command);
      }
      continue;
    }
    let file = byName.get(block.name);
    if (file === undefined) {
      file = { lines: [], origin: [] };
      byName.set(block.name, file);
    }
    block.code.split('\n').forEach((line, i) => {
      file.lines.push(line);
      file.origin.push(block.line + i);
    });
  }
  const files = [...byName].map(([name, { lines, origin }]) => ({
    name,
    source: `${lines.join('\n')}\n`,
    pageLine: (line: number) => origin[Math.min(Math.max(line, 1), origin.length) - 1] ?? 0,
  }));
  return { page, files, shell };
}
