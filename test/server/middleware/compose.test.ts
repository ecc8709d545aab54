import { describe, expect, it } from 'vitest';
import { compose } from '../../../src/server/middleware/compose.js';
import type { FrontContext, HttpMiddleware } from '../../../src/server/httpMiddleware.js';

const context = (): FrontContext => ({
  request: new Request('http://127.0.0.1/mcp', { method: 'POST' }),
  peer: undefined,
  peerKey: undefined,
  authInfo: undefined,
  body: undefined,
});

/** A middleware that records its name on the way in and out, and tags the answer. */
function step(name: string, trail: string[]): HttpMiddleware {
  return async (c, next) => {
    trail.push(`${name} in`);
    const response = await next(c);
    trail.push(`${name} out`);
    response.headers.append('x-steps', name);
    return response;
  };
}

describe('compose', () => {
  it('runs the middlewares in list order, then the end, and unwinds in reverse', async () => {
    const trail: string[] = [];
    const chain = compose([step('a', trail), undefined, step('b', trail)], () => {
      trail.push('end');
      return new Response('ok');
    });
    const response = await chain(context());
    expect(trail).toEqual(['a in', 'b in', 'end', 'b out', 'a out']);
    expect(response.headers.get('x-steps')).toBe('b, a');
  });

  it('stops at a middleware that answers: nothing after it runs', async () => {
    const trail: string[] = [];
    const refuse: HttpMiddleware = () => new Response('no', { status: 403 });
    const chain = compose([step('a', trail), refuse, step('b', trail)], () => {
      trail.push('end');
      return new Response('ok');
    });
    const response = await chain(context());
    expect(response.status).toBe(403);
    expect(trail).toEqual(['a in', 'a out']);
  });

  it('hands what a middleware learnt to the ones after it, through the context', async () => {
    const learn: HttpMiddleware = (c, next) => {
      c.body = { method: 'tools/call' };
      c.authInfo = { token: 't', clientId: 'c', scopes: [] };
      return next(c);
    };
    const chain = compose([learn], (c) => Response.json({ body: c.body, authInfo: c.authInfo }));
    expect(await (await chain(context())).json()).toEqual({
      body: { method: 'tools/call' },
      authInfo: { token: 't', clientId: 'c', scopes: [] },
    });
  });
});
