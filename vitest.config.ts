import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/slowFirst.js';

// In the repository, `mcp-fusion` and its subpaths (`/redis`, `/testing`, `/advanced`) are the TypeScript sources (as
// tsconfig.json's `paths` say for tsc and tsx), never a stale dist/.
const src = fileURLToPath(new URL('./src', import.meta.url));

// Files that each get a fresh worker (Vitest's isolation), because they change or measure the worker process
// itself, which a file sharing the worker after them would inherit:
// - fake timers: WorkflowSessions, RequestStateSeal;
// - module mocks (vi.mock, a spy around one module's export): server/http/routeOnceHttp;
// - environment variables (vi.stubEnv, or writes to process.env read when a module loads): cli/create,
//   logging/logLevel, redis/{RedisEventBus,busConnectOrder,scalingSnippet};
// - process listeners (`unhandledRejection`) or spies on a shared class's prototype: e2e/{fuzz,state-sync},
//   state-sync/StateSyncLayer;
// - the CLI run in this process: it imports a user's module once per process (a module that calls
//   startServer() when imported is intercepted the first time only), and `dev` registers Node's module hooks
//   (from dist it also registers tsx): cli/{devToken,diagram,inspect,lint,statecharts}; and cli/serveOnImport,
//   which also counts this process's listening servers;
// - OpenTelemetry's global providers and propagator: tracing/{tracing,extractParent};
// - optional peers provided by hand (provideOptional): fsm/{initFsmEngine,statecharts};
// - a module that must not be loaded yet, or loaded afresh: adapter/sdkLineUnloaded, builder/grouped/loadToon;
// - this process's heap or time (a shared worker's is its earlier files' too): e2e/lifecycle,
//   state-sync/{globCovers,matchGlob}.
// Starting child processes or Chromium is no reason: their cost is the children's, and a file that closes
// what it started in its own hooks leaves the worker as it found it (the abuse, console, Redis processes, e2e
// and pack files share). Every other file shares its worker's module graph with the files that ran there before
// it: the sources are loaded and transformed once per worker instead of once per file, which halves the CPU
// of the in-process tests (see docs/testing.md, The slowest files). A helper module's own `afterAll` would be
// registered by the first file that imports it only: test/_helpers/closeAfterFile.ts is how helpers close
// what they opened for each file.
const isolated = [
  'test/cli/{create,devToken,diagram,inspect,lint,serveOnImport,statecharts}.test.ts',
  'test/tracing/{extractParent,tracing}.test.ts',
  'test/adapter/sdkLineUnloaded.test.ts',
  'test/builder/grouped/loadToon.test.ts',
  'test/e2e/{fuzz,lifecycle,state-sync}.test.ts',
  'test/fsm/{initFsmEngine,statecharts}.test.ts',
  'test/workflow/WorkflowSessions.test.ts',
  'test/logging/logLevel.test.ts',
  'test/redis/{RedisEventBus,busConnectOrder,scalingSnippet}.test.ts',
  'test/runtime/request-state/RequestStateSeal.test.ts',
  'test/server/http/routeOnceHttp.test.ts',
  'test/state-sync/{StateSyncLayer,globCovers,matchGlob}.test.ts',
];

// Files that assert how long the page's tasks take or how high a heap peaks (a real browser's long tasks, a
// flood's heap before the collector catches up): their figures are the machine's, so they run after the others,
// one at a time, rather than beside two other test files on a 2-core machine (scripts/test.sh).
const alone = ['test/console/load.test.ts', 'test/e2e/soak.test.ts'];

export default defineConfig({
  resolve: { alias: [{ find: /^mcp-fusion(\/redis|\/testing|\/advanced)?$/, replacement: `${src}$1/index.ts` }] },
  test: {
    setupFiles: ['test/setup.ts'],
    // A private redis-server for the Redis stores, bus and multi-process tests (scripts/test.sh installs it),
    // and one esbuild bundle per child server module, which tests start instead of tsx (test/childBundles.ts).
    globalSetup: ['test/redis/globalSetup.ts', 'test/childBundles.ts'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on the 2-core reference machine, which left the
    // second core idle while a file waited on its servers. Most files wait on sockets and child processes, so
    // one worker more than the cores keeps both busy.
    maxWorkers: availableParallelism() + 1,
    execArgv: ['--expose-gc'],
    // The longest files start first, so that the run does not end on one of them alone.
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'isolated', include: isolated, exclude: alone },
      },
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: [...isolated, ...alone], isolate: false },
      },
      // After the two projects above have ended (a later group), in the same run: one file at a time.
      {
        extends: true,
        test: {
          name: 'alone',
          include: alone,
          fileParallelism: false,
          sequence: { groupOrder: 1 },
        },
      },
      // The type tests: tsc over test/**/*.test-d.ts (which `npm test`'s typecheck step has already checked, as
      // part of tsconfig.json, so scripts/test.sh runs the three projects above only).
      { test: { name: 'types', typecheck: { enabled: true, only: true, include: ['test/**/*.test-d.ts'] } } },
    ],
  },
});
