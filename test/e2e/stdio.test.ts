import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { texts } from '../_helpers/clients.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

async function stdioClient(mode: 'legacy' | 'auto'): Promise<Client> {
  const client = new Client({ name: 'stdio-test', version: '1.0.0' }, mode === 'auto' ? { versionNegotiation: { mode: 'auto' } } : {});
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', '--conditions=development', 'examples/workspace/main.ts', '--stdio'],
    cwd: root,
    stderr: 'pipe',
  });
  await client.connect(transport);
  return client;
}

describe('npm start -- --stdio', () => {
  it.each(['legacy', 'auto'] as const)('serves the example to a v2 stdio client in %s mode', async (mode) => {
    const client = await stdioClient(mode);
    try {
      expect(client.getProtocolEra()).toBe(mode === 'auto' ? 'modern' : 'legacy');
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toContain('sprints.create');
      const result = await client.callTool({ name: 'sprints.create', arguments: { name: `stdio ${mode}` } });
      expect(texts(result).join('\n')).toContain(`"name":"stdio ${mode}"`);
    } finally {
      await client.close();
    }
  }, 30_000);
});
