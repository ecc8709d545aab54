import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { HTTP_ERRORS, httpError, writeHttpError, type HttpErrorKind } from '../../../src/server/http/httpErrors.js';

/** Status, the headers that matter and the body bytes of `kind` written by writeHttpError to a real socket. */
async function written(
  kind: HttpErrorKind,
  message: string,
): Promise<{ status: number; headers: Record<string, string | undefined>; body: string }> {
  const http = createServer((_req, res) => writeHttpError(res, kind, message));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  try {
    return await new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port: (http.address() as AddressInfo).port, path: '/' }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => {
          const pick = (name: string) => res.headers[name] as string | undefined;
          resolve({
            status: res.statusCode!,
            headers: { 'content-type': pick('content-type'), 'retry-after': pick('retry-after'), allow: pick('allow') },
            body,
          });
        });
      });
      req.on('error', reject).end();
    });
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}

describe('the HTTP error table', () => {
  it('gives every kind an error status and a JSON-RPC error code; Retry-After only on 429 and 503', () => {
    for (const [kind, shape] of Object.entries(HTTP_ERRORS)) {
      expect(shape.status, kind).toBeGreaterThanOrEqual(400);
      expect(shape.code, kind).toBeLessThanOrEqual(-32000);
      const retry = 'headers' in shape && 'Retry-After' in shape.headers;
      expect(retry, kind).toBe(shape.status === 429 || shape.status === 503);
    }
  });

  it('answers a kind with its status, its headers and the JSON-RPC error, the id echoed', async () => {
    const response = httpError('callsBusy', 'Service Unavailable: busy.', 7);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.text()).toBe(
      '{"jsonrpc":"2.0","error":{"code":-32603,"message":"Service Unavailable: busy."},"id":7}',
    );
    const refused = httpError('noModernStream', 'Method Not Allowed: no stream.');
    expect([refused.status, refused.headers.get('allow')]).toEqual([405, 'POST']);
    expect(JSON.parse(await refused.text()).id).toBeNull();
  });

  it('writes the same bytes to a Node response as the web answer carries', async () => {
    for (const kind of ['internal', 'shuttingDown', 'methodNotAllowed'] as const) {
      const web = httpError(kind, `the ${kind} message`);
      const node = await written(kind, `the ${kind} message`);
      expect(node.status).toBe(web.status);
      expect(node.body).toBe(await web.text());
      expect(node.headers).toEqual({
        'content-type': 'application/json',
        'retry-after': web.headers.get('retry-after') ?? undefined,
        allow: web.headers.get('allow') ?? undefined,
      });
    }
  });
});
