import { startServer } from 'mcp-fusion';
import { conformanceOptions, hooks, registry } from './server.js';

const server = await startServer(registry, {
  ...conformanceOptions,
  port: Number(process.env.PORT ?? 3000),
  host: process.env.HOST ?? '127.0.0.1',
});
hooks.promptsChanged = () => server.app?.notifyPromptsChanged();
console.error(`mcp-fusion conformance server listening on ${server.url}`);

const stop = async (): Promise<void> => {
  await server.close();
  process.exit(0);
};
process.once('SIGINT', () => void stop());
process.once('SIGTERM', () => void stop());
