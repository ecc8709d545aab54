import { describe, expect, it } from 'vitest';
import { extractBlocks } from '../../scripts/docs-typecheck/extractBlocks.js';
import { pageModule } from '../../scripts/docs-typecheck/pageModule.js';

const page = [
  '# Page', //                                     1
  '```ts', //                                      2
  "import { initFusion } from 'mcp-fusion';", //   3
  'export const f = initFusion();', //             4
  '```', //                                        5
  '<!-- no-check -->', //                          6
  '', //                                           7
  '```ts', //                                      8
  'this is not TypeScript', //                     9
  '```', //                                        10
  '```json', //                                    11
  '{}', //                                         12
  '```', //                                        13
  '```ts', //                                      14
  "import { initFusion } from 'mcp-fusion';", //   15
  "const f = initFusion().query('a');", //         16
  '```', //                                        17
].join('\n');

describe('docs type-check', () => {
  it('extracts ts blocks with their page lines, skipping the one after <!-- no-check -->', () => {
    expect(extractBlocks(page)).toEqual([
      { line: 3, code: "import { initFusion } from 'mcp-fusion';\nexport const f = initFusion();" },
      { line: 15, code: "import { initFusion } from 'mcp-fusion';\nconst f = initFusion().query('a');" },
    ]);
  });

  it('nests each block inside the previous one, hoisting each import once', () => {
    const { source, pageLine } = pageModule(extractBlocks(page));
    expect(source).toBe(
      [
        "import { initFusion } from 'mcp-fusion';",
        '{',
        ' '.repeat(40),
        '       const f = initFusion();',
        '{',
        ' '.repeat(40),
        "const f = initFusion().query('a');",
        '}',
        '}',
        'export {};',
        '',
      ].join('\n'),
    );
    expect([1, 4, 7].map(pageLine)).toEqual([3, 4, 16]);
  });
});
