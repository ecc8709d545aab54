import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { jsonAnswer, jsonAnswerText } from '../../../src/server/http/jsonAnswer.js';
import { writeNodeResponse } from '../../../src/server/node/writeNodeResponse.js';

const TEXT = JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'grüße' }] } });

/** Serves `make()`'s response through writeNodeResponse on 127.0.0.1 and GETs it once. */
async function written(make: () => Response): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  const server = createServer((req, res) => {
    const closed = new Promise<void>((resolve) => res.once('close', () => resolve()));
    void writeNodeResponse(make(), req, res, closed);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await new Promise((resolve, reject) => {
      const req = httpRequest({ host: '127.0.0.1', port, path: '/' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }),
        );
      });
      req.on('error', reject);
      req.end();
    });
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('jsonAnswer', () => {
  it('stays a plain text until something reads its body, and then behaves as the Response it stands for', async () => {
    const answer = jsonAnswer(TEXT, 400);
    expect(answer).toBeInstanceOf(Response);
    expect([answer.status, answer.ok, answer.headers.get('content-type')]).toEqual([400, false, 'application/json']);
    answer.headers.set('vary', 'Origin');
    expect(jsonAnswerText(answer)).toMatchObject({ text: TEXT, status: 400 });
    expect((jsonAnswerText(answer)!.headers as Headers).get('vary')).toBe('Origin');
    const copy = answer.clone();
    expect(jsonAnswerText(answer)).toBeUndefined();
    expect(answer.headers.get('vary')).toBe('Origin');
    expect(await answer.text()).toBe(TEXT);
    expect(answer.bodyUsed).toBe(true);
    expect(await copy.json()).toEqual(JSON.parse(TEXT));
    expect(jsonAnswerText(new Response(TEXT))).toBeUndefined();
  });

  it('is written in one piece with its byte length and the headers set on it', async () => {
    const reply = await written(() => {
      const answer = jsonAnswer(TEXT);
      answer.headers.set('access-control-allow-origin', 'http://localhost');
      return answer;
    });
    expect(reply.status).toBe(200);
    expect(reply.text).toBe(TEXT);
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
    expect(reply.headers['transfer-encoding']).toBeUndefined();
    expect(reply.headers['content-type']).toBe('application/json');
    expect(reply.headers['access-control-allow-origin']).toBe('http://localhost');
  });

  it('is written from its stream with the same bytes once something made it a full Response', async () => {
    const reply = await written(() => {
      const answer = jsonAnswer(TEXT, 404);
      void answer.body;
      return answer;
    });
    expect([reply.status, reply.text, reply.headers['content-type']]).toEqual([404, TEXT, 'application/json']);
    expect(reply.headers['content-length']).toBe(String(Buffer.byteLength(TEXT)));
  });
});
