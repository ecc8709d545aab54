import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { cli, fixture, repo } from './_run.js';

const run = promisify(execFile);
const listening = (): number => process.getActiveResourcesInfo().filter((r) => r === 'TCPServerWrap').length;
const served = fixture('serves-on-import.ts');
const note = `note: "${served}" calls startServer() when imported; the CLI read the registry and options given to it and did not start the server. To import the file without serving, serve only when it is run directly: \`if (process.argv[1] === import.meta.filename) await startServer(…)\`, or keep the call in another file.\n`;

describe('a module that starts its server when imported', () => {
  it('is inspected through the registry and options it gave startServer(), which does not listen', async () => {
    const before = listening();
    const { code, stdout, stderr } = await cli('inspect', served);
    expect({ code, stderr }).toEqual({ code: 0, stderr: note });
    expect(stdout).toContain(`${served}: 2 tools, no FSM`);
    expect(stdout).toMatch(/sprints\.list\s+query\s+readOnly\s+no-store/);
    expect(stdout).toMatch(/sprints\.create\s+action\s+-\s+-\s+sprints\.\*/);
    expect(listening()).toBe(before);
  });

  it('is linted and drawn the same way, again in the same process', async () => {
    const lint = await cli('lint', served);
    expect(lint).toEqual({ code: 0, stdout: `✔ ${served}: no problems\n`, stderr: note });
    const diagram = await cli('diagram', served);
    expect(diagram.code).toBe(0);
    expect(diagram.stdout).toBe(
      'stateDiagram-v2\n  always : sprints.list\n  always : sprints.create\n  [*] --> always\n',
    );
    expect(diagram.stderr).toBe(
      `${note}note: "${served}" has no workflow gate (f.fsm), so every tool is visible all the time: drawn as one state. Export a gate as \`fsm\` (or name it with --fsm <export>) to draw a workflow.\n`,
    );
  });
});

describe('bin/mcp-fusion.js on a module that leaves a server listening', () => {
  it('says so and exits when the command is done', { timeout: 30_000 }, async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      [join(repo, 'bin', 'mcp-fusion.js'), 'inspect', fixture('listens-on-import.ts')],
      { cwd: repo, timeout: 25_000 },
    );
    expect(stdout).toContain('ping');
    expect(stderr).toBe(
      'note: the imported module left a server listening (not started through startServer()); mcp-fusion exits without waiting for it.\n',
    );
  });
});
