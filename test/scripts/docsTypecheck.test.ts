import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import { docProgram } from '../../scripts/docs-typecheck/docPrograms.js';
import { extractBlocks } from '../../scripts/docs-typecheck/extractBlocks.js';
import { fragmentMarker, fragmentVerdict } from '../../scripts/docs-typecheck/fragments.js';
import { hostCommand } from '../../scripts/docs-typecheck/hostCommand.js';
import { markedBlocks } from '../../scripts/docs-typecheck/markedBlocks.js';
import { pageModule } from '../../scripts/docs-typecheck/pageModule.js';
import { checkStandalone, type StandaloneBlock } from '../../scripts/docs-typecheck/standalone.js';

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

const programPage = [
  '# Start', //                                       1
  '<!-- run: shell -->', //                           2
  '```bash', //                                       3
  'npm init -y   # a project', //                     4
  '', //                                              5
  'npm install mcp-fusion', //                        6
  '```', //                                           7
  '<!-- run: app.ts -->', //                          8
  '```ts', //                                         9
  "import { initFusion } from 'mcp-fusion';", //      10
  '```', //                                           11
  'Some prose.', //                                   12
  '```ts', //                                         13
  'not part of the program', //                       14
  '```', //                                           15
  '<!-- run: app.ts -->', //                          16
  '', //                                              17
  '```ts', //                                         18
  'export const f = initFusion();', //                19
  '```', //                                           20
  '<!-- run: main.ts -->', //                         21
  '```ts', //                                         22
  "import { f } from './app.js';", //                 23
  '```', //                                           24
].join('\n');

describe('documented programs (<!-- run: file -->)', () => {
  it('joins the blocks of each file in page order, keeps page lines, and reads the shell block as commands', () => {
    const program = docProgram('docs/start.md', programPage);
    expect(program.shell).toEqual(['npm init -y', 'npm install mcp-fusion']);
    expect(program.files.map((f) => [f.name, f.source])).toEqual([
      ['app.ts', "import { initFusion } from 'mcp-fusion';\nexport const f = initFusion();\n"],
      ['main.ts', "import { f } from './app.js';\n"],
    ]);
    expect([1, 2].map(program.files[0]!.pageLine)).toEqual([10, 19]);
  });

  it('leaves run blocks out of the page-wide type check (they are checked as program files)', () => {
    expect(extractBlocks(programPage).map((b) => b.line)).toEqual([14]);
  });

  it('takes a program as the page shows it, with nothing filled in (the README is complete)', () => {
    const program = docProgram('README.md', '<!-- run: twenty-lines.ts -->\n```ts\nconsole.log(db);\n```\n');
    expect(program.files[0]!.source).toBe('console.log(db);\n');
    expect(program.files[0]!.pageLine(1)).toBe(3);
  });
});

