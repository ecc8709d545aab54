import { jwksVerifier, type HttpOptions, type RateLimitStore } from 'mcp-fusion';

/**
 * The workspace server's production switches, read from the environment; none set keeps today's open
 * server on 127.0.0.1.
 * - `AUTH_JWKS_URL`, `AUTH_ISSUER`, `AUTH_AUDIENCE`: an OAuth 2.1 resource server accepting JWT access tokens
 *   signed by the keys at `AUTH_JWKS_URL`, issued by `AUTH_ISSUER` for `AUTH_AUDIENCE` (this endpoint's public URL).
 * - `RATE_LIMIT`: tool calls per principal, `<max>/<seconds>` (e.g. `60/60`), or `<max>` per minute.
 */
export function securityOptions(
  env: NodeJS.ProcessEnv,
  rateLimitStore?: RateLimitStore,
): Pick<HttpOptions<unknown>, 'auth' | 'rateLimit' | 'rateLimitStore'> {
  const options: Pick<HttpOptions<unknown>, 'auth' | 'rateLimit' | 'rateLimitStore'> = {};
  const { AUTH_JWKS_URL: jwksUrl, AUTH_ISSUER: issuer, AUTH_AUDIENCE: audience } = env;
  if (jwksUrl || issuer || audience) {
    if (!jwksUrl || !issuer || !audience)
      throw new Error(
        'Set all of AUTH_JWKS_URL, AUTH_ISSUER and AUTH_AUDIENCE to protect the endpoint with OAuth, or none of them.',
      );
    options.auth = {
      verifier: jwksVerifier({ jwksUrl, issuer, audience }),
      ...(URL.canParse(audience) ? { resource: audience } : {}),
      resourceMetadata: { authorizationServers: [issuer], resourceName: 'mcp-fusion workspace' },
    };
  }
  if (env.RATE_LIMIT) {
    const match = /^(\d+)(?:\/(\d+))?$/.exec(env.RATE_LIMIT.trim());
    if (match === null)
      throw new Error(
        `RATE_LIMIT is "${env.RATE_LIMIT}"; write <max>/<seconds>, e.g. 60/60 for 60 tool calls a minute per principal.`,
      );
    options.rateLimit = { max: Number(match[1]), windowMs: Number(match[2] ?? 60) * 1_000 };
    if (rateLimitStore !== undefined) options.rateLimitStore = rateLimitStore;
  }
  return options;
}
