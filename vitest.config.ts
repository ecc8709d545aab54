import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: { conditions: ['mcp-fusion-source'] },
  ssr: { resolve: { conditions: ['mcp-fusion-source'] } },
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    // A private redis-server for the Redis stores, bus and multi-process tests (scripts/test.sh installs it).
    globalSetup: ['test/redis/globalSetup.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    execArgv: ['--expose-gc'],
    typecheck: { enabled: true, include: ['test/**/*.test-d.ts'] },
  },
});
