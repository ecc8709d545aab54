#!/usr/bin/env node
// The `mcp-fusion` command. Installed from npm it runs the compiled CLI in dist/. In a checkout of the
// repository (not under node_modules) it runs the TypeScript sources: it restarts Node with the tsx loader
// (which applies tsconfig.json's `paths`, so that `mcp-fusion` imports resolve to src/ as well).
/* global process, console */
import { spawn } from 'node:child_process';
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = realpathSync(dirname(dirname(fileURLToPath(import.meta.url))));
const source = join(root, 'src', 'cli', 'main.ts');
const dist = join(root, 'dist', 'cli', 'main.js');
const mode =
  process.env.MCP_FUSION_CLI ?? (!root.split(sep).includes('node_modules') && existsSync(source) ? 'source' : 'dist');

if (mode === 'source') {
  let tsx;
  try {
    tsx = import.meta.resolve('tsx');
  } catch {
    console.error('mcp-fusion: running from a checkout needs its dev dependencies; run `npm install` in ' + root);
    process.exit(2);
  }
  const child = spawn(process.execPath, ['--import', tsx, source, ...process.argv.slice(2)], { stdio: 'inherit' });
  for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => {
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
} else if (existsSync(dist)) {
  // The package ships source maps: an error's frames name src/….ts and the functions in it.
  process.setSourceMapsEnabled(true);
  await import(pathToFileURL(dist).href);
} else {
  console.error(`mcp-fusion: ${dist} is missing; run \`npm run build\` in ${root}`);
  process.exit(2);
}
