import { afterAll, describe, expect, it } from 'vitest';
import { clientFrom, startRuntimeChild } from './_runtimeChild.js';
import { request } from 'node:http';
import { closeAgents, postFrom, type PeerAnswer } from './_peerRequest.js';

const LEGACY = '2025-11-25';
const MB = 1_000_000;
/** The ledger's text for a full principal or peer budget (defaults: 8 and 12 MiB), whatever was refused. */
const REFUSED =
  /^The server already holds [\d.]+ MiB for (you|your network address) \(the limit is (8|12) MiB\), so this (task|request body) \([\d.]+ (KiB|MiB)\) was refused\. Let your open requests, streams and tasks finish or cancel some \(large arguments and results count\), then retry after 5 s\.$/;

/** The JSON-RPC message of an answer: a JSON body, or the last `data:` line of an SSE one. */
const messageOf = (answer: PeerAnswer): any => {
  const data = answer.body
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line.length > 6)
    .map((line) => line.slice(6));
  return JSON.parse(data.at(-1) ?? answer.body);
};

/** A legacy session opened from `peer` with raw requests: its id. */
const openSession = async (url: string, peer: string): Promise<string> => {
  const init = await postFrom(peer, url, {
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: LEGACY, capabilities: {}, clientInfo: { name: 'flood', version: '1' } },
  });
  expect(init.status, init.body).toBe(200);
  const sid = String(init.headers['mcp-session-id']);
  const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
  expect((await postFrom(peer, url, { jsonrpc: '2.0', method: 'notifications/initialized' }, headers)).status).toBe(
    202,
  );
  return sid;
};

afterAll(closeAgents);

/**
 * POSTs `text` from `peer` on a connection of its own, 64 KiB at a time, and stops sending once the answer
 * arrives (a refusal from the announced length comes before the body): the whole answer, then the socket closes.
 */
function postUntilAnswered(
  peer: string,
  url: string,
  text: string,
  headers: Record<string, string>,
): Promise<PeerAnswer> {
  const body = Buffer.from(text);
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        localAddress: peer,
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': body.length,
          ...headers,
        },
      },
      (res) => {
        answered = true;
        let answer = '';
        res.on('data', (c: Buffer) => void (answer += c.toString('utf8')));
        res.on('end', () => {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: answer, ms: performance.now() - t0 });
        });
      },
    );
    // A refused body may be cut by the server while this side still writes (EPIPE): the answer, when it came,
    // is what counts; a socket that closes with none fails with its error.
    let failure: Error | undefined;
    req.on('error', (error) => void (failure = error));
    let sent = 0;
    req.on('close', () => {
      if (answered) return;
      const what = failure?.message ?? 'the connection closed';
      const ms = Math.round(performance.now() - t0);
      reject(
        new Error(`${what} with no answer, ${sent} of ${body.length} bytes sent, after ${ms} ms`, { cause: failure }),
      );
    });
    const more = (): void => {
      if (answered) return;
      if (sent >= body.length) return void req.end();
      const piece = body.subarray(sent, (sent += 64 * 1024));
      req.write(piece, () => setImmediate(more));
    };
    more();
  });
}

/**
 * Attack of the third abuse round: 25 anonymous legacy sessions from one address start 400 tasks whose
 * arguments are 0.9 MB each (the tool runs until cancelled), against a child server at a 256 MiB heap and
 * the default ledger. Stated: the server survives; the address is refused `429` with the ledger's text once
 * its budget is full (at the body, or at the task's arguments: the JSON-RPC error carries status 429 and
 * `Retry-After` 5 s), so it never holds more than its 8 MiB of arguments; another peer is still served and
 * starts a task.
 */
describe('abuse: one address floods tasks with large arguments', () => {
  it('refuses the address past its held bytes, survives, and serves another peer', async () => {
    await using child = await startRuntimeChild('taskFlood');
    const cpu = process.cpuUsage();
    const startedAt = performance.now();
    const peer = '127.0.0.2';
    const sessions = await Promise.all(Array.from({ length: 25 }, () => openSession(child.url, peer)));
    // One body text per call, built by concatenation (the blob is stringified once).
    const blob = JSON.stringify({ blob: 'b'.repeat(0.9 * MB) });
    const call = (id: number): string =>
      `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"jobs.run","task":{},"arguments":${blob}}}`;
    // A flood request closed with no answer says so with the child's state (alive or not) and its log.
    const outcomes = await Promise.all(
      sessions.map(async (sid, s) => {
        const headers = { 'mcp-session-id': sid, 'mcp-protocol-version': LEGACY };
        const seen = { working: 0, refused: 0, other: [] as string[] };
        for (let i = 0; i < 16; i++) {
          const answer = await postUntilAnswered(peer, child.url, call(s * 100 + i), headers);
          const message = answer.status === 200 || answer.status === 429 ? messageOf(answer) : undefined;
          if (answer.status === 200 && message?.result?.task?.status === 'working') seen.working++;
          else if (
            REFUSED.test(message?.error?.message ?? '') &&
            (answer.status === 429
              ? answer.headers['retry-after'] === '5'
              : message.error.data?.status === 429 && message.error.data?.retryAfterSeconds === 5)
          )
            seen.refused++;
          else seen.other.push(`${answer.status} ${answer.body.slice(0, 300)}`);
        }
        return seen;
      }),
    ).catch((error: unknown) => {
      throw new Error(
        `a flood request failed (${String(error)}); the child is ${child.alive() ? 'alive' : 'gone'}:\n${child.log()}`,
        { cause: error },
      );
    });
    const used = process.cpuUsage(cpu);
    process.stderr.write(
      `abuse task flood: ${JSON.stringify({ ms: Math.round(performance.now() - startedAt), cpuMs: Math.round((used.user + used.system) / 1000) })}\n`,
    );
    expect(child.alive(), child.log()).toBe(true);
    expect(outcomes.flatMap((o) => o.other)).toEqual([]);
    const working = outcomes.reduce((n, o) => n + o.working, 0);
    // 8 MiB per principal (the address, every session from it together) holds 9 tasks of 0.9 MB.
    expect(working).toBeGreaterThan(0);
    expect(working).toBeLessThanOrEqual(Math.floor((8 * 2 ** 20) / (0.9 * MB)));
    expect(outcomes.reduce((n, o) => n + o.refused, 0)).toBe(400 - working);
    // Another peer is served, and may start a task of its own.
    await using other = await clientFrom(child.url, '127.0.0.3', 'legacy');
    expect((await other.listTools()).tools.map((t) => t.name)).toEqual(['jobs.run']);
    const started = (await other.request(
      { method: 'tools/call', params: { name: 'jobs.run', arguments: { blob: 'small' }, task: {} } } as any,
      { '~standard': { version: 1, vendor: 'test', validate: (value: unknown) => ({ value }) } } as any,
    )) as { task: { status: string } };
    expect(started.task.status).toBe('working');
    expect(await child.heapMiB()).toBeLessThan(200);
    // An outer net, not a speed bound: 25 s alone under a CPU hog, past 60 s beside two other abuse files.
  }, 240_000);
});
