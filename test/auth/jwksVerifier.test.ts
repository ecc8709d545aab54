import { OAuthError, OAuthErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import { jwksVerifier } from '../../src/index.js';
import { startIssuer } from './issuer.js';

const AUDIENCE = 'http://127.0.0.1:9/mcp';

async function refusal(promise: Promise<unknown>): Promise<OAuthError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OAuthError);
  return error as OAuthError;
}

describe('jwksVerifier', () => {
  it('accepts a token signed by a published key and maps sub/iss, scope and the audience into AuthInfo', async () => {
    await using issuer = await startIssuer(AUDIENCE);
    const verifier = jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: AUDIENCE });
    const token = await issuer.token({ sub: 'alice', scope: 'notes:read notes:write', client_id: 'desktop-app' });
    const info = await verifier.verifyAccessToken(token);
    expect(info).toMatchObject({
      token,
      clientId: 'desktop-app',
      scopes: ['notes:read', 'notes:write'],
      extra: { sub: 'alice', iss: issuer.issuer },
    });
    expect(info.resource?.href).toBe(AUDIENCE);
    expect(info.expiresAt).toBeGreaterThan(Date.now() / 1000);
  });

  it('reads an scp array as the scopes and falls back to sub as the client id', async () => {
    await using issuer = await startIssuer(AUDIENCE);
    const verifier = jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: AUDIENCE });
    const info = await verifier.verifyAccessToken(await issuer.token({ sub: 'svc-1', scp: ['a', 'b'] }));
    expect(info).toMatchObject({ clientId: 'svc-1', scopes: ['a', 'b'] });
  });

  it('refuses as invalid_token a token for another audience, from another issuer, expired, without exp, or signed by an unknown key', async () => {
    await using issuer = await startIssuer(AUDIENCE);
    const verifier = jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: AUDIENCE });
    const cases = [
      await issuer.token({ sub: 'alice', aud: 'https://other.example/mcp' }),
      await issuer.token({ sub: 'alice', iss: 'https://evil.example' }),
      await issuer.token({ sub: 'alice', expiresIn: -120 }),
      await issuer.token({ sub: 'alice', noExp: true }),
      await issuer.foreignToken({ sub: 'alice', aud: AUDIENCE }),
      'not-a-jwt',
    ];
    const codes = [];
    for (const token of cases) codes.push((await refusal(verifier.verifyAccessToken(token))).code);
    expect(codes).toEqual(Array(cases.length).fill(OAuthErrorCode.InvalidToken));
  });

  it('checks the RFC 9068 profile by default: typ at+jwt (or application/at+jwt) and a sub or client_id', async () => {
    await using issuer = await startIssuer(AUDIENCE);
    const verifier = jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: AUDIENCE });
    const accepted = [
      await issuer.token({ sub: 'alice' }),
      await issuer.token({ client_id: 'svc', typ: 'application/at+jwt' }),
    ];
    for (const token of accepted) expect((await verifier.verifyAccessToken(token)).token).toBe(token);
    const wrongType = await refusal(verifier.verifyAccessToken(await issuer.token({ sub: 'alice', typ: 'JWT' })));
    const noType = await refusal(verifier.verifyAccessToken(await issuer.token({ sub: 'alice', typ: null })));
    const nobody = await refusal(verifier.verifyAccessToken(await issuer.token({ azp: 'web', scope: 'notes:read' })));
    expect([wrongType.code, noType.code, nobody.code]).toEqual([
      OAuthErrorCode.InvalidToken,
      OAuthErrorCode.InvalidToken,
      OAuthErrorCode.InvalidToken,
    ]);
    expect(wrongType.message).toContain('"typ"');
    expect(nobody.message).toMatchInlineSnapshot(
      `"The access token was refused: it names neither a "sub" nor a "client_id" claim (RFC 9068 requires them), so it identifies nobody. Ask the authorization server for an RFC 9068 access token, or set rfc9068: false on jwksVerifier."`,
    );
  });

  it('with rfc9068: false, accepts a plain signed JWT with neither typ nor identity claims', async () => {
    await using issuer = await startIssuer(AUDIENCE);
    const verifier = jwksVerifier({
      jwksUrl: issuer.jwksUrl,
      issuer: issuer.issuer,
      audience: AUDIENCE,
      rfc9068: false,
    });
    const info = await verifier.verifyAccessToken(await issuer.token({ scope: 'notes:read', typ: 'JWT' }));
    expect(info).toMatchObject({ clientId: '', scopes: ['notes:read'] });
  });

  it('reports an unreachable JWKS as a server error (retry), not as a bad token', async () => {
    const issuer = await startIssuer(AUDIENCE);
    const token = await issuer.token({ sub: 'alice' });
    const verifier = jwksVerifier({ jwksUrl: issuer.jwksUrl, issuer: issuer.issuer, audience: AUDIENCE });
    await issuer[Symbol.asyncDispose]();
    const error = await refusal(verifier.verifyAccessToken(token));
    expect(error.code).toBe(OAuthErrorCode.ServerError);
    expect(error.message).toContain(issuer.jwksUrl);
  });
});
