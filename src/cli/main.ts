// The `mcp-fusion` executable's body; bin/mcp-fusion.js picks this file (from source or dist) and runs it.
import { runCli } from './runCli.js';

process.exitCode = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  cwd: process.cwd(),
  env: process.env,
});
