import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// In the repository, `mcp-fusion`, `mcp-fusion/redis` and `mcp-fusion/testing` are the TypeScript sources (as
// tsconfig.json's `paths` say for tsc and tsx), never a stale dist/.
const src = fileURLToPath(new URL('./src', import.meta.url));

export default defineConfig({
  resolve: { alias: [{ find: /^mcp-fusion(\/redis|\/testing)?$/, replacement: `${src}$1/index.ts` }] },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // A private redis-server for the Redis stores, bus and multi-process tests (scripts/test.sh installs it).
    globalSetup: ['test/redis/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the 2-core reference machine, which left the
    // second core idle while a file waited on its servers. Most files wait on sockets and child processes, so
    // one worker more than the cores keeps both busy.
    maxWorkers: availableParallelism() + 1,
    execArgv: ['--expose-gc'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