describe('fragments (a first line `// fragment: needs …`)', () => {
  const block = (code: string) => ({ line: 1, code });

  it('reads the marker and the names it lists, only from the first non-blank line', () => {
    expect(fragmentMarker('\n// fragment: needs f, registry and db\nf.query("a");')).toEqual({
      needs: ['f', 'registry', 'db'],
    });
    expect(fragmentMarker('// Fragment: the body of a handler')).toEqual({ needs: [] });
    expect(fragmentMarker("import { x } from 'y';\n// fragment: needs f")).toBeUndefined();
    expect(fragmentMarker('// a fragmentary comment')).toBeUndefined();
  });

  it('holds a fragment to exactly the names it lacks, and leaves a complete block to the type check', () => {
    const marked = block('// fragment: needs f, registry\nf.registry();');
    expect(fragmentVerdict(marked, new Set(['f', 'registry']))).toBeUndefined();
    expect(fragmentVerdict(marked, new Set(['f', 'registry', 'db']))).toBe(
      'the fragment marker must list exactly what the block takes from elsewhere: `// fragment: needs db, f, registry`; not listed: db',
    );
    expect(fragmentVerdict(marked, new Set(['f']))).toMatch(/`\/\/ fragment: needs f`; listed but .*: registry$/);
    expect(fragmentVerdict(block('// fragment: needs f'), new Set())).toMatch(/`\/\/ fragment` \(it needs nothing/);
    expect(fragmentVerdict(block('const a = 1;'), new Set(['f']))).toBeUndefined();
  });
});

describe('blocks checked alone, as a reader pastes them', () => {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  // Inside the repository, where the docs check writes its files (tsconfig.json's settings apply).
  const dir = join(root, 'node_modules', '.cache', `docs-standalone-test-${process.pid}`);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('fails a block that uses what it does not import, and holds a fragment to its marker', { timeout: 60_000 }, () => {
    // Node's own modules, not the package: type-checking mcp-fusion's sources takes long on a busy machine.
    const blocks: Array<[string, string]> = [
      ['whole', "import { join } from 'node:path';\nexport const p = join('a', 'b');"],
      ['unmarked', "export const p = join('a', 'b');"],
      ['marked', "// fragment: needs join\nexport const p = join('a', 'b');"],
      ['wrong marker', "// fragment: needs resolve\nexport const p = join('a', 'b');"],
      ['no import', "const p = basename('a');\nexport {};"],
    ];
    mkdirSync(dir, { recursive: true });
    const files = new Map<string, StandaloneBlock>();
    blocks.forEach(([, code], i) => {
      const path = join(dir, `line-${(i + 1) * 10}.ts`);
      writeFileSync(path, `${code}\n`);
      files.set(path, { page: 'docs/x.md', block: { line: (i + 1) * 10, code } });
    });
    const config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const { diagnostics, fragmentErrors } = checkStandalone(files, options);
    const failed = diagnostics.map((d) => [
      /line-(\d+)/.exec(d.file!.fileName)![1],
      ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    ]);
    expect(failed).toEqual([
      ['20', "Cannot find name 'join'."],
      ['50', "Cannot find name 'basename'."],
    ]);
    expect(fragmentErrors).toEqual([
      'docs/x.md:40:1 - the fragment marker must list exactly what the block takes from elsewhere: `// fragment: needs join`; not listed: join; listed but defined in the block or not used: resolve',
    ]);
  });
});

describe('MCP host configs (<!-- host: name -->)', () => {
  const page = [
    '<!-- host: desktop -->',
    '```json',
    '{ "mcpServers": { "x": { "command": "npm", "args": ["--prefix", "/absolute/path/to/mcp-fusion", "run", "-s", "stdio"] } } }',
    '```',
    '<!-- host: vscode -->',
    '```json',
    '{ "servers": { "x": { "type": "stdio", "command": "npm", "args": ["--prefix", "${workspaceFolder}"] } } }',
    '```',
    '<!-- host: code -->',
    '```bash',
    'claude mcp add x -- npm --prefix /absolute/path/to/mcp-fusion run -s stdio',
    '```',
    '<!-- host: inspector -->',
    '```bash',
    'npx @modelcontextprotocol/inspector -e MCP_TRANSPORT=stdio -e A=b=c -- npm run -s start',
    '```',
  ].join('\n');

  it('reads the command line each host would start, with the checkout filled in', () => {
    expect(markedBlocks(page, 'host').map((b) => hostCommand(b, '/repo'))).toEqual([
      { host: 'desktop', command: 'npm', args: ['--prefix', '/repo', 'run', '-s', 'stdio'], env: {} },
      { host: 'vscode', command: 'npm', args: ['--prefix', '/repo'], env: {} },
      { host: 'code', command: 'npm', args: ['--prefix', '/repo', 'run', '-s', 'stdio'], env: {} },
      { host: 'inspector', command: 'npm', args: ['run', '-s', 'start'], env: { MCP_TRANSPORT: 'stdio', A: 'b=c' } },
    ]);
  });

  it('refuses a config with no server entry or a command line without --', () => {
    expect(() => hostCommand({ name: 'h', lang: 'json', line: 1, code: '{ "mcpServers": {} }' }, '/r')).toThrow(
      /one server entry/,
    );
    expect(() => hostCommand({ name: 'h', lang: 'bash', line: 1, code: 'claude mcp add x npm start' }, '/r')).toThrow(
      /-- <command/,
    );
  });
});
