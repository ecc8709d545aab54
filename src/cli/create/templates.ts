import { REGISTRY, SERVER, TEST } from './projectCode.js';

/** What the scaffold's files depend on. */
export interface TemplateInput {
  /** npm package name of the new project. */
  readonly name: string;
  /** The `mcp-fusion` dependency: a version range, or `file:<checkout>`. */
  readonly fusion: string;
  /** Linked to a checkout: TypeScript, tsx and vitest resolve `mcp-fusion` to its TypeScript sources (tsconfig `paths`, a vitest alias). */
  readonly linked: boolean;
  /** Version ranges by package name. */
  readonly ranges: Readonly<Record<string, string>>;
}

const FALLBACK: Record<string, string> = {
  '@modelcontextprotocol/server': '^2.4.0',
  '@modelcontextprotocol/node': '^2.1.2',
  '@modelcontextprotocol/client': '^2.4.0',
  zod: '^4.2.0',
  '@types/node': '^20.19.0',
  tsx: '^4.20.0',
  typescript: '~5.9',
  vitest: '^4.1.0',
  '@viz-js/viz': '^3.31.0',
};

/** Pure: the scaffold's files, path → content. */
export function scaffoldFiles(input: TemplateInput): Record<string, string> {
  const range = (pkg: string): string => input.ranges[pkg] ?? FALLBACK[pkg]!;
  const deps = (names: string[]): Record<string, string> => Object.fromEntries(names.map((n) => [n, range(n)]));
  const manifest = {
    name: input.name,
    version: '0.1.0',
    private: true,
    type: 'module',
    scripts: {
      // node runs the server itself (tsx as a loader, no tsx process between): it sees npm's shell go away.
      start: 'node --import tsx src/server.ts',
      test: 'tsc --noEmit && vitest run',
      inspect: 'mcp-fusion inspect src/registry.ts',
      'lint:fusion': 'mcp-fusion lint src/registry.ts',
      diagram: 'mcp-fusion diagram src/registry.ts --out diagrams',
    },
    dependencies: {
      'mcp-fusion': input.fusion,
      ...deps(['@modelcontextprotocol/server', '@modelcontextprotocol/node', 'zod']),
    },
    devDependencies: deps([
      '@modelcontextprotocol/client',
      '@types/node',
      '@viz-js/viz',
      'tsx',
      'typescript',
      'vitest',
    ]),
  };
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022',
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      lib: input.linked ? ['ES2023', 'DOM'] : ['ES2023'],
      types: ['node'],
      strict: true,
      verbatimModuleSyntax: true,
      skipLibCheck: true,
      noEmit: true,
      ...(input.linked
        ? { paths: { 'mcp-fusion': [`${SOURCES}/index.ts`], 'mcp-fusion/*': [`${SOURCES}/*/index.ts`] } }
        : {}),
    },
    include: ['src', 'test', 'vitest.config.ts'],
  };
  return {
    'package.json': json(manifest),
    'tsconfig.json': json(tsconfig),
    'vitest.config.ts': vitestConfig(input.linked),
    '.gitignore': 'node_modules/\ndiagrams/\n',
    'src/registry.ts': REGISTRY,
    'src/server.ts': SERVER,
    'test/registry.test.ts': TEST,
    'README.md': readme(input.name),
  };
}

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** A linked checkout's TypeScript sources, seen from the project. */
const SOURCES = './node_modules/mcp-fusion/src';

function vitestConfig(linked: boolean): string {
  if (!linked)
    return `import { defineConfig } from 'vitest/config';\n\nexport default defineConfig({ test: { include: ['test/**/*.test.ts'] } });\n`;
  return `import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// mcp-fusion is linked from a checkout: load its TypeScript sources (tsconfig.json's \`paths\` say the same for tsc and tsx).
const sources = fileURLToPath(new URL('${SOURCES}', import.meta.url));

export default defineConfig({
  resolve: { alias: [{ find: /^mcp-fusion(\\/redis|\\/testing)?$/, replacement: \`\${sources}$1/index.ts\` }] },
  test: { include: ['test/**/*.test.ts'] },
});
`;
}

function readme(name: string): string {
  return `# ${name}

An MCP server built with [mcp-fusion](https://www.npmjs.com/package/mcp-fusion): a query, an action and a
mutation over a task list, a State Sync policy and a workflow FSM. Each task list is one instance of the
\`tasks\` workflow: a legacy client's session, or on the 2026-07-28 protocol (no sessions) the instance named by
the \`tasks_id\` that the first \`tasks.add\` returns. Data is keyed by \`extra.workflow.key\`, so clients never
share it; in production, put authentication in front (the \`tasks_id\` is then bound to its user) and a database
behind \`contextFactory\`.

\`\`\`bash
npm test                 # type check and the tests in test/
npm start                # serves http://127.0.0.1:3000/mcp (npm start -- --stdio for stdio)
npm run inspect          # the tool surface: annotations, cache directives, FSM states
npx mcp-fusion inspect src/registry.ts --state has_tasks   # what tools/list shows in that state
npm run lint:fusion      # the startup checks, for CI
npm run diagram          # diagrams/tasks.mmd and diagrams/tasks.svg
\`\`\`
`;
}
