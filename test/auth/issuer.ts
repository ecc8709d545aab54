import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT, type JWK } from 'jose';

/** A stand-in authorization server for tests: a real signing key, its JWKS served on 127.0.0.1, and real signed JWTs. */
export interface TestIssuer extends AsyncDisposable {
  readonly issuer: string;
  readonly jwksUrl: string;
  /** JWKS requests served so far. */
  readonly jwksHits: () => number;
  /**
   * A signed access token (RS256) for `audience`; `expiresIn` in seconds, negative for an expired token.
   * `typ`: the header's type (default `at+jwt`, RFC 9068; `null` leaves it out).
   */
  token(claims: {
    sub?: string;
    scope?: string;
    scp?: string[];
    client_id?: string;
    azp?: string;
    aud?: string;
    iss?: string;
    expiresIn?: number;
    noExp?: boolean;
    typ?: string | null;
  }): Promise<string>;
  /** A token signed by a key the JWKS does not publish. */
  foreignToken(claims: { sub: string; aud: string }): Promise<string>;
}

export async function startIssuer(audience: string): Promise<TestIssuer> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let hits = 0;
  const http = createServer((req, res) => {
    hits++;
    if (req.url !== '/jwks.json') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const sign = async (key: CryptoKey, kid: string, claims: Parameters<TestIssuer['token']>[0]): Promise<string> => {
    const { sub, scope, scp, client_id, azp, aud, iss, expiresIn, noExp, typ } = claims;
    const body: Record<string, unknown> = {};
    if (scope !== undefined) body.scope = scope;
    if (scp !== undefined) body.scp = scp;
    if (client_id !== undefined) body.client_id = client_id;
    if (azp !== undefined) body.azp = azp;
    const header = typ === null ? { alg: 'RS256', kid } : { alg: 'RS256', kid, typ: typ ?? 'at+jwt' };
    let jwt = new SignJWT(body)
      .setProtectedHeader(header)
      .setIssuer(iss ?? base)
      .setAudience(aud ?? audience)
      .setIssuedAt();
    if (sub !== undefined) jwt = jwt.setSubject(sub);
    if (noExp !== true) jwt = jwt.setExpirationTime(Math.floor(Date.now() / 1000) + (expiresIn ?? 300));
    return jwt.sign(key);
  };
  return {
    issuer: base,
    jwksUrl: `${base}/jwks.json`,
    jwksHits: () => hits,
    token: (claims) => sign(privateKey, 'k1', claims),
    foreignToken: (claims) => sign(foreign.privateKey, 'k1', claims),
    async [Symbol.asyncDispose]() {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
