/**
 * The SDK change bench/sdk-per-message.patch proposes, made runnable: a copy of the installed
 * `@modelcontextprotocol/server` under bench/.sdk-patched/ with the patch applied (bench/sdkRedirect.mjs points a
 * server child at it). The patch removes two pieces of the SDK's own per-message work that the profile of
 * mcp-fusion's server shows: the zod parse that fails on every request before the request branch is tried (the
 * message is checked as a response first), and the second zod parse of each `tools/call` request (`Server`'s
 * wrapper and `setRequestHandler`'s stored handler both validate it).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const PATCHED = fileURLToPath(new URL('./.sdk-patched/node_modules/@modelcontextprotocol/server/', import.meta.url));
const PATCH = fileURLToPath(new URL('./sdk-per-message.patch', import.meta.url));

/** Makes (again) the patched copy of the installed SDK; returns the `--import` argument that selects it. */
export function preparePatchedSdk(): string[] {
  const require = createRequire(import.meta.url);
  const installed = dirname(dirname(require.resolve('@modelcontextprotocol/server')));
  if (!existsSync(`${installed}/package.json`))
    throw new Error(`@modelcontextprotocol/server not found at ${installed}`);
  rmSync(PATCHED, { recursive: true, force: true });
  mkdirSync(PATCHED, { recursive: true });
  cpSync(installed, PATCHED, { recursive: true });
  const done = spawnSync('patch', ['-p1', '--forward', '-d', PATCHED, '-i', PATCH], { encoding: 'utf8' });
  if (done.status !== 0)
    throw new Error(`bench/sdk-per-message.patch does not apply to the installed SDK: ${done.stdout}${done.stderr}`);
  return ['--import', fileURLToPath(new URL('./sdkRedirect.mjs', import.meta.url))];
}
