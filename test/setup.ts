import { Agent, setGlobalDispatcher } from 'undici';
import { afterAll, afterEach, beforeEach, vi } from 'vitest';
import { closeOpened } from './_helpers/closeAfterFile.js';
import { consoleGuard } from './_helpers/console.js';

// Stray console output hides real warnings: a test that expects output calls allowConsole().
const methods = ['log', 'info', 'warn', 'error', 'debug'] as const;
let spies: Array<ReturnType<typeof vi.spyOn>> = [];

beforeEach(() => {
  consoleGuard.allowed = false;
  spies = methods.map((m) => vi.spyOn(console, m));
});

afterEach(() => {
  const stray = spies.flatMap((s, i) =>
    s.mock.calls.map((c: unknown[]) => `console.${methods[i]}: ${c.map(String).join(' ')}`),
  );
  for (const s of spies) s.mockRestore();
  if (stray.length > 0 && !consoleGuard.allowed) {
    throw new Error(`Unexpected console output (call allowConsole() if the test expects it):\n${stray.join('\n')}`);
  }
});

// Tests throw from handlers on purpose: the operator's log stays quiet unless a test sets a logger or level.
process.env.MCP_FUSION_LOG ??= 'silent';

// Node's global fetch (the tests' raw requests) keeps an idle connection 10 ms, as a short-lived client does,
// rather than the 4 s of its default pool: a server a test closes then sees its idle keep-alive connections go,
// and its shutdown ends at once instead of answering 503 down them for its linger (src/server/node/shutDown.ts).
// A test that needs a longer-lived pool has one of its own (test/_helpers/clients.ts, pooledFetch).
setGlobalDispatcher(new Agent({ keepAliveTimeout: 10, keepAliveMaxTimeout: 10 }));

// The Redis clients test/redis/clients.ts opened for this file (test/_helpers/closeAfterFile.ts says why here).
afterAll(closeOpened);
