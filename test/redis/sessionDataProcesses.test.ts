import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { openSession, request, type RawApp } from '../_helpers/raw.js';
import { ready, redisClient, uniquePrefix } from './clients.js';
import { forkedChild } from '../_helpers/sourceChild.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const started: ChildProcess[] = [];

/** The data-server fixture in its own process on one Redis under `prefix`; resolves its URL once it says (over IPC) that it serves. */
async function dataProcess(prefix: string): Promise<string> {
  const server = forkedChild('test/redis/fixtures/dataServer.ts');
  const proc = fork(server.modulePath, [], {
    cwd: root,
    execArgv: server.execArgv,
    env: { ...process.env, REDIS_URL: inject('redisUrl'), REDIS_PREFIX: prefix, NODE_OPTIONS: '' },
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
  });
  started.push(proc);
  let log = '';
  proc.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the data server did not start within 30 s:\n${log}`)), 30_000);
    proc.once('message', (message: { url: string }) => (clearTimeout(timer), resolve(message.url)));
    proc.once(
      'exit',
      (code) => (clearTimeout(timer), reject(new Error(`the data server exited with ${code}:\n${log}`))),
    );
  });
}

/** A {@link RawApp} that sends each request to `url` over real HTTP. */
const over = (url: string): RawApp => ({
  fetch: async (r) => fetch(url, { method: r.method, headers: r.headers, body: await r.text() }),
});

afterAll(() => {
  for (const proc of started) proc.kill('SIGKILL');
});

describe('per-session data written by two processes at once (RedisSessionStore, compare-and-set)', () => {
  it('loses no update: 2 processes × 60 concurrent increments of one counter, and every value set, all kept', async () => {
    const prefix = uniquePrefix('data-procs');
    const [a, b] = await Promise.all([dataProcess(prefix), dataProcess(prefix)]).then((urls) => urls.map(over));
    const sid = await openSession(a!);
    const PER = 60;
    const WIDTH = 6;
    let id = 1;
    /** `PER` calls to one instance, `WIDTH` in flight at a time; resolves the counts they stored. */
    const hammer = async (app: RawApp, name: string): Promise<number[]> => {
      const counts: number[] = [];
      const lane = async (lane: number): Promise<void> => {
        for (let i = lane; i < PER; i += WIDTH) {
          const { message } = await request(app, sid, id++, 'tools/call', {
            name: 'counter.bump',
            arguments: { mark: `${name}${i}` },
          });
          expect(message.result?.isError, JSON.stringify(message)).not.toBe(true);
          counts.push(Number(message.result.content[0].text));
        }
      };
      await Promise.all(Array.from({ length: WIDTH }, (_, lane_) => lane(lane_)));
      return counts;
    };
    const counts = (await Promise.all([hammer(a!, 'a'), hammer(b!, 'b')])).flat();
    // Every increment saw a distinct count: 1 … 120, each exactly once.
    expect(counts.sort((x, y) => x - y)).toEqual(Array.from({ length: 2 * PER }, (_, i) => i + 1));
    const read = await request(b!, sid, id++, 'tools/call', { name: 'counter.read', arguments: {} });
    expect(read.message.result.content[0].text).toBe(String(2 * PER));
    // Every set of a distinct name, from either process, is in the stored record.
    const client = await ready(redisClient());
    const record = JSON.parse((await client.get(`${prefix}{fusion-data:s:${sid}}`))!) as {
      data: Record<string, unknown>;
      version: number;
    };
    const marks = Object.keys(record.data)
      .filter((k) => k !== 'n')
      .sort();
    expect(marks).toEqual(
      [...Array.from({ length: PER }, (_, i) => `a${i}`), ...Array.from({ length: PER }, (_, i) => `b${i}`)].sort(),
    );
    expect(record.version).toBe(4 * PER);
  }, 60_000);
});
