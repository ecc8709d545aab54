/**
 * `node --import ./bench/sdkRedirect.mjs …`: every import of `@modelcontextprotocol/server` resolves to the copy
 * under bench/.sdk-patched/ (made by bench/sdkPatch.ts with bench/sdk-per-message.patch applied), so that a server
 * child runs on the patched SDK while the repository's own node_modules stay untouched.
 */
import { register } from 'node:module';
import { URL } from 'node:url';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
const parentURL = ${JSON.stringify(new URL('./.sdk-patched/index.js', import.meta.url).href)};
export async function resolve(specifier, context, next) {
  if (specifier === '@modelcontextprotocol/server' || specifier.startsWith('@modelcontextprotocol/server/'))
    return next(specifier, { ...context, parentURL });
  return next(specifier, context);
}`),
);
