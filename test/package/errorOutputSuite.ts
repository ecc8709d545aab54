// What Node prints when a user's program leaves a library error uncaught, against the installed package: the
// error's name and message first (no line of our code above it), then frames that name our functions in
// readable files (dist/…js at real lines; with source maps on, src/…ts). Run by pack.test.ts, in its project.
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/** `await startServer()` on a port another server holds, at the top of an ES module / in a CommonJS callback. */
const programs = {
  esm: [
    "import { initFusion, startServer } from 'mcp-fusion';",
    'const f = initFusion();',
    "const registry = f.registry().registerAll(f.query('a.b').describe('A').handle(() => 'b'));",
    'await startServer(registry, { port: Number(process.env.PORT) });',
    '',
  ].join('\n'),
  cjs: [
    "const { initFusion, startServer } = require('mcp-fusion');",
    'const f = initFusion();',
    "const registry = f.registry().registerAll(f.query('a.b').describe('A').handle(() => 'b'));",
    'setImmediate(async () => {',
    '  await startServer(registry, { port: Number(process.env.PORT) });',
    '});',
    '',
  ].join('\n'),
};

async function runNode(
  cwd: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
  return { code, stderr };
}

export function describeErrorOutput(project: () => string): void {
  describe("a library error left uncaught in the user's program (port in use)", () => {
    let busy: Server;
    let port = 0;

    beforeAll(async () => {
      writeFileSync(join(project(), 'busy.mjs'), programs.esm);
      writeFileSync(join(project(), 'busy.cjs'), programs.cjs);
      busy = createServer();
      await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
      port = (busy.address() as { port: number }).port;
    });

    afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

    it.each([
      ['esm', 'busy.mjs', 'dist/server/app/startServer.js'],
      ['cjs', 'busy.cjs', 'dist/cjs/_bundle.js'],
    ])(
      '%s: prints the message first, then frames of dist at real lines, or of src/…ts with source maps on',
      async (_kind, file, built) => {
        for (const maps of [false, true]) {
          const { code, stderr } = await runNode(project(), maps ? ['--enable-source-maps', file] : [file], {
            PORT: String(port),
          });
          const lines = stderr.split('\n').filter((line) => line.trim() !== '');
          expect(code, stderr).toBe(1);
          expect(lines[0], stderr).toBe(
            `ServerStartError: Port ${port} on 127.0.0.1 is already in use (another server is listening there). Stop that server, or choose another port: set the PORT environment variable (PORT=3001 npm start) or pass { port: 3001 } (0 picks a free port) to startServer().`,
          );
          const frame = (fn: string): string | undefined => lines.find((line) => line.startsWith(`    at ${fn} (`));
          const where = maps ? 'src/server/app/startServer.ts' : built;
          for (const fn of ['listenError', 'startServer']) {
            const line = frame(fn);
            expect(line, stderr).toContain(`/node_modules/mcp-fusion/${where}:`);
            // A real line of a readable file (the minified build put everything on line 1).
            expect(Number(/:(\d+):\d+\)$/.exec(line!)?.[1]), line).toBeGreaterThan(1);
          }
        }
      },
      60_000,
    );
  });
}
