import { describe, expect, it } from 'vitest';
import { initFusion } from '../../src/index.js';
import { isRetryable } from '../../src/protocol/failureAdvice.js';
import { createTestClient } from '../../src/testing/index.js';
import { texts } from '../_helpers/clients.js';

const refused = () => Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' });

/** The agent's text when `contextFactory` (or, without one, the handler) throws what `fail` makes. */
async function agentText(fail: () => never, where: 'context' | 'handler'): Promise<string> {
  const f = initFusion<{ db: string }>();
  const registry = f
    .registry()
    .registerAll(f.query('notes.list').handle((_input, ctx) => (where === 'handler' ? fail() : ctx.db)));
  await using t = await createTestClient(registry, {
    contextFactory: () => (where === 'context' ? fail() : { db: 'ok' }),
  });
  const result = await t.client.callTool({ name: 'notes.list', arguments: {} });
  expect(result.isError).toBe(true);
  return texts(result).join('\n');
}

describe('errors tell the agent whether calling again can help', () => {
  it('a context factory with a bug: the fault is named, retrying will not help, no stack', async () => {
    const text = await agentText(() => {
      throw new ReferenceError('db is not defined');
    }, 'context');
    expect(text).toMatchInlineSnapshot(
      `"Tool "notes.list" could not run: the server failed to prepare the request context (ReferenceError: db is not defined). This is a fault in the server, not in the request: retrying will not help. Tell the user that the server needs fixing."`,
    );
  });

  it('a context factory whose store is unreachable: temporary, call again', async () => {
    expect(
      await agentText(() => {
        throw refused();
      }, 'context'),
    ).toMatchInlineSnapshot(
      `"Tool "notes.list" could not run: the server failed to prepare the request context (connect ECONNREFUSED 127.0.0.1:5432). This looks temporary: call "notes.list" again in a moment."`,
    );
  });

  it('a handler with a bug says so; its own Error passes unchanged; one marked retryable says to call again', async () => {
    const bug = await agentText(() => {
      throw new TypeError("Cannot read properties of undefined (reading 'id')");
    }, 'handler');
    expect(bug).toMatchInlineSnapshot(
      `"The tool failed on a fault in the server (TypeError: Cannot read properties of undefined (reading 'id')). This is a fault in the server, not in the request: retrying will not help. Tell the user that the server needs fixing."`,
    );
    expect(bug).not.toMatch(/\n\s+at /);
    expect(
      await agentText(() => {
        throw new Error('Sprint "s9" does not exist; call sprints.list for the ids.');
      }, 'handler'),
    ).toBe('Sprint "s9" does not exist; call sprints.list for the ids.');
    expect(
      await agentText(() => {
        throw Object.assign(new Error('the search index is rebuilding'), { retryable: true });
      }, 'handler'),
    ).toMatchInlineSnapshot(`"the search index is rebuilding. This looks temporary: call the tool again in a moment."`);
  });

  it('classifies timeouts, network failures, busy dependencies and explicit flags', () => {
    expect(isRetryable(new DOMException('The operation timed out.', 'TimeoutError'))).toBe(true);
    expect(isRetryable(new TypeError('fetch failed', { cause: refused() }))).toBe(true);
    expect(isRetryable(Object.assign(new Error('Too Many Requests'), { status: 429 }))).toBe(true);
    expect(isRetryable(Object.assign(new Error('workflow store'), { code: 'FSM_STORE_LOAD' }))).toBe(true);
    expect(isRetryable(Object.assign(new Error('Bad Request'), { status: 400 }))).toBe(false);
    expect(isRetryable(Object.assign(refused(), { retryable: false }))).toBe(false);
    expect(isRetryable(new ReferenceError('db is not defined'))).toBe(false);
    expect(isRetryable('a string')).toBe(false);
  });
});

describe('a thrown message the agent reads is bounded', () => {
  it('cuts a 4 MiB message to a few KiB and names its length; a tool, a prompt and a resource alike', async () => {
    const huge = 'x'.repeat(4 * 1024 * 1024);
    const f = initFusion();
    const registry = f.registry().registerAll(
      f.query('notes.list').handle(() => {
        throw new Error(huge);
      }),
      f.prompt('review').handle(() => {
        throw new Error(huge);
      }),
      f.resource('notes://all').handle(() => {
        throw new Error(huge);
      }),
    );
    await using t = await createTestClient(registry);
    const tool = texts(await t.client.callTool({ name: 'notes.list', arguments: {} })).join('\n');
    const prompt = await t.client.getPrompt({ name: 'review' }).then(
      () => '',
      (e: Error) => e.message,
    );
    const resource = await t.client.readResource({ uri: 'notes://all' }).then(
      () => '',
      (e: Error) => e.message,
    );
    for (const text of [tool, prompt, resource]) {
      expect(text.length).toBeGreaterThan(8_000);
      expect(text.length).toBeLessThan(9_000);
      expect(text).toContain(`(cut: the message was ${huge.length} characters)`);
    }
  });

  it('leaves an ordinary message whole', async () => {
    expect(
      await agentText(() => {
        throw new Error('The notes database is read-only today.');
      }, 'handler'),
    ).toBe('The notes database is read-only today.');
  });
});
