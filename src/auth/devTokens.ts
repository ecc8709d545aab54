import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { AttachError } from '../errors/FusionError.js';
import { systemClock } from '../_internal/clock.js';

/** Options of {@link devTokens}. */
export interface DevTokensOptions {
  /** The clock a token's one-hour expiry is counted from (epoch ms). Default: the system clock. */
  now?: () => number;
  /** The environment whose `NODE_ENV` is checked (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The issuer named in every development token's `AuthInfo` (`extra.iss`), so its principals never match real ones. */
export const DEV_TOKEN_ISSUER = 'mcp-fusion:dev-tokens';

const WORD = /^[\x21-\x7e]+$/;

/**
 * **For development only.** An `OAuthTokenVerifier` that accepts a fixed set of bearer tokens, each granting
 * its scopes, so a registry whose tools require scopes can be tried locally without an authorization server:
 * the token is the key itself (`Authorization: Bearer dev-admin`), its principal the user `dev-admin`. Any
 * other token is refused (401). It refuses to be created when `NODE_ENV` is `production`; serve real tokens
 * there (e.g. {@link jwksVerifier}). `mcp-fusion dev --dev-token dev-admin=admin,write` builds one for you.
 * @example
 * await startServer(registry, { auth: { verifier: devTokens({ 'dev-admin': ['admin', 'write'], 'dev-reader': [] }) } });
 * // curl -H 'Authorization: Bearer dev-admin' …
 * @see docs/auth.md
 */
export function devTokens(
  tokens: Readonly<Record<string, readonly string[]>>,
  options: DevTokensOptions = {},
): OAuthTokenVerifier {
  const env = options.env ?? process.env;
  const now = options.now ?? systemClock.now;
  if (env.NODE_ENV === 'production') {
    throw new AttachError(
      'AUTH_DEV_TOKENS_IN_PRODUCTION',
      'devTokens() is for development only and refuses to run with NODE_ENV=production: anyone who knows a token name holds its scopes. Verify real access tokens in production (jwksVerifier({ jwksUrl, issuer, audience }) or your own OAuthTokenVerifier), or unset NODE_ENV to try the server locally.',
    );
  }
  const table = new Map<string, readonly string[]>();
  for (const [token, scopes] of Object.entries(tokens ?? {})) {
    if (!WORD.test(token))
      throw new AttachError(
        'AUTH_DEV_TOKENS',
        `devTokens() got the token ${JSON.stringify(token)}: a token is one word of printable characters (no spaces), e.g. "dev-admin".`,
        { token },
      );
    if (!Array.isArray(scopes) || !scopes.every((s) => typeof s === 'string' && WORD.test(s)))
      throw new AttachError(
        'AUTH_DEV_TOKENS',
        `devTokens() got ${JSON.stringify(scopes)} as the scopes of "${token}": give an array of scope names without spaces, e.g. { "${token}": ["admin", "notes:write"] } ([] for none).`,
        { token },
      );
    table.set(token, Object.freeze([...scopes]));
  }
  if (table.size === 0)
    throw new AttachError(
      'AUTH_DEV_TOKENS',
      'devTokens() got no tokens: name at least one with its scopes, e.g. devTokens({ "dev-admin": ["admin"] }).',
    );
  return {
    verifyAccessToken(token: string): Promise<AuthInfo> {
      const scopes = table.get(token);
      if (scopes === undefined)
        return Promise.reject(
          new OAuthError(
            OAuthErrorCode.InvalidToken,
            'The access token was refused: it is not one of the development tokens this server was started with (devTokens).',
          ),
        );
      // A development token does not expire: each request is verified again, an hour ahead.
      return Promise.resolve({
        token,
        clientId: token,
        scopes: [...scopes],
        expiresAt: Math.floor(now() / 1000) + 3600,
        extra: { sub: token, iss: DEV_TOKEN_ISSUER },
      });
    },
  };
}
