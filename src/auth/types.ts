import type { OAuthTokenVerifier } from '@modelcontextprotocol/server';

/** The RFC 9728 Protected Resource Metadata this endpoint publishes (camelCase; served in the RFC's snake_case). */
export interface ResourceMetadataOptions {
  /** Issuer URLs of the authorization servers whose tokens this resource accepts (HTTPS outside localhost). */
  authorizationServers: string[];
  /** Scopes this resource understands (`scopes_supported`); advertise those your tools require. */
  scopesSupported?: string[];
  /** Human-readable name (`resource_name`). */
  resourceName?: string;
  /** Where people read about this resource (`resource_documentation`). */
  resourceDocumentation?: string;
  /** Local testing only: accept a non-HTTPS issuer URL outside localhost. */
  dangerouslyAllowInsecureIssuerUrl?: boolean;
}

/**
 * OAuth 2.1 resource-server settings of `createFusionApp` / `startServer`: every request must carry a bearer
 * token the `verifier` accepts; the verified `AuthInfo` becomes `extra.authInfo` and the caller's principal.
 * @see docs/auth.md
 */
export interface AuthOptions {
  /** Checks an access token and returns its `AuthInfo` (e.g. {@link jwksVerifier}); throw `OAuthError(invalid_token)` to refuse it. */
  verifier: OAuthTokenVerifier;
  /** Served at `/.well-known/oauth-protected-resource<path>` and named in every `WWW-Authenticate` challenge. */
  resourceMetadata?: ResourceMetadataOptions;
  /** Scopes every request needs (403 `insufficient_scope` otherwise); per-tool scopes come on top. */
  requiredScopes?: string[];
  /**
   * The public URL of the MCP endpoint (its RFC 8707 resource identifier), e.g. `https://mcp.example.com/mcp`.
   * When set, the metadata names it and a token is accepted only if the verifier reports it as
   * `AuthInfo.resource`; when unset, it is derived from each request's URL and not compared.
   */
  resource?: string | URL;
}
