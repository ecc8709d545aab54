import {
  bearerAuthChallengeResponse,
  buildOAuthProtectedResourceMetadata,
  getOAuthProtectedResourceMetadataUrl,
  OAuthError,
  OAuthErrorCode,
  verifyBearerToken,
  type AuthInfo,
  type OAuthMetadata,
  type OAuthProtectedResourceMetadata,
  type ScopeChallenge,
} from '@modelcontextprotocol/server';
import { AttachError } from '../errors/FusionError.js';
import type { AuthOptions } from './types.js';

/**
 * The HTTP authentication stage of an MCP endpoint acting as an OAuth 2.1 resource server, built on the
 * SDK's bearer helpers: it serves the Protected Resource Metadata document, verifies the bearer token of
 * every other request (401 with `WWW-Authenticate: Bearer … resource_metadata="…"` when missing, invalid or
 * expired), and answers a call the token's scopes do not allow with the SDK's 403 scope challenge.
 * @see docs/auth.md
 */
export class BearerAuth {
  readonly #options: AuthOptions;
  readonly #path: string;
  readonly #resource: URL | undefined;
  readonly #metadataPath: string;

  constructor(options: AuthOptions, path: string) {
    if (typeof options?.verifier?.verifyAccessToken !== 'function') {
      throw new AttachError(
        'AUTH_VERIFIER',
        'The auth option needs a verifier with verifyAccessToken(token); pass jwksVerifier({ jwksUrl, issuer, audience }) or your own OAuthTokenVerifier.',
      );
    }
    this.#options = options;
    this.#path = path;
    this.#resource = options.resource === undefined ? undefined : new URL(options.resource);
    this.#metadataPath = new URL(getOAuthProtectedResourceMetadataUrl(new URL(path, 'http://localhost'))).pathname;
    // Validate the authorization servers at startup rather than on the first discovery request.
    if (options.resourceMetadata !== undefined) this.#document(new URL(path, 'http://localhost'));
  }

  /** The metadata document's answer when `request` asks for it, else `undefined`. */
  metadata(request: Request): Response | undefined {
    const url = new URL(request.url);
    if (url.pathname !== this.#metadataPath || this.#options.resourceMetadata === undefined) return undefined;
    const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Methods': 'GET, OPTIONS' };
    if (request.method === 'OPTIONS') return new Response(null, { status: 204, headers: cors });
    if (request.method !== 'GET')
      return new Response(null, { status: 405, headers: { ...cors, Allow: 'GET, OPTIONS' } });
    return Response.json(this.#document(this.#resourceOf(request)), {
      headers: { ...cors, 'Cache-Control': 'max-age=3600' },
    });
  }

  /** The verified `AuthInfo` of `request`, or the 401/403 challenge to answer with. */
  async authenticate(request: Request): Promise<AuthInfo | Response> {
    // Name the metadata document in challenges only when it is served.
    const options = {
      verifier: this.#options.verifier,
      ...(this.#options.resourceMetadata === undefined
        ? {}
        : { resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(this.#resourceOf(request)) }),
      ...(this.#options.requiredScopes === undefined ? {} : { requiredScopes: this.#options.requiredScopes }),
      ...(this.#resource === undefined ? {} : { expectedResource: this.#resource }),
    };
    const [header] = (request.headers.get('authorization') ?? '').split(',');
    try {
      return await verifyBearerToken(header === '' ? undefined : header, options);
    } catch (error) {
      // A verifier that throws something else than an OAuthError still refuses the token (401), not 500.
      const refusal =
        error instanceof OAuthError
          ? error
          : new OAuthError(OAuthErrorCode.InvalidToken, 'The access token could not be verified');
      // The token may be fine: the authorization server's keys are out of reach. Retry, do not re-authenticate.
      if (refusal.code === OAuthErrorCode.ServerError)
        return Response.json(
          { error: refusal.code, error_description: `${refusal.message}; retry shortly.` },
          { status: 503, headers: { 'Retry-After': '5' } },
        );
      return bearerAuthChallengeResponse(refusal, options);
    }
  }

  /** The 403 `insufficient_scope` answer (the SDK's scope challenge) for `challenge`. */
  static scopeChallenge(challenge: ScopeChallenge, authInfo: AuthInfo): Response {
    const error = new OAuthError(OAuthErrorCode.InsufficientScope, challenge.errorDescription ?? 'Insufficient scope');
    const url =
      authInfo.resourceMetadataUrl ??
      (authInfo.resource === undefined ? undefined : getOAuthProtectedResourceMetadataUrl(authInfo.resource));
    return bearerAuthChallengeResponse(error, {
      requiredScopes: [...challenge.scopes],
      ...(url === undefined ? {} : { resourceMetadataUrl: url }),
    });
  }

  #resourceOf(request: Request): URL {
    return this.#resource ?? new URL(this.#path, new URL(request.url).origin);
  }

  #document(resource: URL): OAuthProtectedResourceMetadata {
    const meta = this.#options.resourceMetadata!;
    const servers = meta.authorizationServers;
    if (!Array.isArray(servers) || servers.length === 0) {
      throw new AttachError(
        'AUTH_METADATA',
        'auth.resourceMetadata.authorizationServers is empty; name the issuer URL of at least one authorization server, e.g. ["https://auth.example.com"].',
      );
    }
    const documents = servers.map((issuer) => {
      try {
        return buildOAuthProtectedResourceMetadata({
          oauthMetadata: { issuer } as OAuthMetadata,
          resourceServerUrl: resource,
          ...(meta.scopesSupported === undefined ? {} : { scopesSupported: meta.scopesSupported }),
          ...(meta.resourceName === undefined ? {} : { resourceName: meta.resourceName }),
          ...(meta.resourceDocumentation === undefined
            ? {}
            : { serviceDocumentationUrl: new URL(meta.resourceDocumentation) }),
          ...(meta.dangerouslyAllowInsecureIssuerUrl === undefined
            ? {}
            : { dangerouslyAllowInsecureIssuerUrl: meta.dangerouslyAllowInsecureIssuerUrl }),
        });
      } catch (error) {
        throw new AttachError(
          'AUTH_METADATA',
          `auth.resourceMetadata.authorizationServers has ${JSON.stringify(issuer)}, which is not a usable issuer URL (${(error as Error).message}); give an https:// URL without query or fragment.`,
          { issuer },
        );
      }
    });
    return { ...documents[0]!, authorization_servers: servers };
  }
}
