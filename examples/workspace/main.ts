import { startServer } from 'mcp-fusion';
import { registry, workspaceOptions } from './registry.js';

const stdio = process.argv.includes('--stdio');
const server = await startServer(registry, {
  ...workspaceOptions(),
  transport: stdio ? 'stdio' : 'http',
  port: Number(process.env.PORT ?? 3000),
  host: process.env.HOST ?? '127.0.0.1',
});
// stdout belongs to the protocol over stdio: log to stderr.
console.error(`mcp-fusion workspace server listening on ${server.url}`);

const stop = async (): Promise<void> => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
