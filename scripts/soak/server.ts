/**
 * One server under soak (the soak starts two on one Redis), in its own process: the workspace example wired to Redis as `npm start` wires it
 * (REDIS_URL, REDIS_PREFIX), with its timeouts scaled to the run (`SOAK_TTL_MS`: a session's, a workflow
 * handle's and a stored SSE event's lifetime; idle and never-used sessions go after a third of it), so that what clients leave behind
 * is purged within the run. `DEBUG_PORT` answers `GET /stats`: heap used after a full collection, open handles
 * and requests (libuv resources), and legacy sessions tracked and live. SIGTERM: drain, close, exit 0.
 */
import { createServer } from 'node:http';
import { initFusion, startServer } from 'mcp-fusion';
import { checkout, registry, workspaceOptions } from '../../examples/workspace/registry.js';
import { connectRedis } from '../../examples/workspace/redis.js';
import { WorkspaceDb } from '../../examples/workspace/db.js';

const ttlMs = Number(process.env.SOAK_TTL_MS ?? 30_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (gc === undefined)
  throw new Error('run the soak server with --expose-gc: it reports its heap after a full collection');
// Stored SSE events (kept for resumption) live as long as a session: every lifetime is scaled to the run. A
// command may take 5 s (not the fail-fast 1 s): on a busy machine the soak judges growth, not Redis' latency.
const redis = await connectRedis({ url: process.env.REDIS_URL! }, process.env.REDIS_PREFIX ?? 'soak:', {
  eventsTtlMs: ttlMs,
  commandTimeoutMs: 5_000,
});
const third = Math.floor(ttlMs / 3);
const server = await startServer(registry, {
  // The demo database keeps windows of carts and orders (10× and 1× maxRecords): small ones, reached early in the run.
  ...workspaceOptions(new WorkspaceDb({ maxRecords: 50 })),
  ...redis.options,
  fsm: initFusion().fsm({ ...checkout.config, idleTtlMs: ttlMs }),
  sessionTimeouts: { initializeMs: 5_000, neverUsedMs: third, idleMs: third, ttlMs, sweepIntervalMs: 250 },
  port: Number(process.env.PORT),
  drainMs: 5_000,
});
const stats = createServer((req, res) => {
  gc();
  const body = {
    heapUsed: process.memoryUsage().heapUsed,
    handles: process.getActiveResourcesInfo().length,
    sessions: server.app?.sessions.manager.count,
    live: server.app?.sessions.size,
  };
  res.writeHead(req.url === '/stats' ? 200 : 404, { 'content-type': 'application/json' }).end(JSON.stringify(body));
});
stats.listen(Number(process.env.DEBUG_PORT), '127.0.0.1');
process.once('SIGTERM', () => {
  stats.close();
  void server
    .close()
    .then(() => redis.close())
    .then(() => process.exit(0));
});
