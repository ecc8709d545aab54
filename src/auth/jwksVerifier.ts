import { OAuthError, OAuthErrorCode, type AuthInfo, type OAuthTokenVerifier } from '@modelcontextprotocol/server';
import { requireOptional } from '../_internal/loadOptional.js';

/** The part of `jose` the verifier uses (inject it with `jose` where dynamic `import()` is not wanted). */
export interface JoseModule {
  createRemoteJWKSet(url: URL, options?: Record<string, unknown>): unknown;
  jwtVerify(token: string, key: any, options?: Record<string, unknown>): Promise<{ payload: Record<string, unknown> }>;
}

/** Options of {@link jwksVerifier}. */
export interface JwksVerifierOptions {
  /** Where the authorization server publishes its signing keys (`jwks_uri` of its metadata). */
  jwksUrl: string | URL;
  /** The expected `iss` claim: the authorization server's issuer URL. */
  issuer: string;
  /** The expected `aud` claim: this resource's identifier (usually the MCP endpoint's public URL), or several. */
  audience: string | string[];
  /** Accepted signature algorithms (default: what the keys declare; asymmetric algorithms only). */
  algorithms?: string[];
  /** Leeway for `exp` and `nbf`, in seconds (default 5). */
  clockToleranceSec?: number;
  /**
   * Checks the JWT access token profile of RFC 9068 (default `true`): the `typ` header is `at+jwt` (or
   * `application/at+jwt`) and the token names a `sub` or a `client_id`, so every accepted token has its own
   * principal. `false` accepts any signed JWT with the right `iss`, `aud` and `exp`, for an authorization
   * server that does not mint RFC 9068 tokens; tokens without `sub`, `client_id` or `azp` are then anonymous.
   */
  rfc9068?: boolean;
  /** The `jose` module, when you load it yourself (default: imported lazily on the first token). */
  jose?: JoseModule;
}

const INVALID_TOKEN =
  /^ERR_(JWT|JWS|JWKS_NO_MATCHING_KEY|JWKS_MULTIPLE_MATCHING_KEYS|JOSE_ALG_NOT_ALLOWED|JOSE_NOT_SUPPORTED)/;

/**
 * An `OAuthTokenVerifier` for JWT access tokens (RFC 9068) signed by an authorization server whose keys are
 * published as a JWKS: checks the signature, `iss`, `aud` (this resource), `exp` and (unless `rfc9068: false`)
 * the `at+jwt` type and a `sub` or `client_id`, and maps `sub`/`iss` into
 * `AuthInfo.extra` (the principal), `scope` (space-separated) or `scp` (array) into `scopes`, and
 * `client_id` (else `azp`, else `sub`) into `clientId`. Needs the optional peer `jose`.
 * @example
 * const verifier = jwksVerifier({ jwksUrl: 'https://auth.example.com/.well-known/jwks.json', issuer: 'https://auth.example.com', audience: 'https://mcp.example.com/mcp' });
 * await startServer(registry, { auth: { verifier, resourceMetadata: { authorizationServers: ['https://auth.example.com'] } } });
 * @see docs/auth.md
 */
export function jwksVerifier(options: JwksVerifierOptions): OAuthTokenVerifier {
  const url = new URL(options.jwksUrl);
  const audiences = Array.isArray(options.audience) ? options.audience : [options.audience];
  const strict = options.rfc9068 !== false;
  let keys: unknown;
  return {
    async verifyAccessToken(token: string): Promise<AuthInfo> {
      const jose = options.jose ?? (await requireOptional<JoseModule>('jose'));
      keys ??= jose.createRemoteJWKSet(url);
      let payload: Record<string, unknown>;
      try {
        ({ payload } = await jose.jwtVerify(token, keys, {
          issuer: options.issuer,
          audience: audiences,
          clockTolerance: options.clockToleranceSec ?? 5,
          requiredClaims: ['exp'],
          ...(strict ? { typ: 'at+jwt' } : {}),
          ...(options.algorithms === undefined ? {} : { algorithms: options.algorithms }),
        }));
      } catch (error) {
        const code = String((error as { code?: unknown }).code ?? '');
        if (INVALID_TOKEN.test(code))
          throw new OAuthError(
            OAuthErrorCode.InvalidToken,
            `The access token was refused: ${(error as Error).message}`,
          );
        throw new OAuthError(
          OAuthErrorCode.ServerError,
          `The signing keys at ${url.href} could not be read (${(error as Error).message})`,
        );
      }
      if (strict && !named(payload.sub) && !named(payload.client_id)) {
        throw new OAuthError(
          OAuthErrorCode.InvalidToken,
          'The access token was refused: it names neither a "sub" nor a "client_id" claim (RFC 9068 requires them), so it identifies nobody. Ask the authorization server for an RFC 9068 access token, or set rfc9068: false on jwksVerifier.',
        );
      }
      return toAuthInfo(token, payload, audiences);
    },
  };
}

function toAuthInfo(token: string, payload: Record<string, unknown>, audiences: readonly string[]): AuthInfo {
  const sub = typeof payload.sub === 'string' ? payload.sub : undefined;
  const clientId =
    [payload.client_id, payload.azp, sub].find((v): v is string => typeof v === 'string' && v.length > 0) ?? '';
  const aud = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  const matched = audiences.find((a) => aud.includes(a));
  const resource = matched === undefined || !URL.canParse(matched) ? undefined : new URL(matched);
  return {
    token,
    clientId,
    scopes: scopesOf(payload),
    expiresAt: payload.exp as number,
    ...(resource === undefined ? {} : { resource }),
    extra: { sub, iss: payload.iss, claims: payload },
  };
}

function named(value: unknown): boolean {
  return typeof value === 'string' && value.length > 0;
}

function scopesOf(payload: Record<string, unknown>): string[] {
  const raw = payload.scope ?? payload.scp;
  const list = typeof raw === 'string' ? raw.split(' ') : Array.isArray(raw) ? raw : [];
  return list.filter((s): s is string => typeof s === 'string' && s.length > 0);
}
