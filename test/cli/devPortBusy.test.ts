import { createServer } from 'node:net';
import { expect, it } from 'vitest';
import { startDev } from './_devProcess.js';
import { fixture } from './_run.js';

it('mcp-fusion dev stops with exit 2 and one clear line when its port is taken (saving a module cannot fix that)', async () => {
  const squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  const port = (squatter.address() as { port: number }).port;
  try {
    await using dev = startDev([fixture('scoped-registry.ts')], { PORT: String(port) });
    expect(await dev.exited()).toBe(2);
    const lines = dev.stderr().trim().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(new RegExp(`^error: Port ${port} on 127\\.0\\.0\\.1 is already in use .*PORT=3001`)),
    ]);
  } finally {
    await new Promise((resolve) => squatter.close(resolve));
  }
}, 60_000);
