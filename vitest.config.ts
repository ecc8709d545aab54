import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { SlowFirstSequencer } from './test/slowFirst.js';

// In the repository, `mcp-fusion` and its subpaths (`/redis`, `/testing`, `/advanced`) are the TypeScript sources (as
// tsconfig.json's `paths` say for tsc and tsx), never a stale dist/.
const src = fileURLToPath(new URL('./src', import.meta.url));

// Files that each get a fresh worker (Vitest's isolation): those that change the worker process itself (fake
// timers, module mocks, environment variables, process listeners, optional peers provided by hand, the tsx
// loader the CLI registers, OpenTelemetry's global providers), need a module not to be loaded yet, measure the
// heap or the time, or start child processes (their cost is the children, not the import). Every other file
// shares its worker's module graph with the files that ran there before it: the sources are loaded and
// transformed once per worker instead of once per file, which halves the CPU of the in-process tests (see
// docs/testing.md, The slowest files).
// The in-process files of these folders share workers (none of the reasons above holds for them): the CLI's
// help (it loads no module, so no tsx loader), its file watcher, FSM drawings and findTsx; the package's checks
// that read the tree or the sources' exports; the docs check's and the soak's pure parts; the console's bounds,
// guards and hub (in-process servers); the tracing attributes (no provider).
const isolated = [
  'test/abuse/**/*.test.ts',
  'test/console/{charts,console,deployment,dev,docProgram,flood,load,slowPage,tasks}.test.ts',
  'test/cli/{bin,create,devPortBusy,devReload,devToken,diagram,inspect,lint,serveOnImport,statecharts}.test.ts',
  'test/package/{lockfile,pack}.test.ts',
  'test/scripts/soak.test.ts',
  'test/tracing/{everyMethodSpans,extractParent,refusalsAndSessions,taskSpans,tracing}.test.ts',
  'test/_internal/clock.test.ts',
  'test/adapter/sdkLineUnloaded.test.ts',
  'test/builder/grouped/loadToon.test.ts',
  'test/e2e/{busyPort,exampleAuth,fuzz,lifecycle,npmStart,soak,state-sync,stdioOversize}.test.ts',
  'test/fsm/{initFsmEngine,statecharts}.test.ts',
  'test/workflow/WorkflowSessions.test.ts',
  'test/logging/{LogQueue,logLevel}.test.ts',
  'test/redis/{RedisEventBus,busConnectOrder,cluster,failover,instances,multiProcess}.test.ts',
  'test/redis/{rateLimitProcesses,rollingRestart,scalingDocProgram,scalingSnippet}.test.ts',
  'test/redis/{sessionDataProcesses,taskDrain,tasksCluster,tasksCrossInstance}.test.ts',
  'test/runtime/request-state/RequestStateSeal.test.ts',
  'test/server/http/routeOnceHttp.test.ts',
  'test/server/sigtermDrain.test.ts',
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
      {
        extends: true,
        test: { name: 'alone', include: alone },
      },
      // The type tests: tsc over test/**/*.test-d.ts (which `npm test`'s typecheck step has already checked, as
      // part of tsconfig.json, so scripts/test.sh runs the two projects above only).
      { test: { name: 'types', typecheck: { enabled: true, only: true, include: ['test/**/*.test-d.ts'] } } },
    ],
  },
});
