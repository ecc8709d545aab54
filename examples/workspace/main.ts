import { startServer } from 'mcp-fusion';
import { registry, workspaceOptions } from './registry.js';
import { securityOptions } from './security.js';

// The parent process (under `npm start`, npm's shell), read before the port opens: a client may connect, and npm
// be stopped, as soon as it does, before the code after startServer runs (see the end of this file).
const parent = process.ppid;
// stdio for MCP hosts: the `--stdio` flag, or MCP_TRANSPORT=stdio where a launcher eats the arguments.
const stdio = process.argv.includes('--stdio') || process.env.MCP_TRANSPORT === 'stdio';
// REDIS_URL (one Redis) or REDIS_CLUSTER_NODES=host:port,host:port,… (Redis Cluster / Valkey cluster): several
// processes share sessions, workflow state and notifications (ioredis is loaded only then).
const { REDIS_URL, REDIS_CLUSTER_NODES } = process.env;
const redisTarget = REDIS_CLUSTER_NODES
  ? { clusterNodes: REDIS_CLUSTER_NODES }
  : REDIS_URL
    ? { url: REDIS_URL }
    : undefined;
const redis = redisTarget
  ? await (await import('./redis.js')).connectRedis(redisTarget, process.env.REDIS_PREFIX ?? 'workspace:')
  : undefined;
// MCP_TRACING=1: an OpenTelemetry span per MCP request, printed to stderr (the SDK is loaded only then).
const tracing = process.env.MCP_TRACING === '1';
if (tracing) (await import('./tracing.js')).traceToStderr();
// AUTH_JWKS_URL/AUTH_ISSUER/AUTH_AUDIENCE: OAuth-protected endpoint; RATE_LIMIT=<max>/<seconds>: tool calls per principal.
const security = securityOptions(process.env, redis?.rateLimitStore);
const server = await startServer(registry, {
  ...workspaceOptions(),
  tracing,
  ...redis?.options,
  ...security,
  transport: stdio ? 'stdio' : 'http',
  port: Number(process.env.PORT ?? 3000),
  host: process.env.HOST ?? '127.0.0.1',
}).catch((error: unknown) => {
  // A busy port: one line naming the port and the fix (PORT=…), not a stack.
  console.error(`mcp-fusion workspace server: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
// stdout belongs to the protocol over stdio: log to stderr.
console.error(
  `mcp-fusion workspace server listening on ${server.url}${redis ? (REDIS_CLUSTER_NODES ? ' (Redis Cluster)' : ' (Redis)') : ''}`,
);

let stopping: Promise<void> | undefined;
const stop = (): Promise<void> =>
  (stopping ??= (async () => {
    await server.close();
    await redis?.close();
    process.exit(0);
  })());
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
// `npm start` runs this file under a shell that does not pass npm's SIGTERM on (the shell dies, and this
// process would live on, orphaned): under npm, stop as well when the parent process goes away.
if (process.env.npm_lifecycle_event !== undefined) {
  setInterval(() => {
    if (process.ppid !== parent) void stop();
  }, 250).unref();
}
