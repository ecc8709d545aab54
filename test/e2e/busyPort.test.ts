import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sourceChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('npm start on a busy port', () => {
  it('says which port is busy and how to choose another, in one line, and exits 1', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const child = spawn(process.execPath, sourceChild('examples/workspace/main.ts'), {
        cwd: root,
        env: { ...process.env, PORT: String(port), REDIS_URL: '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => void (stderr += c.toString('utf8')));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(stderr.trim()).toBe(
        `mcp-fusion workspace server: Port ${port} on 127.0.0.1 is already in use (another server is listening there). Stop that server, or choose another port: set the PORT environment variable (PORT=3001 npm start) or pass { port: 3001 } (0 picks a free port) to startServer().`,
      );
    } finally {
      blocker.close();
    }
  }, 30_000);
});
