// The `mcp-fusion` executable's body; bin/mcp-fusion.js picks this file (from source or dist) and runs it.
import { runCli } from './runCli.js';

// A reader that stops early (`mcp-fusion --help | head -1`) closes the pipe: what is left to write is dropped
// (EPIPE is no failure of the command, and not worth a stack) and the command ends with its own exit code.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
// A module the CLI imported may have left a server, a timer or a connection behind: the command is done, so
// exit once the output is flushed instead of waiting for them (the CLI itself never listens).
// One turn of the event loop first: a listen() the module started completes its address lookup.
await new Promise((resolve) => setImmediate(resolve));
if (process.getActiveResourcesInfo().some((r) => r === 'TCPServerWrap' || r === 'PipeServerWrap')) {
  process.stderr.write(
    'note: the imported module left a server listening (not started through startServer()); mcp-fusion exits without waiting for it.\n',
  );
}
await Promise.all(
  [process.stdout, process.stderr].map((stream) => new Promise((resolve) => stream.write('', resolve))),
);
process.exit(code);
